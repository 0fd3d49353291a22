#!/usr/bin/env bash
# Runs the shipped Compose stack for real, from cold, and reconciles every job: ComposeStackIT
# (5 cold starts, Redis killed and restarted mid-run, the naive worker twice), after building the
# images (./mvnw package: guard-init and guard-examples) and, where no registry is reachable, the
# stand-in server images (compose/standins/build.sh). Figures: examples/target/compose-it/figures.txt.
#
#   compose/run.sh                        # as root on a machine like CI: starts podman (.ci/engine)
#   compose/run.sh -Dguard.compose.runs=10
#   DOCKER_HOST=unix:///var/run/docker.sock compose/run.sh -Dguard.docker.host=unix:///var/run/docker.sock
set -euo pipefail
cd "$(dirname "$0")/.."
if [[ -z ${DOCKER_HOST:-} ]]; then
  .ci/engine >/dev/null      # podman and its Docker API on /run/podman/podman.sock (needs root)
fi
exec ./mvnw -B -pl examples -am verify -Dtest=NONE -Dsurefire.failIfNoSpecifiedTests=false \
  -Dit.test=ComposeStackIT -Dit.failIfNoSpecifiedTests=false "$@"
