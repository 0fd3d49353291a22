# clients-node.sh: the Node.js clients, sourced by capture-all.sh (after lib.sh, scenarios.sh,
# clients.sh: uses CORPUS_DIR, CACHE and each). Packages come from the npm registry through
# fetch-npm.sh into $CACHE/npm/<CLIENT_KEY> (outside the repository); the workers run on the
# machine's node (/usr/bin/node, 20.x) with NODE_PATH pointing at that folder.
# A cache folder is reused while it has .ok: after changing a package list below, delete it.
NODE_PINO=pino@10.4.0          # the workers' logger (ioredis, BullMQ); node-redis logs with console
NODE_BULLMQ6_IOREDIS=ioredis@6.1.0  # BullMQ 6 takes ioredis as an optional peer: installed with it

node_client() { # NAME SCRIPT PKG@VER...
  local name=$1 script=$2; shift 2
  local nm
  nm=$(CACHE=$CACHE "$CORPUS_DIR/fetch-npm.sh" "$name" "$@") || return 1
  NODE_MODULES=$nm
  WORKER_CMD=(env NODE_PATH="$nm" node "$CORPUS_DIR/node/$script")
  ORIGIN="npm registry $* (installed with npm $(npm -v), dependencies resolved at install time)"
}
# version of a package as installed in NODE_MODULES
node_pkg_version() { node -p "require('$NODE_MODULES/$1/package.json').version"; }
node_desc() { echo "node $(node -v | tr -d v)"; }

c_ioredis() { # VERSION PLATFORM [faults]
  CLIENT=ioredis VERSION=$1 PLATFORM=$2 KIND=redis CLIENT_KEY=ioredis-$1; shift 2
  node_client "ioredis-$VERSION" ioredis_worker.js "ioredis@$VERSION" $NODE_PINO || return 1
  SEED_CMD=() RACE_LINE=
  WORKER_SRC="guard-init/src/test/corpus/node/ioredis_worker.js ($(node_desc), pino $(node_pkg_version pino) JSON lines on stdout, log.error({ err }) on each failure; no 'error' listener on the client, so ioredis prints its own '[ioredis] Unhandled error event' lines)"
  each "$@"
}
c_node_redis() { # VERSION PLATFORM [faults]
  CLIENT=node-redis VERSION=$1 PLATFORM=$2 KIND=redis CLIENT_KEY=node-redis-$1; shift 2
  node_client "node-redis-$VERSION" node_redis_worker.js "redis@$VERSION" || return 1
  SEED_CMD=()
  # 4.x and later: connect() reconnects on its own and never fails, so there is no "attempt N
  # failed" line; each reconnect's 'error' event (the listener's line) stands for an attempt
  if [ "${VERSION%%.*}" -ge 4 ]; then RACE_LINE='Redis Client Error'; else RACE_LINE=; fi
  WORKER_SRC="guard-init/src/test/corpus/node/node_redis_worker.js ($(node_desc), console.log/console.error with the error; the minimal client.on('error') listener node-redis needs, logging with console.error)"
  each "$@"
}
c_bullmq() { # VERSION PLATFORM [faults]
  CLIENT=bullmq VERSION=$1 PLATFORM=$2 KIND=redis CLIENT_KEY=bullmq-$1; shift 2
  local extra=""
  [ "${VERSION%%.*}" -ge 6 ] && extra=$NODE_BULLMQ6_IOREDIS
  node_client "bullmq-$VERSION" bullmq_worker.js "bullmq@$VERSION" $extra $NODE_PINO || return 1
  ORIGIN="$ORIGIN; ioredis $(node_pkg_version ioredis)"
  WORKER_SRC="guard-init/src/test/corpus/node/bullmq_worker.js ($(node_desc), pino $(node_pkg_version pino) JSON lines on stdout; Worker 'error' and 'failed' listeners log.error({ err }); jobs added by node/bullmq_seed.js, queue.add('job', { payload }))"
  SEED_CMD=(env NODE_PATH="$NODE_MODULES" node "$CORPUS_DIR/node/bullmq_seed.js")
  # BullMQ has no attempt loop: each reconnect's Worker 'error' event stands for an attempt
  RACE_LINE='"msg":"worker error"'
  each "$@"
}
