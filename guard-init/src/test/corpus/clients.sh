# clients.sh: one function per client; each sets the worker command, then runs its faults.
# slf4j-simple at its default level (INFO) for every logger: kafka-clients prints its whole
# configuration (ConsumerConfig values: ...) and AppInfoParser's version lines at start, as shipped.
JAVA_OPTS=(-XX:TieredStopAtLevel=1 -XX:+UseSerialGC -Dorg.slf4j.simpleLogger.logFile=System.out)

java_client() { # NAME MAINCLASS COORDINATE...
  local name=$1 main=$2; shift 2
  local cp; cp=$("$CORPUS_DIR/fetch-jars.sh" "$name" $SLF4J "$@")
  local cls=$CACHE/classes/$name
  if [ ! -f "$cls/$main.class" ] || [ "$CORPUS_DIR/java/$main.java" -nt "$cls/$main.class" ]; then
    mkdir -p "$cls"; javac -nowarn -d "$cls" -cp "$cp" "$CORPUS_DIR/java/$main.java"
  fi
  WORKER_CMD=(java "${JAVA_OPTS[@]}" -cp "$cls:$cp" "$main")
  WORKER_SRC="guard-init/src/test/corpus/java/$main.java (java 17, slf4j-simple 2.0.16 logging to stdout)"
  ORIGIN="Maven Central $*"
}
py_client() { # DEBIAN_PACKAGE SCRIPT
  VERSION=$(dpkg-query -W -f '${Version}' "$1" | sed 's/-[^-]*$//')
  WORKER_CMD=($PY "$CORPUS_DIR/python/$2")
  WORKER_SRC="guard-init/src/test/corpus/python/$2 (Debian /usr/bin/python3 $($PY -V | cut -d' ' -f2), logging.exception on each failure)"
  ORIGIN="Debian package $1 $(dpkg-query -W -f '${Version}' "$1")"
}

# each FAULT...: runs the fault functions; with FAULTS set (see only), just those of them
each() { local f; for f in "$@"; do case " ${FAULTS:-$f} " in *" $f "*) $f;; esac; done; }
# only FAULT CLIENT_FUNCTION ARGS...: one more fault for a client already captured, without its others
only() { local f=$1; shift; FAULTS=$f; "$@" "$f"; FAULTS=; }
redis_faults_full() { each sc_refused_down sc_refused_race sc_unknown_host sc_localhost sc_loading_all sc_loading_first "$@"; }

c_jedis() { # VERSION PLATFORM [extra faults]
  CLIENT=jedis VERSION=$1 PLATFORM=$2 KIND=redis CLIENT_KEY=jedis-$1; shift 2
  java_client "jedis-$VERSION" JedisWorker "redis.clients:jedis:$VERSION"
  redis_faults_full "$@"
}
c_lettuce() {
  CLIENT=lettuce VERSION=$1 PLATFORM=$2 KIND=redis CLIENT_KEY=lettuce-$1; shift 2
  java_client "lettuce-$VERSION" LettuceWorker "io.lettuce:lettuce-core:$VERSION.RELEASE"
  redis_faults_full "$@"
}
c_redis_py() {
  CLIENT=redis-py PLATFORM=$1 KIND=redis CLIENT_KEY=redis-py; shift
  py_client python3-redis redis_worker.py
  redis_faults_full "$@"
}
c_amqp() {
  CLIENT=amqp-client VERSION=$1 PLATFORM=$2 KIND=amqp CLIENT_KEY=amqp-client-$1; shift 2
  java_client "amqp-client-$VERSION" AmqpWorker "com.rabbitmq:amqp-client:$VERSION"
  each sc_refused_down sc_refused_race sc_unknown_host sc_wrong_password "$@"
}
c_pika() {
  CLIENT=pika PLATFORM=$1 KIND=amqp CLIENT_KEY=pika; shift
  py_client python3-pika pika_worker.py
  each sc_refused_down sc_refused_race sc_unknown_host sc_wrong_password "$@"
}
c_jnats() {
  CLIENT=jnats VERSION=$1 PLATFORM=$2 KIND=nats CLIENT_KEY=jnats-$1; shift 2
  java_client "jnats-$VERSION" NatsWorker "io.nats:jnats:$VERSION"
  each sc_refused_down sc_refused_race sc_unknown_host sc_localhost "$@"
}
c_kafka() {
  CLIENT=kafka-clients VERSION=$1 PLATFORM=$2 KIND=kafka CLIENT_KEY=kafka-clients-$1; shift 2
  java_client "kafka-clients-$VERSION" KafkaWorker "org.apache.kafka:kafka-clients:$VERSION"
  each sc_refused_down sc_unknown_host sc_localhost "$@"
}
c_kafka_python() {
  CLIENT=kafka-python PLATFORM=$1 KIND=kafka CLIENT_KEY=kafka-python; shift
  py_client python3-kafka kafka_worker.py
  each sc_refused_down sc_unknown_host sc_localhost "$@"
}
c_spring_redis() { # SPRING_DATA_REDIS_VERSION LETTUCE_VERSION PLATFORM [extra faults]
  CLIENT=spring-data-redis VERSION=$1 PLATFORM=$3 KIND=redis CLIENT_KEY=spring-data-redis-$1
  local lv=$2; shift 3
  java_client "spring-data-redis-$VERSION" SpringRedisWorker "org.springframework.data:spring-data-redis:$VERSION" "io.lettuce:lettuce-core:$lv.RELEASE"
  ORIGIN="$ORIGIN (driver lettuce-core $lv)"
  each sc_refused_down sc_refused_race sc_unknown_host sc_loading_all sc_wrong_password "$@"
}
