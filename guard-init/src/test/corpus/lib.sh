# lib.sh: shared pieces of the corpus capture (sourced by capture-all.sh and the clients/*.sh).
# Two network namespaces joined by a veth pair: corpus-s (the "service" host, 10.77.0.2, where the
# servers run and where dnsmasq answers the service names redis, rabbitmq, nats, kafka, sentinel like
# Compose's embedded DNS or CoreDNS would) and corpus-w (the worker's host, 10.77.0.3).
set -o pipefail
CORPUS_DIR=${CORPUS_DIR:-$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)}
OUT=${OUT:-$(cd "$CORPUS_DIR/../resources" && pwd)/diagnose-corpus}
CACHE=${CACHE:-/tmp/corpus-cache}
RUN=$CACHE/run
WNS=corpus-w; SNS=corpus-s; SIP=10.77.0.2; WIP=10.77.0.3
TS="perl $CORPUS_DIR/ts.pl"
PY=/usr/bin/python3
SLF4J=org.slf4j:slf4j-api:2.0.16\ org.slf4j:slf4j-simple:2.0.16
SERVICES="redis rabbitmq nats kafka sentinel"

log() { echo "[corpus $(date -u +%H:%M:%S)] $*" >&2; }

# background processes we started: "pid" per line
bg() { "$@" & echo $! >> "$RUN/pids"; disown $!; }
kill_bg() {
  [ -f "$RUN/pids" ] || return 0
  local p
  for p in $(tac "$RUN/pids"); do kill -9 "$p" 2>/dev/null; done
  : > "$RUN/pids"
  sleep 0.3
}

net_down() {
  kill_bg
  [ -n "${WPID:-}" ] && kill -9 "$WPID" 2>/dev/null
  [ -f "$RUN/net-pids" ] && kill -9 $(cat "$RUN/net-pids") 2>/dev/null
  rm -f "$RUN/net-pids"
  [ -f "$RUN/dnsmasq.pid" ] && kill "$(cat "$RUN/dnsmasq.pid")" 2>/dev/null
  ip netns del $WNS 2>/dev/null; ip netns del $SNS 2>/dev/null
  rm -rf /etc/netns/$WNS /etc/netns/$SNS
  true
}

net_up() {
  net_down
  mkdir -p "$RUN"; : > "$RUN/pids"
  ip netns add $SNS; ip netns add $WNS
  ip link add cw0 type veth peer name cs0
  ip link set cw0 netns $WNS; ip link set cs0 netns $SNS
  ip -n $SNS addr add $SIP/24 dev cs0; ip -n $WNS addr add $WIP/24 dev cw0
  for ns in $SNS $WNS; do ip -n $ns link set lo up; done
  ip -n $SNS link set cs0 up; ip -n $WNS link set cw0 up
  mkdir -p /etc/netns/$WNS /etc/netns/$SNS
  printf '127.0.0.1\tlocalhost\n::1\tlocalhost ip6-localhost ip6-loopback\n%s\tworker\n' $WIP > /etc/netns/$WNS/hosts
  printf 'nameserver %s\noptions timeout:1 attempts:2\n' $SIP > /etc/netns/$WNS/resolv.conf
  printf '127.0.0.1\tlocalhost\n%s\t%s\n' $SIP "$SERVICES" > /etc/netns/$SNS/hosts
  printf 'nameserver 127.0.0.1\n' > /etc/netns/$SNS/resolv.conf
  printf '%s %s\n' $SIP "$SERVICES" > "$RUN/dns-hosts"
  # authoritative for everything: names in dns-hosts get their address, every other name NXDOMAIN
  ip netns exec $SNS dnsmasq --no-resolv --no-hosts --addn-hosts="$RUN/dns-hosts" --address=/#/ \
     --listen-address=$SIP --bind-interfaces --pid-file="$RUN/dnsmasq.pid" --log-facility=/dev/null
  # the shared RabbitMQ (127.0.0.1:5672 of the root namespace) reached through a unix socket;
  # rmq_start opens the listener rabbitmq:5672 in the service namespace.
  rm -f "$RUN/rmq.sock"
  socat UNIX-LISTEN:"$RUN/rmq.sock",fork TCP:127.0.0.1:5672 &
  echo $! > "$RUN/net-pids"; disown $!
}

