# clients-ruby-php.sh: the Ruby and PHP clients (sourced by capture-all.sh after clients.sh; uses its
# `each`). All from Debian packages: ruby-redis, ruby-sidekiq (with /usr/bin/ruby, /usr/bin/sidekiq),
# php-cli, php-redis, php-monolog (with /usr/bin/php). Each function sets the worker, then runs the
# faults given as arguments.

deb_version() { dpkg-query -W -f '${Version}' "$1"; }
# upstream part of a Debian version: no epoch, no Debian revision, no +dfsg/+repack suffix
deb_upstream() { deb_version "$1" | sed 's/^[0-9]*://; s/-[^-]*$//; s/+.*$//'; }

c_redis_rb() { # PLATFORM [faults]
  CLIENT=redis-rb PLATFORM=$1 KIND=redis CLIENT_KEY=redis-rb; shift
  VERSION=$(deb_upstream ruby-redis)
  WORKER_CMD=(/usr/bin/ruby "$CORPUS_DIR/ruby/redis_worker.rb")
  WORKER_SRC="guard-init/src/test/corpus/ruby/redis_worker.rb (Debian /usr/bin/ruby $(/usr/bin/ruby -e 'print RUBY_VERSION'), stdlib Logger default format on \$stdout; each failure logged as \"<message>: <Class>: <exception message>\" then its backtrace)"
  ORIGIN="Debian package ruby-redis $(deb_version ruby-redis)"
  SEED_CMD=()
  each "$@"
}

c_sidekiq() { # PLATFORM [faults]
  CLIENT=sidekiq PLATFORM=$1 KIND=redis CLIENT_KEY=sidekiq; shift
  VERSION=$(deb_upstream ruby-sidekiq)
  WORKER_CMD=(/usr/bin/sidekiq -c 1 -r "$CORPUS_DIR/ruby/sidekiq_worker.rb")
  SEED_CMD=(ruby "$CORPUS_DIR/ruby/sidekiq_seed.rb")
  # Sidekiq exits 1 when Redis is unreachable at boot (one WARN Redis::CannotConnectError with its
  # backtrace): restarted as a container would be, each start's refusal stands for an attempt
  RESTART_ON_FAILURE=1 RACE_LINE='CannotConnectError'
  WORKER_SRC="guard-init/src/test/corpus/ruby/sidekiq_worker.rb run by Debian's /usr/bin/sidekiq -c 1 (ruby $(/usr/bin/ruby -e 'print RUBY_VERSION'), Sidekiq's default logger and error handler; jobs seeded by ruby/sidekiq_seed.rb with Sidekiq::Client.push)"
  ORIGIN="Debian packages ruby-sidekiq $(deb_version ruby-sidekiq), ruby-redis $(deb_version ruby-redis), ruby-connection-pool $(deb_version ruby-connection-pool)"
  each "$@"
}

c_phpredis() { # PLATFORM [faults]
  CLIENT=phpredis PLATFORM=$1 KIND=redis CLIENT_KEY=phpredis; shift
  VERSION=$(deb_upstream php-redis)
  WORKER_CMD=(/usr/bin/php "$CORPUS_DIR/php/redis_worker.php")
  WORKER_SRC="guard-init/src/test/corpus/php/redis_worker.php (Debian /usr/bin/php $(/usr/bin/php -r 'echo PHP_VERSION;'), Monolog StreamHandler on php://stdout with the default LineFormatter; each failure logged with ['exception' => \$e])"
  ORIGIN="Debian packages php-redis $(deb_version php-redis) (phpredis $(/usr/bin/php -r 'echo phpversion("redis");')), php-monolog $(deb_version php-monolog)"
  SEED_CMD=()
  each "$@"
}
