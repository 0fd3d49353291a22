# A queue worker on redis-rb (Debian ruby-redis 4.8): BLPOP from list "jobs", retrying the
# connection every second.
#
# Connects with Redis.new(url: URL, connect_timeout: 2) (redis-rb connects lazily: the PING of
# each attempt opens the connection; the client's own defaults otherwise, e.g. reconnect_attempts 1).
# Logs with Ruby's stdlib Logger at its default format to $stdout. Errors are logged the common
# Ruby way: one line "<what failed>: <Class>: <message>" then the backtrace as a second ERROR entry
# (logger.error(e.backtrace.join("\n"))), as most Ruby workers and Rails apps do.
# Non-default: $stdout.sync = true (as container images of Ruby apps set it) so each line reaches
# the log when written, not when Ruby's buffer fills.
require "json"
require "logger"
require "redis"

$stdout.sync = true
logger = Logger.new($stdout)

url = ENV.fetch("URL", "redis://redis:6379/0")
deadline = Time.now + Float(ENV.fetch("DEADLINE_S", "10"))
max_jobs = Integer(ENV.fetch("JOBS", "12"))
job_s = Float(ENV.fetch("JOB_MS", "50")) / 1000
result_dir = ENV["RESULT_DIR"].to_s

logger.info("worker starting, redis url #{url}")
redis = Redis.new(url: url, connect_timeout: 2)
failures = 0 # failed attempts since the last "connected to"
done = 0
while Time.now < deadline && done < max_jobs
  begin
    redis.ping
    logger.info("connected to #{url}")
    failures = 0
    while Time.now < deadline && done < max_jobs
      item = redis.blpop("jobs", timeout: 1)
      next if item.nil?

      payload = item[1]
      logger.info("job #{payload} received")
      sleep job_s
      id = payload
      if payload.start_with?("{")
        begin
          id = JSON.parse(payload).fetch("job_id")
        rescue StandardError
          next # schema skew: the job is dropped without a word (the bug this corpus models)
        end
      end
      unless result_dir.empty?
        begin
          File.write(File.join(result_dir, "#{id}.done"), "")
        rescue StandardError => e
          logger.error("job #{payload} failed: #{e.class}: #{e.message}")
          logger.error(e.backtrace.join("\n"))
          next
        end
      end
      logger.info("job #{payload} processed")
      done += 1
    end
  rescue StandardError => e
    failures += 1
    logger.error("attempt #{failures} failed, retrying in 1s: #{e.class}: #{e.message}")
    logger.error(e.backtrace.join("\n"))
    sleep 1
  end
end
logger.info("worker stopping after #{done} jobs")
redis.close
exit 0
