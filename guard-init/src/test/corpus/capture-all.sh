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
source "$CORPUS_DIR/clients-ruby-php.sh"
source "$CORPUS_DIR/clients-go-celery.sh"
source "$CORPUS_DIR/clients-node-brokers.sh"
source "$CORPUS_DIR/clients-node.sh"
[ "$(id -u)" = 0 ] || { echo "capture-all.sh needs root (ip netns)" >&2; exit 2; }
cleanup() { kafka_stop 2>/dev/null; blackhole_off 2>/dev/null; rmq_purge 2>/dev/null; net_down; }
trap cleanup EXIT
trap 'exit 130' INT TERM

# key | function and arguments (several steps separated by ;)
REDIS_ALL="sc_refused_down sc_refused_race sc_unknown_host sc_localhost sc_loading_all sc_blackhole sc_wrong_password sc_healthy sc_schema_skew sc_permission"
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
  # Ruby, PHP, Go and Celery from Debian (clients-ruby-php.sh, clients-go-celery.sh)
  "redis-rb|c_redis_rb compose $REDIS_ALL sc_loading_first sc_ipv6"
  "sidekiq|c_sidekiq k8s $REDIS_ALL"
  "phpredis|c_phpredis compose $REDIS_ALL sc_loading_first"
  "redigo|c_redigo k8s $REDIS_ALL sc_loading_first sc_ipv6"
  "celery-redis|c_celery_redis compose $REDIS_ALL"
  "celery-amqp|c_celery_amqp k8s sc_refused_down sc_refused_race sc_unknown_host sc_localhost sc_blackhole sc_wrong_password sc_healthy sc_schema_skew sc_permission"
  # Node Redis clients from the npm registry (node/clients-node.sh)
  "ioredis-4.28.5|c_ioredis 4.28.5 compose $REDIS_ALL sc_loading_first"
  "ioredis-6.1.0|c_ioredis 6.1.0 k8s $REDIS_ALL sc_loading_first sc_ipv6"
  "node-redis-3.1.2|c_node_redis 3.1.2 k8s $REDIS_ALL sc_loading_first"
  "node-redis-4.7.1|c_node_redis 4.7.1 compose $REDIS_ALL sc_loading_first"
  "node-redis-6.4.0|c_node_redis 6.4.0 k8s $REDIS_ALL"
  "bullmq-4.18.3|c_bullmq 4.18.3 compose $REDIS_ALL"
  "bullmq-6.7.6|c_bullmq 6.7.6 k8s $REDIS_ALL"
  # Node brokers' clients from the npm registry (node-brokers/clients-node-brokers.sh)
  "amqplib-0.8.0|c_amqplib 0.8.0 compose sc_refused_down sc_refused_race sc_unknown_host sc_localhost sc_wrong_password sc_healthy sc_schema_skew sc_permission"
  "amqplib-2.3.1|c_amqplib 2.3.1 k8s sc_refused_down sc_refused_race sc_unknown_host sc_localhost sc_wrong_password sc_blackhole sc_ipv6 sc_healthy sc_schema_skew sc_permission"
  "nats.js-1.4.12|c_nats_js 1.4.12 compose sc_refused_down sc_refused_race sc_unknown_host sc_localhost sc_healthy sc_schema_skew sc_permission"
  "nats.js-2.29.3|c_nats_js 2.29.3 k8s sc_refused_down sc_refused_race sc_unknown_host sc_localhost sc_blackhole sc_healthy sc_schema_skew sc_permission"
  "kafkajs-1.16.0|c_kafkajs 1.16.0 compose sc_refused_down sc_unknown_host sc_localhost kafka_race kafka_healthy kafka_skew"
  "kafkajs-2.2.4|c_kafkajs 2.2.4 k8s sc_refused_down sc_unknown_host sc_localhost kafka_race sc_blackhole kafka_healthy kafka_skew"
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
  SEED_CMD=(); RACE_LINE=; RESTART_ON_FAILURE=
  IFS=';' read -ra steps <<<"$cmd"
  for step in "${steps[@]}"; do
    $step || log "client $key: a step failed (rc=$?)"
  done
done
log "done in $(( $(date +%s) - start )) s; scenarios in $OUT"
