# scenarios.sh: the faults, each made for real, for whichever client clients.sh set up.
# A client sets: CLIENT VERSION ORIGIN WORKER_SRC CLIENT_KEY KIND (redis|amqp|nats|kafka) PLATFORM WORKER_CMD.

# ---- per broker kind ----
svc_port() { case $KIND in redis) echo 6379;; amqp) echo 5672;; nats) echo 4222;; kafka) echo 9092;; esac; }
svc_name() { case $KIND in redis) echo redis;; amqp) echo rabbitmq;; nats) echo nats;; kafka) echo kafka;; esac; }
url_for() { # HOST [PASSWORD]
  local h=$1 p=${2:-}
  case $KIND in
    redis) if [ -n "$p" ]; then echo "redis://:$p@$h:6379/0"; else echo "redis://$h:6379/0"; fi;;
    amqp) echo "amqp://guest:${p:-guest}@$h:5672/%2F";;
    nats) echo "nats://$h:4222";;
    kafka) echo "$h:9092";;
  esac
}
svc_prepare() { case $KIND in redis) redis_fresh;; amqp) rmq_purge;; nats) rm -f "$RUN/nats.log";; kafka) kafka_prepare;; esac; }
svc_start() { # [redis-server args]
  case $KIND in
    redis) redis_start "$@"; redis_wait;;
    amqp) rmq_start; sleep 0.3;;
    nats) nats_start;;
    kafka) kafka_start;;
  esac
}
svc_seed() { # WORKER_LOG: puts the jobs (PAYLOADS, default the 12 ids) where the worker will find them
  if [ ${#SEED_CMD[@]} -gt 0 ]; then # a framework's own job format (BullMQ, Sidekiq, Celery): its seeder
    ip netns exec $SNS env URL="$(url_for $SIP)" "${SEED_CMD[@]}" "${PAYLOADS[@]}" > "$RUN/seed.log" 2>&1 \
      || log "seeder failed: $(tail -3 "$RUN/seed.log")"
    return
  fi
  case $KIND in
    redis) redis_cli rpush jobs "${PAYLOADS[@]}" > /dev/null;;
    amqp) rmq_seed;;
    nats) wait_for_line "$1" 'subscribed to jobs' 30 && sleep 0.3 && nats_seed;;
    kafka) kafka_seed;;
  esac
}
svc_desc() { case $KIND in redis) echo "redis-server 7.0.15 (Debian) in namespace corpus-s, list jobs seeded with 12 ids";;
  amqp) echo "the machine's RabbitMQ reached as rabbitmq:5672 through socat (corpus-s 10.77.0.2:5672 -> unix socket -> 127.0.0.1:5672), durable queue guard-corpus-jobs seeded with 12 messages";;
  nats) echo "nats-server $(nats-server --version | cut -d' ' -f2) in namespace corpus-s, 12 messages published on subject jobs once the worker had subscribed";;
  kafka) echo "a single-node KRaft broker (kafka_2.13 $KAFKA_BROKER_VERSION from Maven Central) in namespace corpus-s, topic jobs with 12 records";; esac; }
scn() { begin "$PLATFORM-$CLIENT-$VERSION-$1"; FN=$2; PAYLOADS=($JOBS12); AS_NOBODY=""; }

