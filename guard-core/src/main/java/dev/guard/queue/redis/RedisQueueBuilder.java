package dev.guard.queue.redis;

import io.lettuce.core.AbstractRedisClient;
import java.time.Duration;
import java.util.Objects;
import java.util.function.Function;

/**
 * The options every guard Redis queue has: where failed jobs go, how long a blocking read waits,
 * how long a hand-back may take, and how to read a job's id from its payload. Each queue's builder
 * adds its own ({@link CrashSafeListQueue.Builder}, {@link StreamQueue.Builder},
 * {@link FallbackListQueue.Builder}). Building a queue sends no command: its first fetch connects.
 *
 * @param <B> the queue's own builder, so the setters chain
 */
public abstract class RedisQueueBuilder<B extends RedisQueueBuilder<B>> {

    final AbstractRedisClient client;
    /** The list or stream the producers write to. */
    final String queue;
    String deadLetter;
    Duration pollTimeout = Duration.ofSeconds(1);
    Duration handBackTimeout = Duration.ofSeconds(2);
    Function<String, String> idOf = Function.identity();

    RedisQueueBuilder(AbstractRedisClient client, String queue, String what) {
        this.client = Objects.requireNonNull(client, "client");
        this.queue = Objects.requireNonNull(queue, what);
    }

    abstract B self();

    /**
     * Where failed jobs, and jobs interrupted too often, go (default {@code <queue>:dead}: a list for the
     * list queues, a stream for {@link StreamQueue}; on a Redis Cluster under the queue's hash tag).
     */
    public B deadLetter(String deadLetter) {
        this.deadLetter = Objects.requireNonNull(deadLetter, "deadLetter");
        return self();
    }

    /**
     * How long one blocking read (BLMOVE, XREADGROUP BLOCK, BRPOP) waits (default 1 s): the longest an
     * idle worker takes to notice a stop.
     */
    public B pollTimeout(Duration pollTimeout) {
        this.pollTimeout = Objects.requireNonNull(pollTimeout, "pollTimeout");
        return self();
    }

    /** How long a hand-back may take (default 2 s); keep it inside the drain's safety margin. */
    public B handBackTimeout(Duration handBackTimeout) {
        this.handBackTimeout = Objects.requireNonNull(handBackTimeout, "handBackTimeout");
        return self();
    }

    /** Reads the job id from the payload, for logs and the ledger (default: the payload is the id). */
    public B idOf(Function<String, String> idOf) {
        this.idOf = Objects.requireNonNull(idOf, "idOf");
        return self();
    }
}
