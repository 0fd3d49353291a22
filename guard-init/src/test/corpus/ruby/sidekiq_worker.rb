# A Sidekiq 6.4 worker (Debian ruby-sidekiq 6.4.1 on ruby-redis 4.8): the application file of a
# real Sidekiq server process, run with Debian's executable:
#
#   sidekiq -c 1 -r /abs/path/ruby/sidekiq_worker.rb
#
# Redis: Sidekiq.configure_server { |c| c.redis = { url: URL, connect_timeout: 2 } } (the
# documented initializer; Sidekiq hands the options to Redis.new, 2 s connect timeout as the other
# workers; Sidekiq's own defaults otherwise). Jobs: class ProcessJob on queue "default", the payload
# as its single argument (seeded by sidekiq_seed.rb with Sidekiq::Client.push).
# Logging: Sidekiq.logger untouched (Sidekiq's Pretty formatter to $stdout, INFO); the job logs with
# the job's `logger` so Sidekiq's context (class=ProcessJob jid=...) prefixes its lines, and Sidekiq's
# own start/done/fail lines, boot lines, fetch/heartbeat error lines and error handler stay as they are.
#
# Non-default, and why:
# - `-c 1` (concurrency 1 instead of 10): the contract takes jobs one at a time.
# - No "attempt N failed" line: Sidekiq owns the connection. If Redis cannot be reached at boot,
#   the process logs the error through Sidekiq's error handler and exits 1 (bin/sidekiq), as a
#   real Sidekiq container does before its restart policy starts it again; once booted, Sidekiq
#   logs fetch errors itself and retries.
# - "connected to <URL>" is logged from Sidekiq's :startup event (fired after Sidekiq's boot INFO
#   command got an answer).
# - Stopping: a stopper thread sends the process SIGTERM (what `docker stop` / Kubernetes send)
#   at DEADLINE_S after load or once JOBS jobs were processed; Sidekiq shuts down its own way
#   ("Shutting down" ... "Bye!", exit 0). "worker stopping after N jobs" is logged in an at_exit
#   hook, so it also follows a failed boot (exit status 1 then).
# - A failed result write logs "job <payload> failed: <Class>: <message>" and re-raises, as Sidekiq
#   jobs commonly do, so Sidekiq logs the failure with its stack trace and schedules a retry
#   (Sidekiq's default retry policy is kept: the first retry comes after the capture ends).
require "json"
require "sidekiq"

$stdout.sync = true

module Corpus
  URL = ENV.fetch("URL", "redis://redis:6379/0")
  DEADLINE = Time.now + Float(ENV.fetch("DEADLINE_S", "10"))
  MAX_JOBS = Integer(ENV.fetch("JOBS", "12"))
  JOB_S = Float(ENV.fetch("JOB_MS", "50")) / 1000
  RESULT_DIR = ENV["RESULT_DIR"].to_s
  LOCK = Mutex.new
  @done = 0

  def self.done
    LOCK.synchronize { @done }
  end

  def self.job_done
    LOCK.synchronize { @done += 1 }
  end
end

class ProcessJob
  include Sidekiq::Job

  def perform(payload)
    logger.info("job #{payload} received")
    sleep Corpus::JOB_S
    id = payload
    if payload.start_with?("{")
      begin
        id = JSON.parse(payload).fetch("job_id")
      rescue StandardError
        return # schema skew: the job is dropped without a word (the bug this corpus models)
      end
    end
    unless Corpus::RESULT_DIR.empty?
      begin
        File.write(File.join(Corpus::RESULT_DIR, "#{id}.done"), "")
      rescue StandardError => e
        logger.error("job #{payload} failed: #{e.class}: #{e.message}")
        raise
      end
    end
    logger.info("job #{payload} processed")
    Corpus.job_done
  end
end

Sidekiq.logger.info("worker starting, redis url #{Corpus::URL}")

Sidekiq.configure_server do |config|
  config.redis = { url: Corpus::URL, connect_timeout: 2 }
  config.on(:startup) { Sidekiq.logger.info("connected to #{Corpus::URL}") }
end

at_exit { Sidekiq.logger.info("worker stopping after #{Corpus.done} jobs") }

Thread.new do
  sleep 0.1 until Time.now >= Corpus::DEADLINE || Corpus.done >= Corpus::MAX_JOBS
  Process.kill("TERM", Process.pid)
end
