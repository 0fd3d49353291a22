#!/usr/bin/env bash
# Runs the shipped Compose stack for real, from cold, and reconciles every job: ComposeStackIT
# (module compose) after building the images (./mvnw package: guard-init and guard-examples) and,
# where no registry is reachable, the stand-in server images (compose/standins/build.sh). Figures:
# compose/target/compose-it/figures.txt.
#
#   compose/run.sh                        # the default run's: a cold start with Redis then RabbitMQ killed mid-run, the naive worker twice
#   compose/run.sh -Pproof                # 5 cold starts in a row (-Dguard.compose.runs=10 for more) and 10 Redis kill runs (-Dguard.compose.kill-runs)
#   DOCKER_HOST=unix:///var/run/docker.sock compose/run.sh -Dguard.docker.host=unix:///var/run/docker.sock
set -euo pipefail
cd "$(dirname "$0")/.."
if [[ -z ${DOCKER_HOST:-} ]]; then
  .ci/engine >/dev/null      # podman and its Docker API on /run/podman/podman.sock (needs root)
fi
exec ./mvnw -B -pl compose -am verify -Dtest=NONE -Dsurefire.failIfNoSpecifiedTests=false \
  -Dit.test=ComposeStackIT -Dit.failIfNoSpecifiedTests=false "$@"
