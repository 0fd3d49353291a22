package dev.guard.queue.redis;

import dev.guard.drain.CompletionStore;
import dev.guard.drain.Durability;
import io.lettuce.core.AbstractRedisClient;
import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.cluster.SlotHash;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;

/**
 * Job completions recorded in Redis, each with the job's results ({@link RedisWrites}) in one Lua
 * script: a job's results are written once per job id however often the broker gives it out, and
 * a worker whose claim was superseded writes nothing. One hash per job,
 * {@code <namespace>:<job id>}: {@code token} (the newest claim), and once complete {@code done}
 * (the token that completed it), {@code at} (Redis server time, ms) and {@code by} (the worker).
 * Each record expires {@link Builder#retention} after its last claim or completion: a job given
 * out again later than that runs again.
 *
 * <pre>{@code
 * RedisClient results = RedisClient.create(guard.env("RESULTS_URL"));
 * try (RedisCompletions done = RedisCompletions.builder(results, "thumbs:done").build()) {
 *     exit = guard.run(jobs, RedisJob::payload, dead, done,
 *             (job, drain, writes) -> writes.hset("thumbs", job.string("id"), render(job)));
 * }
 * }</pre>
 *
 * <p>What it guarantees: results written through {@link RedisWrites} exist once per job id, on
 * this Redis, as long as the record lives and Redis keeps what it holds ({@link #durability}).
 * Not guaranteed: anything the handler does itself (an email sent, a call to another service):
 * it happens before the atomic step, so a job given out again runs it again, as before.
 */
public final class RedisCompletions implements CompletionStore<RedisWrites> {

    /** KEYS[1] record; ARGV[1] retention ms. Returns {1, done token} on record, else {0, new token}. */
    static final String CLAIM = "local done = redis.call('HGET', KEYS[1], 'done')\n"
            + "if done then return {1, done} end\n"
            + "local t = redis.call('HINCRBY', KEYS[1], 'token', 1)\n"
            + "redis.call('PEXPIRE', KEYS[1], ARGV[1])\n"
            + "return {0, tostring(t)}\n";

    /**
     * KEYS[1] record, KEYS[2..] the writes' keys; ARGV[1] token, ARGV[2] worker, ARGV[3] retention ms,
     * ARGV[4] number of writes, then per write: command, key count, argument count, arguments.
     * Returns {0, token} recorded, {1, done token} on record, {2, newest token} superseded.
     */
    static final String COMPLETE = "local done = redis.call('HGET', KEYS[1], 'done')\n"
            + "if done then return {1, done} end\n"
            + "local newest = redis.call('HGET', KEYS[1], 'token')\n"
            + "if newest ~= ARGV[1] then return {2, newest or ''} end\n"
            + "local a = 5\n"
            + "local k = 2\n"
            + "for i = 1, tonumber(ARGV[4]) do\n"
            + "  local cmd = ARGV[a]\n"
            + "  local nk = tonumber(ARGV[a + 1])\n"
            + "  local na = tonumber(ARGV[a + 2])\n"
            + "  a = a + 3\n"
            + "  local args = {}\n"
            + "  for j = 1, nk do args[#args + 1] = KEYS[k]; k = k + 1 end\n"
            + "  for j = 1, na do args[#args + 1] = ARGV[a]; a = a + 1 end\n"
            + "  redis.call(cmd, unpack(args))\n"
            + "end\n"
            + "local now = redis.call('TIME')\n"
            + "redis.call('HSET', KEYS[1], 'done', ARGV[1], 'at', tostring(now[1] * 1000 + math.floor(now[2] / 1000)),"
            + " 'by', ARGV[2])\n"
            + "redis.call('PEXPIRE', KEYS[1], ARGV[3])\n"
            + "return {0, ARGV[1]}\n";

    /** Replies that mean "not now" (loading, failing over, busy), not "this job's writes are wrong". */
    private static final List<String> TRANSIENT = List.of("LOADING", "READONLY", "MASTERDOWN", "BUSY", "CLUSTERDOWN",
            "TRYAGAIN", "NOREPLICAS", "MOVED", "ASK");

    private final AbstractRedisClient client;
    private final RedisLink link;
    private final String namespace;
    private final Duration retention;
    private final Duration timeout;
    private final String worker;
    private final HotScript claim;
    private final HotScript complete;

    private RedisCompletions(Builder b) {
        this.client = b.client;
        this.namespace = b.namespace;
        this.retention = b.retention;
        this.timeout = b.timeout;
        this.worker = b.worker;
        this.link = RedisLink.open(b.client);
        this.claim = new HotScript(link, CLAIM, ScriptOutputType.MULTI);
        this.complete = new HotScript(link, COMPLETE, ScriptOutputType.MULTI);
    }

    /** Records under {@code <namespace>:<job id>} on the Redis of {@code client} (a RedisClient or RedisClusterClient). */
    public static Builder builder(AbstractRedisClient client, String namespace) {
        return new Builder(client, namespace);
    }

    @Override
    public Claim claim(String jobId) {
        List<Object> r = run(claim, "claim", jobId, new String[] {record(jobId)}, Long.toString(retention.toMillis()));
        long code = (Long) r.get(0);
        return code == 1 ? new Claim(jobId, 0, true) : new Claim(jobId, Long.parseLong((String) r.get(1)), false);
    }

