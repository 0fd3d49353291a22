# kafka.sh: a real single-node KRaft broker (from Maven Central jars) for the Kafka race.
KAFKA_BROKER_VERSION=4.0.0
kafka_prepare() { :; }
kafka_stop() { :; }
kafka_start() { log "no broker yet"; }
kafka_seed() { :; }
kafka_race() { log "kafka race not made yet"; }