# ---- scenarios ----------------------------------------------------------------------------
# begin NAME: a fresh capture folder $SCN
begin() {
  NAME=$1; SCN=$CACHE/cap/$NAME; rm -rf "$SCN"; mkdir -p "$SCN"
  ARGS=""; FAULT=""; log "scenario $NAME"
}
# finish EXPECTED_CAUSE : writes expected/args/SOURCES.md and moves the folder into $OUT
finish() {
  local cause=$1 d=$OUT/$NAME
  kill_bg
  echo "cause: $cause" > "$SCN/expected"
  [ -n "$ARGS" ] && printf '%s\n' $ARGS > "$SCN/args"
  {
    echo "# $NAME"
    echo
    echo "Captured from a real client run by guard-init/src/test/corpus (not hand-written)."
    echo
    echo "- client: $CLIENT"
    echo "- version: $VERSION"
    echo "- origin: $ORIGIN"
    echo "- worker program: $WORKER_SRC"
    echo "- fault: $FAULT"
    echo "- expected: cause: $cause"
    echo "- command: \`sudo guard-init/src/test/corpus/capture-all.sh $CLIENT_KEY\` (scenario function $FN)"
    echo "- captured: $(date -u +%Y-%m-%dT%H:%M:%SZ) on $(uname -sr); servers: $(redis-server --version | cut -d' ' -f1-3), $(nats-server --version), RabbitMQ $(rabbitmqctl version 2>/dev/null || echo '(shared instance)')"
    echo "- timestamps: each line prefixed by ts.pl when the line was written, as \`docker compose logs --timestamps\` / \`kubectl logs --timestamps\` do"
  } > "$SCN/SOURCES.md"
  rm -rf "$d"; mkdir -p "$OUT"; mv "$SCN" "$d"
  log "  -> $NAME: $(wc -c < "$d/worker.log") bytes, $(grep -c ' received' "$d/worker.log") received, $(grep -c ' processed' "$d/worker.log") processed"
}

# worker_run FILE [ENV=VAL...] : the client's worker in the worker namespace, foreground
worker_run() {
  local f=$1; shift
  worker_bg "$f" "$@"
  wait $WPID; WPID=
  sleep 0.2
}
# worker_bg FILE [ENV=VAL...] : same, background; WPID is the worker's pid
worker_bg() {
  local f=$1; shift
  local as=() cmd=("${WORKER_CMD[@]}")
  [ -n "${AS_NOBODY:-}" ] && as=(setpriv --reuid 65534 --regid 65534 --clear-groups)
  # a worker that exits when its broker is down at boot (Sidekiq) is restarted, as Compose's
  # restart: on-failure or a pod's restartPolicy does, until DEADLINE_S has passed
  [ -n "${RESTART_ON_FAILURE:-}" ] && cmd=(bash -c 'end=$((SECONDS + DEADLINE_S)); until "$@"; do [ $SECONDS -ge $end ] && exit 1; sleep 1; done' restart "${cmd[@]}")
  ip netns exec $WNS "${as[@]}" env "$@" "${cmd[@]}" > >($TS > "$f") 2>&1 &
  WPID=$!
}
wait_for_line() { # FILE REGEX TIMEOUT_S
  wait_for_count "$1" "$2" 1 "$3"
}
wait_for_count() { # FILE REGEX N TIMEOUT_S: until N lines match
  local i
  for ((i = 0; i < $4 * 10; i++)); do [ "$(grep -cE "$2" "$1" 2>/dev/null)" -ge "$3" ] && return 0; sleep 0.1; done
  return 1
}