# ---- faults ----
sc_refused_down() {
  scn refused-down sc_refused_down; svc_prepare
  FAULT="nothing listens on $(svc_name):$(svc_port) for the whole capture (name resolves to 10.77.0.2, port closed: connection refused)"
  worker_run "$SCN/worker.log" URL="$(url_for "$(svc_name)")" DEADLINE_S=6
  finish dependency-down
}
sc_refused_race() {
  scn refused-race sc_refused_race; svc_prepare
  FAULT="$(svc_name):$(svc_port) closed at first; the server was started after the worker's third failed attempt, then $(svc_desc)"
  worker_bg "$SCN/worker.log" URL="$(url_for "$(svc_name)")" DEADLINE_S=${RACE_DEADLINE:-25}
  wait_for_count "$SCN/worker.log" "${RACE_LINE:-attempt [0-9]+ failed}" 3 30
  svc_start; svc_seed "$SCN/worker.log"
  wait $WPID
  finish startup-race
}
sc_unknown_host() {
  scn unknown-host-drift sc_unknown_host; svc_prepare; svc_start
  local h; h=$(svc_name)-primary
  FAULT="the worker is configured with host $h, a name the namespace's DNS (dnsmasq, authoritative) answers NXDOMAIN for; the service runs as $(svc_name):$(svc_port)"
  ARGS="--endpoint $(svc_name):$(svc_port)"
  worker_run "$SCN/worker.log" URL="$(url_for "$h")" DEADLINE_S=6
  finish env-drift
}
sc_localhost() {
  scn localhost-drift sc_localhost; svc_prepare; svc_start
  FAULT="the worker is configured with localhost while the service runs on another host as $(svc_name):$(svc_port) (nothing listens on the worker's own loopback)"
  ARGS="--endpoint $(svc_name):$(svc_port)"
  worker_run "$SCN/worker.log" URL="$(url_for localhost)" DEADLINE_S=6
  finish env-drift
}
sc_ipv6() {
  scn ipv6-loopback-drift sc_ipv6; svc_prepare; svc_start
  FAULT="the worker is configured with ::1 in a namespace where IPv6 is disabled (sysctl net.ipv6.conf.all.disable_ipv6=1); the service runs as $(svc_name):$(svc_port)"
  ARGS="--endpoint $(svc_name):$(svc_port)"
  ipv6_off
  worker_run "$SCN/worker.log" URL="$(url_for '[::1]')" DEADLINE_S=6
  ipv6_on
  finish env-drift
}
sc_blackhole() {
  scn blackhole-timeout sc_blackhole; svc_prepare; svc_start
  FAULT="the server runs, but iptables in the server's namespace DROPs tcp dport $(svc_port) (a black hole: connects time out)"
  blackhole_on "$(svc_port)"
  worker_run "$SCN/worker.log" URL="$(url_for "$(svc_name)")" DEADLINE_S=12
  blackhole_off
  finish network-blocked
}
sc_wrong_password() {
  scn wrong-password-drift sc_wrong_password; svc_prepare
  if [ "$KIND" = redis ]; then
    svc_start --requirepass s3cret; redis_cli -a s3cret --no-auth-warning rpush jobs $JOBS12 > /dev/null
    FAULT="redis-server runs with requirepass s3cret; the worker's URL carries the password wrong-one"
  else
    svc_start; svc_seed "$SCN/worker.log"
    FAULT="the worker's URL carries the password wrong-one for user guest (RabbitMQ answers ACCESS_REFUSED)"
  fi
  worker_run "$SCN/worker.log" URL="$(url_for "$(svc_name)" wrong-one)" DEADLINE_S=6
  finish env-drift
}
sc_loading_all() {
  scn loading-every-attempt sc_loading_all; redis_fresh
  FAULT="redis-server restarted on a dump of 200,000 keys with --key-load-delay 20 --loading-process-events-interval-bytes 1024: it answers -LOADING for the whole capture (its own log is redis.log)"
  redis_start_loading 200000; sleep 0.5
  worker_run "$SCN/worker.log" URL="$(url_for redis)" DEADLINE_S=8
  cp "$RUN/redis.log" "$SCN/redis.log"
  finish redis-loading
}
sc_loading_first() {
  scn loading-first-seconds sc_loading_first; redis_fresh
  FAULT="redis-server restarted on a dump of 40,000 keys (with the 12 jobs) with --key-load-delay 20 --loading-process-events-interval-bytes 1024: -LOADING for its first seconds, then the jobs flow (its own log is redis.log)"
  redis_start_loading 40000; sleep 0.3
  worker_run "$SCN/worker.log" URL="$(url_for redis)" DEADLINE_S=25
  cp "$RUN/redis.log" "$SCN/redis.log"
  finish startup-race
}
sc_killed_mid_load() {
  scn killed-mid-load sc_killed_mid_load; redis_fresh
  FAULT="redis-server loading a dump of 200,000 keys (answers -LOADING) was SIGKILLed 4 s into the load, as an OOM kill or a failed liveness probe does, restarted, and killed again 4 s into the second load (redis.log is its own log)"
  redis_start_loading 200000; sleep 0.3
  worker_bg "$SCN/worker.log" URL="$(url_for redis)" DEADLINE_S=14
  sleep 4; kill -9 $REDIS_PID; sleep 1.5
  redis_start --dbfilename dump.rdb --key-load-delay 20 --loading-process-events-interval-bytes 1024
  sleep 4; kill -9 $REDIS_PID
  wait $WPID
  cp "$RUN/redis.log" "$SCN/redis.log"
  finish oom-or-probe-kill
}
sc_worker_killed() {
  scn worker-sigkilled-mid-job sc_worker_killed; svc_prepare; svc_start
  FAULT="$(svc_desc); each job takes 400 ms; the worker was SIGKILLed (as the OOM killer does) right after logging 'job j-05 received' (worker-previous.log) and a new instance started (worker.log)"
  [ "$KIND" = nats ] || svc_seed "$SCN/worker-previous.log"
  worker_bg "$SCN/worker-previous.log" URL="$(url_for "$(svc_name)")" DEADLINE_S=30 JOB_MS=400
  [ "$KIND" = nats ] && svc_seed "$SCN/worker-previous.log"
  wait_for_line "$SCN/worker-previous.log" 'job j-05 received' 40
  sleep 0.1; kill -9 $WPID; wait $WPID 2>/dev/null; sleep 1
  worker_run "$SCN/worker.log" URL="$(url_for "$(svc_name)")" DEADLINE_S=8 JOB_MS=400
  finish oom-or-probe-kill
}