    @Override
    public RedisWrites writes(Claim claim) {
        String record = record(claim.jobId());
        return new RedisWrites(claim.token(), key -> requireSameSlot(record, key));
    }

    @Override
    public Verdict complete(Claim c, RedisWrites writes) {
        String record = record(c.jobId());
        List<String> keys = new ArrayList<>();
        keys.add(record);
        List<String> args = new ArrayList<>();
        args.add(Long.toString(c.token()));
        args.add(worker);
        args.add(Long.toString(retention.toMillis()));
        args.add(Integer.toString(writes.size()));
        for (RedisWrites.Write w : writes.writes()) {
            keys.addAll(w.keys());
            args.add(w.command());
            args.add(Integer.toString(w.keys().size()));
            args.add(Integer.toString(w.args().size()));
            args.addAll(w.args());
        }
        List<Object> r = run(complete, "completion", c.jobId(), keys.toArray(String[]::new), args.toArray(String[]::new));
        long code = (Long) r.get(0);
        return code == 0 ? Verdict.RECORDED : code == 1 ? Verdict.ON_RECORD : Verdict.SUPERSEDED;
    }

    private List<Object> run(HotScript script, String what, String jobId, String[] keys, String... args) {
        try {
            return script.send(link, keys, args).await(timeout);
        } catch (TimeoutException e) {
            throw new Unavailable(what + " of job " + jobId + " in " + describe() + ": no reply within " + timeout.toMillis()
                    + " ms", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new Unavailable(what + " of job " + jobId + " in " + describe() + ": interrupted", e);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof RedisCommandExecutionException x && !isTransient(x)) {
                throw new IllegalStateException(what + " of job " + jobId + " in " + describe() + " was refused by Redis: "
                        + Redis.describe(x) + ". Writes before the refused one were applied (a script is not rolled back);"
                        + " no completion was recorded", x);
            }
            throw new Unavailable(what + " of job " + jobId + " in " + describe() + ": " + Redis.describe(e), e);
        } catch (RuntimeException e) {
            throw new Unavailable(what + " of job " + jobId + " in " + describe() + ": " + Redis.describe(e), e);
        }
    }

    private static boolean isTransient(RedisCommandExecutionException e) {
        String m = String.valueOf(e.getMessage()).toUpperCase(Locale.ROOT);
        return TRANSIENT.stream().anyMatch(m::startsWith);
    }

    private String record(String jobId) {
        return namespace + ":" + jobId;
    }

    private void requireSameSlot(String record, String key) {
        Objects.requireNonNull(key, "key");
        if (link.cluster() && SlotHash.getSlot(key) != SlotHash.getSlot(record)) {
            throw new IllegalArgumentException("result key '" + key + "' is in hash slot " + SlotHash.getSlot(key)
                    + " but the completion record '" + record + "' is in slot " + SlotHash.getSlot(record) + ": on a Redis"
                    + " Cluster the results and their record are written by one script, which touches one slot. Give the"
                    + " namespace a hash tag and use it in every result key ('{thumbs}:done' with '{thumbs}:results');"
                    + " all of them then live on one node");
        }
    }

    @Override
    public String describe() {
        return "Redis completion records '" + namespace + ":<job id>'";
    }

    /**
     * What the Redis keeps across a restart: a Redis that keeps nothing on disk forgets every
     * record, and every job it then gives out again runs again.
     */
    @Override
    public Durability durability() {
        return RedisLink.durability(client, namespace, "completion records '" + namespace + "'");
    }

    @Override
    public void close() {
        link.close();
    }

    /** Mutable builder. */
    public static final class Builder {
        private final AbstractRedisClient client;
        private final String namespace;
        private Duration retention = Duration.ofDays(1);
        private Duration timeout = Duration.ofSeconds(2);
        private String worker = Redis.defaultWorkerId();

        Builder(AbstractRedisClient client, String namespace) {
            this.client = Objects.requireNonNull(client, "client");
            this.namespace = Objects.requireNonNull(namespace, "namespace");
            if (namespace.isBlank()) {
                throw new IllegalArgumentException("a namespace for the completion records is required (e.g. 'thumbs:done')");
            }
        }

        /**
         * How long a record lives after the job's last claim or completion (default 1 day). A job
         * given out again later than this runs again: make it longer than the longest time a job
         * can come back (a redelivery after AckWait or a lease, a Kafka offset reset). Each record
         * costs about 150 bytes.
         */
        public Builder retention(Duration retention) {
            if (retention.toMillis() < 1) {
                throw new IllegalArgumentException("retention must be at least 1 ms, was " + retention);
            }
            this.retention = retention;
            return this;
        }

        /** How long a claim or a completion waits for Redis before the job is handed back (default 2 s). */
        public Builder timeout(Duration timeout) {
            if (timeout.toMillis() < 1) {
                throw new IllegalArgumentException("timeout must be at least 1 ms, was " + timeout);
            }
            this.timeout = timeout;
            return this;
        }

        /** The worker named in each record's {@code by} (default host-pid). */
        public Builder worker(String worker) {
            this.worker = Objects.requireNonNull(worker, "worker");
            return this;
        }

        /** Connects (one connection; the scripts are sent by their SHA1, reloaded after a restart). */
        public RedisCompletions build() {
            return new RedisCompletions(this);
        }
    }
}