# ---- servers ------------------------------------------------------------------------------
JOBS12=$(printf 'j-%02d ' $(seq 1 12))
redis_start() { # extra redis-server args; its log goes to $RUN/redis.log
  mkdir -p "$RUN/redis"
  ip netns exec $SNS redis-server --port 6379 --bind 0.0.0.0 --protected-mode no --save '' \
     --appendonly no --dir "$RUN/redis" "$@" > >($TS >> "$RUN/redis.log") 2>&1 &
  REDIS_PID=$!; echo $REDIS_PID >> "$RUN/pids"; disown $REDIS_PID
}
redis_cli() { ip netns exec $SNS redis-cli -h $SIP "$@"; }
redis_wait() { local i; for ((i = 0; i < 100; i++)); do redis_cli ping 2>/dev/null | grep -q PONG && return 0; sleep 0.1; done; return 1; }
redis_fresh() { rm -rf "$RUN/redis" "$RUN/redis.log"; mkdir -p "$RUN/redis"; }
# a dump.rdb of N keys plus the 12 jobs, made once
redis_dump() {
  local n=$1 d=$CACHE/rdb-$1
  [ -f "$d/dump.rdb" ] && return 0
  mkdir -p "$d"
  redis-server --port 6391 --bind 127.0.0.1 --save '' --appendonly no --dir "$d" --enable-debug-command yes --daemonize yes --pidfile "$d/pid" --logfile "$d/make.log"
  sleep 0.5
  redis-cli -p 6391 debug populate "$n" > /dev/null
  redis-cli -p 6391 rpush jobs $JOBS12 > /dev/null
  redis-cli -p 6391 save > /dev/null
  redis-cli -p 6391 shutdown nosave 2>/dev/null; sleep 0.5
}
redis_start_loading() { # N keys: a server that answers LOADING while it reads them
  redis_dump "$1"
  cp "$CACHE/rdb-$1/dump.rdb" "$RUN/redis/dump.rdb"
  redis_start --dbfilename dump.rdb --key-load-delay 20 --loading-process-events-interval-bytes 1024
}

rmq_start() { bg ip netns exec $SNS socat TCP-LISTEN:5672,bind=$SIP,fork,reuseaddr UNIX-CONNECT:"$RUN/rmq.sock"; }
rmq_purge() { $PY "$CORPUS_DIR/python/amqp_seed.py" purge; }
rmq_seed() { $PY "$CORPUS_DIR/python/amqp_seed.py" seed "${PAYLOADS[@]}"; }

nats_start() { bg ip netns exec $SNS nats-server -a $SIP -p 4222 -l "$RUN/nats.log"; sleep 0.3; }
nats_seed() { # publishes the 12 jobs once the worker is subscribed
  local msg="" j
  for j in "${PAYLOADS[@]}"; do msg+="PUB jobs ${#j}"$'\r\n'"$j"$'\r\n'; done
  { printf 'CONNECT {"verbose":false}\r\n%sPING\r\n' "$msg"; sleep 0.5; } | ip netns exec $SNS socat - TCP:$SIP:4222 > /dev/null
}

ipv6_off() { ip netns exec $WNS sysctl -qw net.ipv6.conf.all.disable_ipv6=1 net.ipv6.conf.default.disable_ipv6=1 net.ipv6.conf.lo.disable_ipv6=1; }
ipv6_on() { ip netns exec $WNS sysctl -qw net.ipv6.conf.all.disable_ipv6=0 net.ipv6.conf.default.disable_ipv6=0 net.ipv6.conf.lo.disable_ipv6=0; }
blackhole_on() { ip netns exec $SNS iptables -A INPUT -p tcp --dport "$1" -j DROP; }
blackhole_off() { ip netns exec $SNS iptables -F INPUT 2>/dev/null; true; }
