package dev.guard.queue.redis;

import dev.guard.drain.HandBackFailedException;
import dev.guard.drain.JobOrigin;
import dev.guard.drain.JobSource;
import dev.guard.queue.SourceOptions;
import io.lettuce.core.KeyValue;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;

/**
 * A Redis list queue read with BRPOP over {@code [fallback, queue]}, so handed-back jobs are
 * taken first; hand-back is an LPUSH to the fallback list. BRPOP deletes the job: between fetch
 * and ack the only copy is in this process, so a SIGKILL loses it (use {@link CrashSafeListQueue}
 * when that matters). Producers LPUSH onto {@code queue}.
 */
public final class FallbackListQueue implements JobSource<RedisJob> {

    private final String queue;
    private final String fallback;
    private final String deadLetter;
    private final SourceOptions options;
    private final Function<String, String> idOf;
    private final RedisClient client;
    /** Opened at the first fetch: building the queue sends no command. */
    private volatile StatefulRedisConnection<String, String> connection;
    private boolean closed;

    FallbackListQueue(Builder b) {
        this.queue = b.queue;
        this.fallback = b.fallback == null ? b.queue + ":fallback" : b.fallback;
        this.deadLetter = b.deadLetter == null ? b.queue + ":dead" : b.deadLetter;
        this.options = b.options();
        this.idOf = b.idOf;
        this.client = (RedisClient) b.client;
    }

    /** The connection, read without the lock once it is open (every fetch asks for it). */
    private StatefulRedisConnection<String, String> connection() {
        StatefulRedisConnection<String, String> c = connection;
        return c != null ? c : open();
    }

    /** Connects once, at the first fetch, so the queue can be built before Redis is up. */
    private synchronized StatefulRedisConnection<String, String> open() {
        if (closed) {
            throw new IllegalStateException("guard list queue '" + queue + "' is closed");
        }
        if (connection == null) {
            connection = client.connect();
        }
        return connection;
    }

    /** A queue on {@code client} (the caller owns the client; this queue opens and closes its own connection). */
    public static Builder builder(RedisClient client, String queue) {
        return new Builder(client, queue);
    }

    public String queue() {
        return queue;
    }

    public String fallback() {
        return fallback;
    }

    @Override
    public Optional<RedisJob> fetch() {
        KeyValue<String, String> kv = connection().sync().brpop(Redis.seconds(options.pollTimeout()), fallback, queue);
        if (kv == null || !kv.hasValue()) {
            return Optional.empty();
        }
        String payload = kv.getValue();
        return Optional.of(new RedisJob(idOf.apply(payload), payload, kv.getKey(), null, 1));
    }

    /** Nothing to do: BRPOP already removed the job. */
    @Override
    public void ack(RedisJob job) {
    }

    /** LPUSH to the fallback list, waiting at most the hand-back timeout. */
    @Override
    public void handBack(RedisJob job) throws HandBackFailedException {
        try {
            Redis.await(connection().async().lpush(fallback, job.payload()), options.handBackTimeout());
        } catch (Exception e) {
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            throw new HandBackFailedException(job.id(), "LPUSH of job " + job.id() + " to fallback list '" + fallback
                    + "' did not complete within " + options.handBackTimeout().toMillis() + " ms (" + Redis.describe(e) + ")", e);
        }
    }

    /** LPUSH to the dead-letter list ({@code <queue>:dead}). */
    @Override
    public void fail(RedisJob job, Exception cause) {
        connection().sync().lpush(deadLetter, job.payload());
    }

    @Override
    public String idOf(RedisJob job) {
        return job.id();
    }

    @Override
    public JobOrigin originOf(RedisJob job) {
        return new JobOrigin("redis", job.origin(), null, null, job.entryId());
    }

    /** Whether the Redis holding the queue keeps it across a restart ({@code appendonly}, snapshots, eviction). */
    @Override
    public dev.guard.drain.Durability durability() {
        return RedisLink.durability(client, queue, "queue '" + queue + "'");
    }

    @Override
    public synchronized void close() {
        closed = true;
        if (connection != null) {
            connection.close();
            connection = null; // a later fetch finds the queue closed, not a closed connection
        }
    }

    /** Mutable builder. */
    public static final class Builder extends RedisQueueBuilder<Builder> {
        private String fallback;

        Builder(RedisClient client, String queue) {
            super(client, queue, "queue", "a list queue with a fallback list keeps no count of a job's"
                    + " interruptions (a hand-back pushes the payload to the fallback list as it is); use CrashSafeListQueue or"
                    + " StreamQueue for a limit");
        }

        @Override
        protected Builder self() {
            return this;
        }

        /** The fallback list (default {@code <queue>:fallback}). */
        public Builder fallback(String fallback) {
            this.fallback = Objects.requireNonNull(fallback, "fallback");
            return this;
        }

        /** The queue, without a command sent: the first fetch connects. */
        public FallbackListQueue build() {
            return new FallbackListQueue(this);
        }
    }
}
