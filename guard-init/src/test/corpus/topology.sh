# topology.sh: Redis Sentinel and Redis Cluster topologies and their faults (sourced by capture-all.sh).
# Every server runs in corpus-s (10.77.0.2) with the installed redis-server 7.0 (redis-server --sentinel
# for the sentinels), started through bg (lib.sh) so that finish/kill_bg/net_down stop it. Each server's
# own log goes through ts.pl into $TOPO/<pod>.log and is copied into the scenario folder:
#   Sentinel set: redis-0.log (master at start, :6379), redis-1.log (replica, :6380),
#                 sentinel-0.log sentinel-1.log sentinel-2.log (:26379 :26380 :26381)
#   Cluster:      redis-0.log ... redis-5.log (node :7000+N)
# The worker runs in corpus-w with TOPOLOGY=sentinel (URL $SEN_URL) or TOPOLOGY=cluster
# (URL redis://redis:7000), or plain for the pinned/MOVED faults.
TOPO=$RUN/topo
SEN_URL="redis-sentinel://sentinel:26379,sentinel:26380,sentinel:26381#mymaster"
SEN_ARGS="--endpoint sentinel:26379 --endpoint sentinel:26380 --endpoint sentinel:26381"
CL_PORTS="7000 7001 7002 7003 7004 7005"
TOPO_ALL="sc_sen_failover sc_sen_announce_loopback sc_sen_sentinels_down sc_sen_pinned_readonly sc_cl_failover sc_cl_announce_loopback sc_cl_down sc_cl_moved"
TOPO_CORE="sc_sen_failover sc_sen_announce_loopback sc_cl_failover sc_cl_announce_loopback sc_cl_moved"
NODE_PID=()

topo_fresh() { kill_bg; rm -rf "$TOPO"; mkdir -p "$TOPO"; NODE_PID=(); }
wait_until() { # TIMEOUT_S COMMAND...: runs COMMAND every 0.1 s until it succeeds
  local t=$1 i; shift
  for ((i = 0; i < t * 10; i++)); do "$@" 2>/dev/null && return 0; sleep 0.1; done
  return 1
}
wait_for_any() { # REGEX TIMEOUT_S FILE...: a line matching REGEX in any of the files
  local re=$1 t=$2; shift 2
  wait_until "$t" grep -qE "$re" "$@"
}
now() { date -u +%H:%M:%S.%3N; }

# node_start PORT LOGNAME [redis-server args]: a redis-server on 10.77.0.2:PORT (and 127.0.0.1:PORT)
node_start() {
  local port=$1 lg=$2; shift 2
  mkdir -p "$TOPO/$port"
  bg ip netns exec $SNS redis-server --port "$port" --bind 0.0.0.0 --protected-mode no --save '' \
     --appendonly no --dir "$TOPO/$port" "$@" > >($TS >> "$TOPO/$lg") 2>&1
  NODE_PID[$port]=$(tail -1 "$RUN/pids")
}
node_kill() { kill -9 "${NODE_PID[$1]}" 2>/dev/null; }
node_cli() { local port=$1; shift; ip netns exec $SNS redis-cli -h $SIP -p "$port" "$@"; }
node_up() { node_cli "$1" ping | grep -q PONG; }
node_wait() { wait_until 10 node_up "$1"; }
topo_copy() { local f; for f in "$@"; do [ -f "$TOPO/$f" ] && cp "$TOPO/$f" "$SCN/$f"; done; true; }