sc_healthy() {
  scn healthy sc_healthy; svc_prepare; svc_start
  FAULT="none: $(svc_desc); the worker took every job (a healthy run, where a false cause would show)"
  [ "$KIND" = nats ] || svc_seed "$SCN/worker.log"
  worker_bg "$SCN/worker.log" URL="$(url_for "$(svc_name)")" DEADLINE_S=${HEALTHY_DEADLINE:-15}
  [ "$KIND" = nats ] && svc_seed "$SCN/worker.log"
  wait $WPID; WPID=
  finish healthy
}
sc_schema_skew() {
  scn renamed-field-skew sc_schema_skew; svc_prepare; svc_start
  PAYLOADS=()
  local i; for i in $(seq 1 12); do
    if [ $((i % 2)) = 1 ]; then PAYLOADS+=("{\"job_id\":\"j-$(printf %02d $i)\"}"); else PAYLOADS+=("{\"id\":\"j-$(printf %02d $i)\"}"); fi
  done
  FAULT="$(svc_desc | sed 's/ seeded with 12 ids\| seeded with 12 messages\| with 12 records//'); the 12 payloads are JSON, every second one with the field renamed job_id -> id (a producer's rename): the worker reads job_id, gets nothing, and its broad catch drops the job without a line"
  [ "$KIND" = nats ] || svc_seed "$SCN/worker.log"
  worker_bg "$SCN/worker.log" URL="$(url_for "$(svc_name)")" DEADLINE_S=${HEALTHY_DEADLINE:-12} JOBS=6
  [ "$KIND" = nats ] && svc_seed "$SCN/worker.log"
  wait $WPID; WPID=
  finish schema-skew
}
sc_permission() {
  scn permission-denied sc_permission; svc_prepare; svc_start
  rm -rf "$RUN/results"; mkdir -p "$RUN/results"; chmod 755 "$RUN/results"
  FAULT="$(svc_desc); the worker runs as uid 65534 (setpriv, as a pod's runAsUser) and writes each result into $RUN/results, a directory owned by root with mode 755: every write is denied (EACCES)"
  AS_NOBODY=1
  [ "$KIND" = nats ] || svc_seed "$SCN/worker.log"
  worker_bg "$SCN/worker.log" URL="$(url_for "$(svc_name)")" DEADLINE_S=8 RESULT_DIR="$RUN/results"
  [ "$KIND" = nats ] && svc_seed "$SCN/worker.log"
  wait $WPID; WPID=
  finish permission
}
