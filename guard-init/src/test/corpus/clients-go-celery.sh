# clients-go-celery.sh: the Go client redigo and the Celery framework (sourced by capture-all.sh after
# clients.sh; uses its `each`). All from Debian packages: golang-go (Go 1.19) and
# golang-github-gomodule-redigo-dev (source under /usr/share/gocode/src, built offline in GOPATH
# mode into $CACHE/go, never into the repository); python3-celery, python3-kombu with python3-redis
# (Redis transport) or python3-amqp (AMQP transport) for /usr/bin/python3. Each function sets the
# worker, then runs the faults given as arguments.

gc_deb_version() { dpkg-query -W -f '${Version}' "$1"; }
# upstream part of a Debian version: no epoch, no Debian revision
gc_deb_upstream() { gc_deb_version "$1" | sed 's/^[0-9]*://; s/-[^-]*$//'; }

# go/redigo_worker.go -> $CACHE/go/redigo_worker, rebuilt only when the source is newer
gc_build_redigo() {
  local src=$CORPUS_DIR/go/redigo_worker.go bin=$CACHE/go/redigo_worker
  [ -x "$bin" ] && [ ! "$src" -nt "$bin" ] && return 0
  mkdir -p "$CACHE/go" && chmod 755 "$CACHE" "$CACHE/go"
  (cd "$CORPUS_DIR/go" && GO111MODULE=off GOPATH=/usr/share/gocode GOFLAGS= GOPROXY=off \
     GOCACHE="$CACHE/go/build-cache" go build -o "$bin" redigo_worker.go) || { log "redigo build failed"; return 1; }
  chmod 755 "$bin"
}

c_redigo() { # PLATFORM [faults]
  CLIENT=redigo PLATFORM=$1 KIND=redis CLIENT_KEY=redigo; shift
  gc_build_redigo || return 1
  VERSION=$(gc_deb_upstream golang-github-gomodule-redigo-dev)
  WORKER_CMD=("$CACHE/go/redigo_worker")
  WORKER_SRC="guard-init/src/test/corpus/go/redigo_worker.go ($(go version | cut -d' ' -f3), GOPATH build on Debian's redigo source; Go's standard log package at its default flags on stderr, no levels; each failure logged as \"attempt N failed, retrying in 1s: <err>\" with %v)"
  ORIGIN="Debian package golang-github-gomodule-redigo-dev $(gc_deb_version golang-github-gomodule-redigo-dev), built with Debian golang-go $(gc_deb_version golang-go)"
  SEED_CMD=()
  each "$@"
}

gc_celery() { # CLIENT KIND PLATFORM: what both Celery brokers share
  CLIENT=$1 KIND=$2 PLATFORM=$3 CLIENT_KEY=$1
  VERSION=$(gc_deb_upstream python3-celery)
  WORKER_CMD=(/usr/bin/python3 "$CORPUS_DIR/celery/celery_worker.py")
  SEED_CMD=(/usr/bin/python3 "$CORPUS_DIR/celery/celery_seed.py")
  # Celery retries the broker itself: its "consumer: Cannot connect to <url>: <error>." lines (each
  # followed by "Trying again in N seconds... (n/100)") stand for "attempt N failed"
  RACE_LINE='consumer: Cannot connect to'
  WORKER_SRC="guard-init/src/test/corpus/celery/celery_worker.py with tasks.py (Debian /usr/bin/python3 $(/usr/bin/python3 -V | cut -d' ' -f2); a real Celery worker, app.worker_main --pool=solo --concurrency=1 --loglevel=INFO, Celery's own default logging and banner, broker retries Celery's own; stopped by SIGTERM (warm shutdown) at DEADLINE_S or after JOBS; jobs seeded by celery/celery_seed.py with app.send_task('tasks.handle', args=[payload]) on queue guard-corpus-jobs)"
  ORIGIN="Debian packages python3-celery $(gc_deb_version python3-celery), python3-kombu $(gc_deb_version python3-kombu)"
}

c_celery_redis() { # PLATFORM [faults]
  gc_celery celery-redis redis "$1"; shift
  ORIGIN="$ORIGIN, python3-redis $(gc_deb_version python3-redis) (kombu's Redis transport)"
  each "$@"
}

c_celery_amqp() { # PLATFORM [faults]
  gc_celery celery-amqp amqp "$1"; shift
  # a refused login is "Unrecoverable error: AccessRefused" and exit 1: the container restarts
  RESTART_ON_FAILURE=1
  ORIGIN="$ORIGIN, python3-amqp $(gc_deb_version python3-amqp) (kombu's py-amqp transport)"
  each "$@"
}