# ---- Sentinel set -------------------------------------------------------------------------
# sen_data ADDRESS: master :6379 and its replica :6380 (replicaof ADDRESS 6379), 12 jobs on the master
sen_data() {
  local ip=$1
  node_start 6379 redis-0.log
  node_start 6380 redis-1.log --replicaof "$ip" 6379
  node_wait 6379 && node_wait 6380 || return 1
  wait_until 15 sen_replica_synced 6380 || return 1
  node_cli 6379 rpush jobs $JOBS12 > /dev/null
  node_cli 6379 wait 1 2000 > /dev/null
}
sen_replica_synced() { node_cli "$1" info replication | grep -q 'master_link_status:up'; }
# sentinel_start IDX ADDRESS: sentinel-IDX on :26379+IDX monitoring mymaster at ADDRESS:6379, own config
sentinel_start() {
  local i=$1 ip=$2 port=$((26379 + $1)) d=$TOPO/sentinel-$1
  mkdir -p "$d"
  cat > "$d/sentinel.conf" <<EOF
port $port
bind 0.0.0.0
protected-mode no
dir $d
sentinel monitor mymaster $ip 6379 2
sentinel down-after-milliseconds mymaster 1000
sentinel failover-timeout mymaster 3000
sentinel parallel-syncs mymaster 1
EOF
  bg ip netns exec $SNS redis-server "$d/sentinel.conf" --sentinel > >($TS >> "$TOPO/sentinel-$i.log") 2>&1
}
# a sentinel that knows the replica and the two other sentinels
sen_ready() {
  local m; m=$(node_cli "$1" sentinel master mymaster | paste - -)
  grep -qP '^num-slaves\t1\r?$' <<<"$m" && grep -qP '^num-other-sentinels\t2\r?$' <<<"$m"
}
sen_up() { # ADDRESS: data nodes and three sentinels monitoring ADDRESS 6379
  local ip=$1 i
  topo_fresh
  sen_data "$ip" || { log "  sentinel data nodes did not come up"; return 1; }
  for i in 0 1 2; do sentinel_start $i "$ip"; done
  for i in 0 1 2; do wait_until 20 sen_ready $((26379 + i)) || { log "  sentinel-$i not ready"; return 1; }; done
}
SEN_LOGS="redis-0.log redis-1.log sentinel-0.log sentinel-1.log sentinel-2.log"
sen_desc() { # ADDRESS
  echo "a Redis Sentinel set in corpus-s (redis-server 7.0.15, Debian): master 10.77.0.2:6379 (redis-0.log), replica :6380 (redis-1.log, replicaof $1 6379), three sentinels on sentinel:26379 :26380 :26381 (sentinel-0/1/2.log; sentinel monitor mymaster $1 6379 2, down-after-milliseconds 1000, failover-timeout 3000); list jobs seeded with 12 ids on the master and replicated (WAIT 1)"
}
sen_switch() { grep -h -m1 -o '+switch-master.*' "$TOPO"/sentinel-*.log 2>/dev/null | head -1; }

sc_sen_failover() {
  scn sen-failover sc_sen_failover
  sen_up $SIP || { kill_bg; return 1; }
  ARGS=$SEN_ARGS
  worker_bg "$SCN/worker.log" TOPOLOGY=sentinel URL="$SEN_URL" DEADLINE_S=25 JOB_MS=400
  wait_for_line "$SCN/worker.log" 'job j-04 processed' 30
  node_kill 6379; local t; t=$(now)
  wait_for_any '\+switch-master' 20 "$TOPO"/sentinel-*.log
  wait $WPID; WPID=
  FAULT="$(sen_desc $SIP); each job takes 400 ms; the worker uses Sentinel ($SEN_URL$SENTINEL_CLIENT_NOTE); right after it logged 'job j-04 processed' the master redis-server (10.77.0.2:6379) was SIGKILLed (at $t UTC) and not restarted; the sentinels failed over to the replica: '$(sen_switch)'"
  kill_bg; topo_copy $SEN_LOGS
  finish failover
}
sc_sen_announce_loopback() {
  scn sen-announce-loopback sc_sen_announce_loopback
  sen_up 127.0.0.1 || { kill_bg; return 1; }
  ARGS=$SEN_ARGS
  local a; a=$(node_cli 26379 sentinel get-master-addr-by-name mymaster | paste -sd' ' | tr -d '\r')
  FAULT="$(sen_desc 127.0.0.1); the sentinels monitor the master as 127.0.0.1 6379, an address valid only inside corpus-s, so they announce it (SENTINEL get-master-addr-by-name mymaster answers '$a'); the worker in corpus-w uses Sentinel ($SEN_URL), reaches the sentinels and is sent to 127.0.0.1:6379, its own loopback, where nothing listens"
  worker_run "$SCN/worker.log" TOPOLOGY=sentinel URL="$SEN_URL" DEADLINE_S=8
  kill_bg; topo_copy $SEN_LOGS
  finish announced-address
}
sc_sen_sentinels_down() {
  scn sen-sentinels-down sc_sen_sentinels_down
  topo_fresh; sen_data $SIP || { kill_bg; return 1; }
  ARGS=$SEN_ARGS
  FAULT="the data nodes of a Sentinel set run in corpus-s (master 10.77.0.2:6379 redis-0.log, replica :6380 redis-1.log, 12 jobs on the master) but no sentinel runs: nothing listens on sentinel:26379 :26380 :26381 (the name resolves to 10.77.0.2, the ports are closed); the worker uses Sentinel ($SEN_URL$SENTINEL_CLIENT_NOTE)"
  worker_run "$SCN/worker.log" TOPOLOGY=sentinel URL="$SEN_URL" DEADLINE_S=6
  kill_bg; topo_copy redis-0.log redis-1.log
  finish dependency-down
}
sc_sen_pinned_readonly() {
  scn sen-pinned-readonly sc_sen_pinned_readonly
  sen_up $SIP || { kill_bg; return 1; }
  ARGS="--endpoint redis:6379"
  worker_bg "$SCN/worker.log" URL="redis://redis:6379/0" DEADLINE_S=${PINNED_DEADLINE:-22} JOB_MS=400
  wait_for_line "$SCN/worker.log" 'job j-04 processed' 30
  node_kill 6379; local t1 t2 t3; t1=$(now)
  wait_for_any '\+switch-master' 20 "$TOPO"/sentinel-*.log
  t2=$(now); node_start 6379 redis-0.log
  wait_for_any '\+convert-to-slave' 20 "$TOPO"/sentinel-*.log; t3=$(now)
  wait $WPID; WPID=
  FAULT="$(sen_desc $SIP); each job takes 400 ms; the worker does not use Sentinel: it is pinned to the master node with redis://redis:6379/0 (redis resolves to 10.77.0.2); right after it logged 'job j-04 processed' the master (10.77.0.2:6379) was SIGKILLed (at $t1 UTC); the sentinels promoted the replica ('$(sen_switch)'); at $t2 UTC, after +switch-master, the old master was restarted on :6379 (empty, no persistence; appended to redis-0.log) and the sentinels reconfigured it as a replica of the new master (+convert-to-slave seen at $t3 UTC); the worker kept using redis:6379, now a read-only replica, where BLPOP (a write command) is refused with READONLY"
  kill_bg; topo_copy $SEN_LOGS
  finish "failover, topology-not-followed"
}

