# Seeds Sidekiq jobs (Debian ruby-sidekiq 6.4.1): one ProcessJob per argument, the argument as the
# job's single arg, pushed with Sidekiq::Client.push to queue "default" on the Redis of env URL.
#
#   URL=redis://redis:6379/0 ruby sidekiq_seed.rb j-01 j-02 ...
#
# The job class is named by string (a seeder does not load the worker's code); Sidekiq's client
# logging is left at its defaults (nothing printed at INFO).
require "sidekiq"

Sidekiq.configure_client do |config|
  config.redis = { url: ENV.fetch("URL", "redis://redis:6379/0"), connect_timeout: 2 }
end

ARGV.each do |payload|
  Sidekiq::Client.push("class" => "ProcessJob", "queue" => "default", "args" => [payload])
end
