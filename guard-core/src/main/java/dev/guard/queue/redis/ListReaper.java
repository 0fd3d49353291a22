package dev.guard.queue.redis;

import dev.guard.GuardLog;
import dev.guard.queue.SourceOptions;
import io.lettuce.core.AbstractRedisClient;
import io.lettuce.core.RedisClient;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.cluster.RedisClusterClient;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.slf4j.Logger;

/**
 * Returns the jobs of dead workers of a {@link CrashSafeListQueue}: a worker whose lease key
 * ({@code <queue>:lease:<id>}) has expired is dead, and its processing list goes back to the
 * consuming end of the queue in one atomic Lua script. Each return counts as an interruption of
 * the job ({@code <queue>:interruptions}); at the limit the job goes to {@code <queue>:dead}
 * instead. Any number of reapers may run (each worker runs one by default); the script is atomic,
 * so they do not double-return. The script builds the lease and processing keys from the queue's
 * key prefix; on a Cluster that prefix is the queue's hash tag, so they are all in its slot.
 */
public final class ListReaper implements AutoCloseable {

    private static final Logger LOG = GuardLog.logger(ListReaper.class);

    private final ListKeys keys;
    private final int maxInterruptions;
    private final Duration every;
    private final Consumer<ReapResult> onReap;
    private final RedisLink connection;
    private final boolean ownsConnection;
    private ScheduledExecutorService scheduler;

    ListReaper(Builder b, RedisLink shared) {
        boolean cluster = RedisLink.isCluster(b.client);
        RedisLink.requireSameSlot(cluster, b.queue, b.deadLetter, "dead-letter list");
        this.keys = new ListKeys(b.queue, b.deadLetter, cluster);
        this.maxInterruptions = b.maxInterruptions;
        this.every = b.every;
        this.onReap = b.onReap;
        this.ownsConnection = shared == null;
        this.connection = shared == null ? RedisLink.open(b.client) : shared;
    }

    public static Builder builder(RedisClient client, String queue) {
        return new Builder(client, queue);
    }

    /** A reaper for a queue on a Redis Cluster (its keys are under the queue's hash tag, see {@link CrashSafeListQueue}). */
    public static Builder builder(RedisClusterClient client, String queue) {
        return new Builder(client, queue);
    }

    /** One pass over all registered workers. */
    public ReapResult reapOnce() {
        return run("", false);
    }

    /** Returns one worker's processing list whatever its lease says (a restarted worker recovering its own jobs). */
    ReapResult recover(String workerId) {
        return run(workerId, true);
    }

    private ReapResult run(String only, boolean force) {
        List<Long> r = connection.sync().eval(ListKeys.REAP, ScriptOutputType.MULTI, keys.scriptKeys(),
                keys.prefix, Integer.toString(maxInterruptions), only, force ? "1" : "0");
        ReapResult result = new ReapResult(r.get(0), r.get(1), r.get(2));
        if (result.jobsReturned() > 0 || result.jobsDeadLettered() > 0) {
            LOG.info("guard reaper on '{}': {}", keys.queue, result);
        }
        if (result.jobsDeadLettered() > 0) {
            LOG.warn("guard reaper on '{}': {} job(s) reached {} interruptions and were moved to '{}'",
                    keys.queue, result.jobsDeadLettered(), maxInterruptions, keys.dead);
        }
        return result;
    }

    /** Starts reaping every {@code every} on a daemon thread. */
    public synchronized ListReaper start() {
        if (scheduler == null) {
            scheduler = Executors.newSingleThreadScheduledExecutor(r -> {
                Thread t = new Thread(r, "guard-reaper-" + keys.queue);
                t.setDaemon(true);
                return t;
            });
            scheduler.scheduleWithFixedDelay(this::tick, every.toMillis(), every.toMillis(), TimeUnit.MILLISECONDS);
        }
        return this;
    }

    private void tick() {
        try {
            ReapResult r = reapOnce();
            if (!r.isEmpty()) {
                onReap.accept(r);
            }
        } catch (RuntimeException e) {
            LOG.warn("guard reaper on '{}': pass failed ({}); next pass in {} ms", keys.queue, Redis.describe(e), every.toMillis());
        }
    }

    @Override
    public synchronized void close() {
        if (scheduler != null) {
            scheduler.shutdownNow();
            try {
                scheduler.awaitTermination(2, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            scheduler = null;
        }
        if (ownsConnection) {
            connection.close();
        }
    }

    /** Mutable builder. */
    public static final class Builder {
        private final AbstractRedisClient client;
        private final String queue;
        private String deadLetter;
        private int maxInterruptions = 3;
        private Duration every = Duration.ofSeconds(1);
        private Consumer<ReapResult> onReap = r -> { };

        Builder(AbstractRedisClient client, String queue) {
            this.client = client;
            this.queue = Objects.requireNonNull(queue, "queue");
        }

        public Builder deadLetter(String deadLetter) {
            this.deadLetter = Objects.requireNonNull(deadLetter, "deadLetter");
            return this;
        }

        /** A job interrupted this many times is dead-lettered at that interruption (default 3). */
        public Builder maxInterruptions(int max) {
            this.maxInterruptions = SourceOptions.checkMaxInterruptions(max);
            return this;
        }

        /** Interval between passes when started (default 1 s). */
        public Builder every(Duration every) {
            if (every.isNegative() || every.isZero()) {
                throw new IllegalArgumentException("reaper interval must be positive, was " + every.toMillis() + " ms");
            }
            this.every = every;
            return this;
        }

        public Builder onReap(Consumer<ReapResult> onReap) {
            this.onReap = Objects.requireNonNull(onReap, "onReap");
            return this;
        }

        /** Opens its own connection; call {@link ListReaper#start()} to run it periodically. */
        public ListReaper build() {
            return new ListReaper(this, null);
        }

        ListReaper build(RedisLink shared) {
            return new ListReaper(this, shared);
        }
    }
}
