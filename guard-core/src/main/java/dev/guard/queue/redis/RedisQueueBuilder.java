package dev.guard.queue.redis;

import dev.guard.queue.SourceBuilder;
import io.lettuce.core.AbstractRedisClient;
import java.util.Objects;
import java.util.function.Function;

/**
 * The options every guard Redis queue has: where failed jobs go and how to read a job's id from
 * its payload, beside the {@link SourceBuilder}'s poll timeout (one blocking read: BLMOVE,
 * XREADGROUP BLOCK, BRPOP), hand-back timeout and interruption limit. Each queue's builder
 * adds its own ({@link CrashSafeListQueue.Builder}, {@link StreamQueue.Builder},
 * {@link FallbackListQueue.Builder}). Building a queue sends no command: its first fetch connects.
 *
 * @param <B> the queue's own builder, so the setters chain
 */
public abstract class RedisQueueBuilder<B extends RedisQueueBuilder<B>> extends SourceBuilder<B> {

    final AbstractRedisClient client;
    /** The list or stream the producers write to. */
    final String queue;
    String deadLetter;
    Function<String, String> idOf = Function.identity();

    RedisQueueBuilder(AbstractRedisClient client, String queue, String what, String noCount) {
        super(noCount);
        this.client = Objects.requireNonNull(client, "client");
        this.queue = Objects.requireNonNull(queue, what);
    }

    /**
     * Where failed jobs, and jobs interrupted too often, go (default {@code <queue>:dead}: a list for the
     * list queues, a stream for {@link StreamQueue}; on a Redis Cluster under the queue's hash tag).
     */
    public B deadLetter(String deadLetter) {
        this.deadLetter = Objects.requireNonNull(deadLetter, "deadLetter");
        return self();
    }

    /** Reads the job id from the payload, for logs and the ledger (default: the payload is the id). */
    public B idOf(Function<String, String> idOf) {
        this.idOf = Objects.requireNonNull(idOf, "idOf");
        return self();
    }
}
