# kafka.sh: a real single-node KRaft broker (kafka_2.13 from Maven Central, run with slf4j-simple)
# in the service namespace as kafka:9092, for the Kafka race scenarios.
KAFKA_BROKER_VERSION=4.0.0
kafka_cp() { "$CORPUS_DIR/fetch-jars.sh" "kafka-broker-$KAFKA_BROKER_VERSION" "org.apache.kafka:kafka_2.13:$KAFKA_BROKER_VERSION" $SLF4J; }
kafka_prepare() {
  local cp d=$RUN/kafka; cp=$(kafka_cp)
  rm -rf "$d"; mkdir -p "$d/data"
  cat > "$d/server.properties" <<PROPS
process.roles=broker,controller
node.id=1
controller.quorum.bootstrap.servers=$SIP:9093
listeners=PLAINTEXT://$SIP:9092,CONTROLLER://$SIP:9093
advertised.listeners=PLAINTEXT://kafka:9092
controller.listener.names=CONTROLLER
listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT
log.dirs=$d/data
num.partitions=1
offsets.topic.replication.factor=1
offsets.topic.num.partitions=1
transaction.state.log.replication.factor=1
transaction.state.log.min.isr=1
share.coordinator.state.topic.replication.factor=1
share.coordinator.state.topic.min.isr=1
group.initial.rebalance.delay.ms=0
PROPS
  java -cp "$cp" kafka.tools.StorageTool format -t corpus-cluster-0000001 -c "$d/server.properties" --standalone > "$d/format.log" 2>&1
  local scp=$CACHE/classes/kafka-seed
  if [ ! -f "$scp/KafkaSeed.class" ]; then mkdir -p "$scp"; javac -nowarn -d "$scp" -cp "$cp" "$CORPUS_DIR/java/KafkaSeed.java"; fi
}
kafka_start() {
  local cp; cp=$(kafka_cp)
  ip netns exec $SNS java -Xmx512m -XX:+UseSerialGC -Dorg.slf4j.simpleLogger.logFile=System.out -cp "$cp" kafka.Kafka "$RUN/kafka/server.properties" \
     > >($TS > "$RUN/kafka.log") 2>&1 &
  KAFKA_PID=$!; echo $KAFKA_PID >> "$RUN/pids"; disown $KAFKA_PID
  local i; for ((i = 0; i < 600; i++)); do ip netns exec $SNS bash -c "echo > /dev/tcp/$SIP/9092" 2>/dev/null && return 0; sleep 0.1; done
  log "kafka broker did not open 9092"; return 1
}
kafka_seed() {
  ip netns exec $SNS env URL=kafka:9092 java -cp "$CACHE/classes/kafka-seed:$(kafka_cp)" -Dorg.slf4j.simpleLogger.defaultLogLevel=warn KafkaSeed "${PAYLOADS[@]}" > "$RUN/kafka-seed.log" 2>&1
}
kafka_stop() { [ -n "${KAFKA_PID:-}" ] && kill -9 "$KAFKA_PID" 2>/dev/null; true; }
kafka_race() { RACE_DEADLINE=60 sc_refused_race; }
kafka_healthy() { HEALTHY_DEADLINE=45 sc_healthy; }
kafka_skew() { HEALTHY_DEADLINE=45 sc_schema_skew; }