# ---- Cluster ------------------------------------------------------------------------------
# cl_up ADDRESS: six nodes :7000-7005 made into a cluster with redis-cli --cluster create ADDRESS:700x
# --cluster-replicas 1 (ADDRESS 127.0.0.1 also sets cluster-announce-ip 127.0.0.1); waits for
# cluster_state:ok on every node and a connected replica for every master; CL_SLOT CL_JOBS_PORT
# CL_JOBS_REPLICA CL_OTHER_PORT locate key jobs; 12 jobs seeded on its master.
cl_up() {
  local ip=$1 p extra=()
  topo_fresh
  [ "$ip" = 127.0.0.1 ] && extra=(--cluster-announce-ip 127.0.0.1)
  for p in $CL_PORTS; do
    node_start $p "redis-$((p - 7000)).log" --cluster-enabled yes --cluster-node-timeout 1000 \
      --cluster-config-file nodes.conf "${extra[@]}"
  done
  for p in $CL_PORTS; do node_wait $p || { log "  node $p did not start"; return 1; }; done
  ip netns exec $SNS redis-cli --cluster create $(for p in $CL_PORTS; do echo "$ip:$p"; done) \
     --cluster-replicas 1 --cluster-yes > "$TOPO/create.log" 2>&1 || { log "  cluster create failed"; return 1; }
  wait_until 30 cl_ready || { log "  cluster not ready"; return 1; }
  cl_locate
  node_cli $CL_JOBS_PORT rpush jobs $JOBS12 > /dev/null
  node_cli $CL_JOBS_PORT wait 1 2000 > /dev/null
}
cl_ready() {
  local p
  for p in $CL_PORTS; do node_cli $p cluster info | grep -q 'cluster_state:ok' || return 1; done
  for p in $CL_PORTS; do
    if node_cli $p role | head -1 | grep -q slave; then sen_replica_synced $p || return 1; fi
  done
  # every master with slots has a connected replica, as node 7000 sees it
  node_cli 7000 cluster nodes | awk '
    $3 ~ /master/ && NF >= 9 { m[$1] = 1 }
    $3 ~ /slave/ && $8 == "connected" { r[$4] = 1 }
    END { if (length(m) != 3) exit 1; for (id in m) if (!(id in r)) exit 1 }'
}
cl_locate() {
  CL_SLOT=$(node_cli 7000 cluster keyslot jobs | tr -d '\r')
  read -r CL_JOBS_PORT CL_JOBS_REPLICA CL_OTHER_PORT < <(node_cli 7000 cluster nodes | awk -v s="$CL_SLOT" '
    { split($2, a, "@"); n = split(a[1], hp, ":"); port[$1] = hp[n]; master[$1] = $4
      role[$1] = ($3 ~ /master/) ? "m" : "s"
      if (role[$1] == "m") for (i = 9; i <= NF; i++) {
        if ($i ~ /^\[/) continue
        k = split($i, b, "-"); lo = b[1]; hi = (k == 2 ? b[2] : b[1])
        if (s + 0 >= lo + 0 && s + 0 <= hi + 0) owner = $1 } }
    END { for (id in role) if (role[id] == "s" && master[id] == owner) rep = port[id]
          for (id in role) if (role[id] == "m" && id != owner && (other == "" || port[id] + 0 < other + 0)) other = port[id]
          print port[owner], rep, other }')
  log "  cluster: slot $CL_SLOT of jobs on :$CL_JOBS_PORT, its replica :$CL_JOBS_REPLICA, another master :$CL_OTHER_PORT"
}
CL_LOGS="redis-0.log redis-1.log redis-2.log redis-3.log redis-4.log redis-5.log"
cl_desc() { # ADDRESS
  local a="created from inside corpus-s with redis-cli --cluster create 10.77.0.2:7000 ... 10.77.0.2:7005 --cluster-replicas 1"
  [ "$1" = 127.0.0.1 ] && a="created from inside corpus-s with redis-cli --cluster create 127.0.0.1:7000 ... 127.0.0.1:7005 --cluster-replicas 1 and every node started with --cluster-announce-ip 127.0.0.1"
  echo "a Redis Cluster in corpus-s (redis-server 7.0.15, Debian): six nodes on :7000-:7005 (redis-0.log ... redis-5.log = port 7000+N; --cluster-enabled yes --cluster-node-timeout 1000, bind 0.0.0.0), $a; key jobs is slot $CL_SLOT, served by master :$CL_JOBS_PORT (redis-$((CL_JOBS_PORT - 7000)).log) with replica :$CL_JOBS_REPLICA (redis-$((CL_JOBS_REPLICA - 7000)).log); list jobs seeded there with 12 ids and replicated (WAIT 1)"
}
cl_elected() { grep -h -m1 -o 'Failover election won.*' "$TOPO/redis-$((CL_JOBS_REPLICA - 7000)).log" 2>/dev/null | head -1; }

sc_cl_failover() {
  scn cl-failover sc_cl_failover
  cl_up $SIP || { kill_bg; return 1; }
  ARGS="--endpoint redis:7000"
  worker_bg "$SCN/worker.log" TOPOLOGY=cluster URL="redis://redis:7000" DEADLINE_S=25 JOB_MS=400
  wait_for_line "$SCN/worker.log" 'job j-04 processed' 30
  node_kill $CL_JOBS_PORT; local t; t=$(now)
  wait_until 15 grep -q 'Failover election won' "$TOPO/redis-$((CL_JOBS_REPLICA - 7000)).log"
  wait $WPID; WPID=
  FAULT="$(cl_desc $SIP); each job takes 400 ms; the worker uses the cluster client seeded with redis://redis:7000$CLUSTER_CLIENT_NOTE; right after it logged 'job j-04 processed' the master of slot $CL_SLOT (10.77.0.2:$CL_JOBS_PORT) was SIGKILLed (at $t UTC) and not restarted; its replica :$CL_JOBS_REPLICA took over ('$(cl_elected)')"
  kill_bg; topo_copy $CL_LOGS
  finish failover
}
sc_cl_announce_loopback() {
  scn cl-announce-loopback sc_cl_announce_loopback
  cl_up 127.0.0.1 || { kill_bg; return 1; }
  ARGS="--endpoint redis:7000"
  local n; n=$(node_cli 7000 cluster nodes | awk '{print $2}' | sort | paste -sd' ')
  FAULT="$(cl_desc 127.0.0.1); so CLUSTER NODES / CLUSTER SLOTS announce 127.0.0.1 for every node ($n), an address valid only inside corpus-s; the nodes are reachable from corpus-w as redis:7000-7005; the worker uses the cluster client seeded with redis://redis:7000$CLUSTER_CLIENT_NOTE: the seed answers, and every node it is then sent to is 127.0.0.1:700x, its own loopback, where nothing listens"
  worker_run "$SCN/worker.log" TOPOLOGY=cluster URL="redis://redis:7000" DEADLINE_S=$CL_DEADLINE
  kill_bg; topo_copy $CL_LOGS
  finish announced-address
}
cl_failed() { node_cli 7000 cluster info | grep -q 'cluster_state:fail'; }
sc_cl_down() {
  scn cl-down sc_cl_down
  cl_up $SIP || { kill_bg; return 1; }
  ARGS="--endpoint redis:7000"
  node_kill $CL_JOBS_PORT; node_kill $CL_JOBS_REPLICA; local t; t=$(now)
  wait_until 15 cl_failed
  FAULT="$(cl_desc $SIP); before the worker started, both the master of slot $CL_SLOT (10.77.0.2:$CL_JOBS_PORT) and its replica (:$CL_JOBS_REPLICA) were SIGKILLed (at $t UTC) and never restarted; the other nodes marked them failed and went to cluster_state:fail (slot $CL_SLOT uncovered, cluster-require-full-coverage yes) before the worker started; the worker uses the cluster client seeded with redis://redis:7000$CLUSTER_CLIENT_NOTE"
  worker_run "$SCN/worker.log" TOPOLOGY=cluster URL="redis://redis:7000" DEADLINE_S=$CL_DEADLINE
  kill_bg; topo_copy $CL_LOGS
  finish dependency-down
}
sc_cl_moved() {
  scn cl-moved sc_cl_moved
  cl_up $SIP || { kill_bg; return 1; }
  ARGS="--endpoint redis:$CL_OTHER_PORT"
  FAULT="$(cl_desc $SIP); the worker does not use a cluster client: it is pinned to one node with redis://redis:$CL_OTHER_PORT/0, a master that does not own slot $CL_SLOT, so every BLPOP jobs is answered MOVED $CL_SLOT 10.77.0.2:$CL_JOBS_PORT"
  worker_run "$SCN/worker.log" URL="redis://redis:$CL_OTHER_PORT/0" DEADLINE_S=6
  kill_bg; topo_copy $CL_LOGS
  finish topology-not-followed
}

# ---- clients ------------------------------------------------------------------------------
CLUSTER_CLIENT_NOTE=""; SENTINEL_CLIENT_NOTE=""
CL_DEADLINE=10 # worker deadline of cl-announce-loopback and cl-down
# the worker as a pod: its own UTS namespace with hostname "worker" (in corpus-w's /etc/hosts), as a
# container's hostname resolves in it; without it Jedis 3's HostAndPort.getLocalHostQuietly logged
# "cant resolve localhost address" with the capture machine's own hostname
topo_pod() { WORKER_CMD=(unshare --uts sh -c 'hostname worker && exec "$@"' worker "${WORKER_CMD[@]}"); }
t_lettuce() { # VERSION PLATFORM FAULT...
  CLIENT=lettuce VERSION=$1 PLATFORM=$2 KIND=redis CLIENT_KEY=lettuce-$1-topo; shift 2
  java_client "lettuce-$VERSION" LettuceWorker "io.lettuce:lettuce-core:$VERSION.RELEASE"; topo_pod
  SENTINEL_CLIENT_NOTE=", lettuce RedisClient.create(URL)"
  CL_DEADLINE=10
  CLUSTER_CLIENT_NOTE=" (lettuce RedisClusterClient, 5 s command timeout, ClusterTopologyRefreshOptions enablePeriodicRefresh(5 s) and enableAllAdaptiveRefreshTriggers: with the refresh at its defaults, off, a trial run never left the killed master)"
  each "$@"
}
t_jedis() {
  CLIENT=jedis VERSION=$1 PLATFORM=$2 KIND=redis CLIENT_KEY=jedis-$1-topo; shift 2
  java_client "jedis-$VERSION" JedisWorker "redis.clients:jedis:$VERSION"; topo_pod
  SENTINEL_CLIENT_NOTE=", new JedisSentinelPool(\"mymaster\", {sentinel:26379, sentinel:26380, sentinel:26381}), default pool config"
  CLUSTER_CLIENT_NOTE=" (JedisCluster(HostAndPort), default options)"
  CL_DEADLINE=20 # one failed JedisCluster BLPOP takes ~9 s (5 attempts, 2 s socket timeout): 20 s shows two
  each "$@"
}
t_redis_py() {
  CLIENT=redis-py PLATFORM=$1 KIND=redis CLIENT_KEY=redis-py-topo; shift
  py_client python3-redis redis_worker.py; topo_pod
  SENTINEL_CLIENT_NOTE=", redis.sentinel.Sentinel([(sentinel, 26379), (sentinel, 26380), (sentinel, 26381)]).master_for(\"mymaster\")"
  CL_DEADLINE=5 # redis-py logs every refused node with a traceback (~25-45 KB per attempt): two attempts
  CLUSTER_CLIENT_NOTE=" (redis.cluster.RedisCluster.from_url, default options)"
  each "$@"
}
