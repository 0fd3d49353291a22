# clients-node-brokers.sh: the Node.js broker clients (amqplib, nats.js, kafkajs), one function per
# client like clients.sh (sourced after it by capture-all.sh: uses each, CORPUS_DIR, CACHE).
# Packages come from the npm registry through fetch-npm.sh into $CACHE/npm/NAME (never into the
# repository); the workers are node-brokers/*.js, run by the machine's node with NODE_PATH set to
# that folder's node_modules.
NODE_BROKERS_PINO=pino@9.14.0

node_broker_client() { # NAME SCRIPT PKG@VER...
  local name=$1 script=$2; shift 2
  local nm; nm=$("$CORPUS_DIR/fetch-npm.sh" "$name" "$@") || return 1
  WORKER_CMD=(env "NODE_PATH=$nm" node "$CORPUS_DIR/node-brokers/$script")
  WORKER_SRC="guard-init/src/test/corpus/node-brokers/$script (Node.js $(node -v))"
  ORIGIN="npm registry $*"
}

c_amqplib() { # VERSION PLATFORM [faults]
  CLIENT=amqplib VERSION=$1 PLATFORM=$2 KIND=amqp CLIENT_KEY=amqplib-$1; shift 2
  node_broker_client "amqplib-$VERSION" amqplib_worker.js "amqplib@$VERSION" || return 1
  WORKER_SRC="${WORKER_SRC%)}, console.log/console.error(msg, err) logging)"
  each "$@"
}
c_nats_js() { # VERSION PLATFORM [faults]
  CLIENT=nats.js VERSION=$1 PLATFORM=$2 KIND=nats CLIENT_KEY=nats.js-$1; shift 2
  node_broker_client "nats-$VERSION" nats_worker.js "nats@$VERSION" $NODE_BROKERS_PINO || return 1
  WORKER_SRC="${WORKER_SRC%)}, ${NODE_BROKERS_PINO/@/ } JSON lines, log.error({ err }, msg))"
  each "$@"
}
c_kafkajs() { # VERSION PLATFORM [faults]
  CLIENT=kafkajs VERSION=$1 PLATFORM=$2 KIND=kafka CLIENT_KEY=kafkajs-$1; shift 2
  node_broker_client "kafkajs-$VERSION" kafkajs_worker.js "kafkajs@$VERSION" $NODE_BROKERS_PINO || return 1
  WORKER_SRC="${WORKER_SRC%)}, the worker's lines with ${NODE_BROKERS_PINO/@/ } JSON lines, kafkajs's own default JSON logger kept)"
  each "$@"
}
