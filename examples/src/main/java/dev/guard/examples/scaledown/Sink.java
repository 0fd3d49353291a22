package dev.guard.examples.scaledown;

import dev.guard.queue.redis.RedisWrites;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.StatefulRedisConnection;

/**
 * The idempotent result store: an upsert keyed by job id ({@code HSET <prefix>:results id
 * worker}), so a job run twice is counted once; runs are counted apart
 * ({@code HINCRBY <prefix>:runs id 1}), and the first write's time in ms ({@code HSETNX <prefix>:at id ms}: when
 * the job first had its outcome). All in one script, so a SIGKILL cannot split them.
 */
final class Sink {

    private static final String WRITE = "redis.call('HSET', KEYS[1], ARGV[1], ARGV[2]);"
            + " redis.call('HSETNX', KEYS[3], ARGV[1], ARGV[3]);"
            + " return redis.call('HINCRBY', KEYS[2], ARGV[1], 1)";

    private final StatefulRedisConnection<String, String> connection;
    private final String results;
    private final String runs;
    private final String at;
    private final String executions;
    private final String sha;

    Sink(StatefulRedisConnection<String, String> connection, String prefix) {
        this.connection = connection;
        this.results = results(prefix);
        this.runs = runs(prefix);
        this.at = at(prefix);
        this.executions = executions(prefix);
        this.sha = connection.sync().scriptLoad(WRITE);
    }

    static String results(String prefix) {
        return prefix + ":results";
    }

    static String runs(String prefix) {
        return prefix + ":runs";
    }

    static String at(String prefix) {
        return prefix + ":at";
    }

    /** How often each job's handler started (not atomic with anything: counts runs, not results). */
    static String executions(String prefix) {
        return prefix + ":executions";
    }

    /** Counts one start of this job's handler. */
    void started(String jobId) {
        connection.sync().hincrby(executions, jobId, 1);
    }

    /**
     * The same three writes as {@link #write}, added to a completion's buffer: applied with the job's
     * completion record in one script, or not at all.
     */
    void write(RedisWrites writes, String jobId, String worker) {
        writes.hset(results, jobId, worker).hsetnx(at, jobId, Long.toString(System.currentTimeMillis()))
                .hincrby(runs, jobId, 1);
    }

    /** Returns how often this job has now been written (1 the first time). */
    long write(String jobId, String worker) {
        Long n = connection.sync().evalsha(sha, ScriptOutputType.INTEGER, new String[] {results, runs, at}, jobId, worker,
                Long.toString(System.currentTimeMillis()));
        return n;
    }
}
