#!/usr/bin/env bash
# capture-all.sh [CLIENT_KEY...]: regenerates guard-init/src/test/resources/diagnose-corpus from real
# client runs. Needs root (network namespaces). With no argument, every client below; with keys
# (jedis-5.2.0, lettuce-6.3.2, redis-py, amqp-client-5.21.0, pika, jnats-2.20.5, kafka-clients-3.7.1,
# kafka-python, ...; the Sentinel/Cluster scenarios of topology.sh under the keys *-topo: lettuce-6.3.2-topo,
# jedis-5.2.0-topo, redis-py-topo, ...) only those. Idempotent: each scenario folder is rewritten whole.
set -uo pipefail
CORPUS_DIR=$(cd "$(dirname "$0")" && pwd)
source "$CORPUS_DIR/lib.sh"
source "$CORPUS_DIR/scenarios.sh"
source "$CORPUS_DIR/clients.sh"
source "$CORPUS_DIR/kafka.sh"
source "$CORPUS_DIR/topology.sh"
[ "$(id -u)" = 0 ] || { echo "capture-all.sh needs root (ip netns)" >&2; exit 2; }
cleanup() { kafka_stop 2>/dev/null; blackhole_off 2>/dev/null; rmq_purge 2>/dev/null; net_down; }
trap cleanup EXIT
trap 'exit 130' INT TERM

# key | function and arguments
ALL=(
  "jedis-3.10.0|c_jedis 3.10.0 compose sc_wrong_password"
  "jedis-4.4.8|c_jedis 4.4.8 k8s sc_blackhole"
  "jedis-5.2.0|c_jedis 5.2.0 compose sc_killed_mid_load sc_worker_killed"
  "jedis-6.0.0|c_jedis 6.0.0 k8s sc_ipv6"
  "jedis-7.1.0|c_jedis 7.1.0 compose sc_wrong_password sc_worker_killed"
  "lettuce-5.3.7|c_lettuce 5.3.7 k8s sc_blackhole"
  "lettuce-6.3.2|c_lettuce 6.3.2 compose sc_killed_mid_load sc_ipv6"
  "lettuce-7.2.3|c_lettuce 7.2.3 k8s sc_wrong_password sc_worker_killed"
  "redis-py|c_redis_py k8s sc_ipv6 sc_blackhole sc_killed_mid_load sc_wrong_password sc_worker_killed"
  "amqp-client-4.12.0|c_amqp 4.12.0 compose sc_localhost sc_ipv6"
  "amqp-client-5.21.0|c_amqp 5.21.0 k8s sc_blackhole sc_worker_killed"
  "pika|c_pika compose sc_localhost sc_ipv6"
  "jnats-2.11.5|c_jnats 2.11.5 compose sc_ipv6 sc_blackhole"
  "jnats-2.20.5|c_jnats 2.20.5 k8s sc_blackhole sc_worker_killed"
  "kafka-clients-2.8.2|c_kafka 2.8.2 compose kafka_race kafka_healthy"
  "kafka-clients-3.7.1|c_kafka 3.7.1 k8s kafka_race kafka_healthy"
  "kafka-clients-4.0.0|c_kafka 4.0.0 compose kafka_race sc_blackhole kafka_healthy"
  "kafka-python|c_kafka_python k8s kafka_race sc_blackhole kafka_healthy"
  "spring-data-redis-3.3.5|c_spring_redis 3.3.5 6.3.2 k8s sc_blackhole"
  # a healthy run of each client above, where a false cause would show (only: without its other faults)
  "jedis-healthy|only sc_healthy c_jedis 3.10.0 compose; only sc_healthy c_jedis 5.2.0 k8s; only sc_healthy c_jedis 7.1.0 compose"
  "lettuce-healthy|only sc_healthy c_lettuce 5.3.7 k8s; only sc_healthy c_lettuce 6.3.2 compose; only sc_healthy c_lettuce 7.2.3 k8s"
  "redis-py-healthy|only sc_healthy c_redis_py compose"
  "amqp-client-healthy|only sc_healthy c_amqp 4.12.0 compose; only sc_healthy c_amqp 5.21.0 k8s"
  "pika-healthy|only sc_healthy c_pika k8s"
  "jnats-healthy|only sc_healthy c_jnats 2.11.5 compose; only sc_healthy c_jnats 2.20.5 k8s"
  "spring-data-redis-healthy|only sc_healthy c_spring_redis 3.3.5 6.3.2 compose"
  # Redis Sentinel and Redis Cluster (topology.sh): all eight faults, or the five core ones
  "lettuce-6.3.2-topo|t_lettuce 6.3.2 k8s $TOPO_ALL"
  "jedis-5.2.0-topo|t_jedis 5.2.0 compose $TOPO_ALL"
  "redis-py-topo|t_redis_py k8s $TOPO_ALL"
  "lettuce-5.3.7-topo|t_lettuce 5.3.7 compose $TOPO_CORE"
  "lettuce-7.2.3-topo|t_lettuce 7.2.3 k8s $TOPO_CORE"
  "jedis-3.10.0-topo|t_jedis 3.10.0 k8s $TOPO_CORE"
  "jedis-7.1.0-topo|t_jedis 7.1.0 compose $TOPO_CORE"
)
net_up
start=$(date +%s)
for entry in "${ALL[@]}"; do
  key=${entry%%|*}; cmd=${entry#*|}
  if [ $# -gt 0 ]; then case " $* " in *" $key "*) ;; *) continue;; esac; fi
  log "client $key"
  SEED_CMD=()
  IFS=';' read -ra steps <<<"$cmd"
  for step in "${steps[@]}"; do
    $step || log "client $key: a step failed (rc=$?)"
  done
done
log "done in $(( $(date +%s) - start )) s; scenarios in $OUT"
