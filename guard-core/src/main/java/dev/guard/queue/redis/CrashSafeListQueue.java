package dev.guard.queue.redis;

import dev.guard.GuardLog;
import dev.guard.drain.HandBackFailedException;
import dev.guard.drain.JobClock;
import dev.guard.drain.JobOrigin;
import dev.guard.drain.JobSource;
import dev.guard.queue.SourceOptions;
import io.lettuce.core.AbstractRedisClient;
import io.lettuce.core.LMoveArgs;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.SetArgs;
import io.lettuce.core.cluster.RedisClusterClient;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Function;
import org.slf4j.Logger;

/**
 * A crash-safe Redis list queue: BLMOVE moves each job from the queue into this worker's
 * processing list ({@code <queue>:processing:<workerId>}), so Redis keeps a copy until the job
 * is acked (LREM). A heartbeat renews the lease {@code <queue>:lease:<workerId>} (SET PX) every
 * lease/3; when a worker dies without a word (SIGKILL, OOM kill, node loss), its lease expires
 * and a {@link ListReaper} returns its processing list to the queue within about one lease
 * period. Delivery is at least once: make results idempotent. Producers LPUSH onto
 * {@code queue}; returned and handed-back jobs are RPUSHed, so they are taken next.
 *
 * <p>One round trip per job on a busy queue: {@link #ack} sends one script that removes the job
 * and moves the next one into the processing list (LMOVE), and does not wait; {@link #fetch} reads
 * that reply and hands out the job it carried, blocking on BLMOVE only when the queue was empty. A
 * worker therefore holds at most one job it has not started; {@link #close} puts it back at the
 * consuming end uncounted, and a crash leaves it to the reaper like any other.
 *
 * <p>On a Redis Cluster ({@link #builder(RedisClusterClient, String)}) the keys are named with the
 * queue as hash tag ({@code {jobs}:processing:<id>}, {@code {jobs}:lease:<id>}, {@code {jobs}:dead}),
 * which is the slot of {@code jobs} itself: BLMOVE and every script stay in one slot, and
 * producers push to {@code jobs} as before. On a standalone Redis (also through Sentinel) the names
 * are as they always were ({@code jobs:processing:<id>}).
 */
public final class CrashSafeListQueue implements JobSource<RedisJob> {

    private static final Logger LOG = GuardLog.logger(CrashSafeListQueue.class);
    private static final Duration FIRST_LEASE_TIMEOUT = Duration.ofSeconds(30);
    private static final Duration ACK_TIMEOUT = Duration.ofSeconds(10);

    private final ListKeys keys;
    private final String workerId;
    private final String processing;
    private final String lease;
    private final Duration leaseTtl;
    private final Duration reapEvery;
    private final SourceOptions options;
    private final Function<String, String> idOf;
    private final AbstractRedisClient client;
    private final ListReaper.Builder reaperSpec;
    private final boolean reaps;
    /** Set by {@link #open}, at the first fetch: building the queue sends no command. */
    private RedisLink connection;
    private RedisLink heartbeatConnection;
    private ScheduledExecutorService heartbeat;
    private ListReaper reaper;
    private HotScript ackNext;
    private volatile boolean opened;
    private boolean closed;
    /** The payloads this worker holds (fetched, not yet acked, handed back or failed), with their copies. */
    private final java.util.Map<String, Integer> held = new java.util.HashMap<>();
    /** Set by any failed command: the processing list may hold what this worker no longer has in hand. */
    private volatile boolean suspect;
    private long lastStrandCheck = System.nanoTime();
    private final Duration strandCheckEvery;
    /** The last ack, sent and not yet confirmed, and the id of its job. */
    private HotScript.Sent pendingAck;
    private String pendingAckId;
    /** The job the last ack moved into the processing list, handed out by the next fetch. */
    private String prefetched;

    CrashSafeListQueue(Builder b) {
        boolean cluster = RedisLink.isCluster(b.client);
        RedisLink.requireSameSlot(cluster, b.queue, b.deadLetter, "dead-letter list");
        this.keys = new ListKeys(b.queue, b.deadLetter, cluster);
        this.workerId = b.workerId == null ? Redis.defaultWorkerId() : b.workerId;
        this.processing = keys.processing(workerId);
        this.lease = keys.lease(workerId);
        this.leaseTtl = b.leaseTtl;
        this.reapEvery = b.reapEvery.isZero() ? Duration.ofSeconds(1) : b.reapEvery; // 0: other workers reap, at the default pace
        this.options = b.options();
        this.idOf = b.idOf;
        this.strandCheckEvery = b.strandCheckEvery;
        this.client = b.client;
        this.reaperSpec = new ListReaper.Builder(b.client, b.queue).maxInterruptions(options.maxInterruptions()).onReap(b.onReap);
        if (b.deadLetter != null) {
            reaperSpec.deadLetter(b.deadLetter);
        }
        this.reaps = !b.reapEvery.isZero();
        if (reaps) {
            reaperSpec.every(b.reapEvery);
        }
    }

    /**
     * Connects, takes the lease, returns this worker's own leftovers and starts heartbeat and
     * reaper; once, at the first {@link #fetch}. Until then the queue has sent no command, so it can
     * be built before the broker is up (a Spring bean is created before guard's readiness gate
     * opens). A failure closes what was opened and throws; the next fetch tries again.
     */
    private synchronized void open() {
        if (opened) {
            return;
        }
        if (closed) {
            throw new IllegalStateException("guard crash-safe queue '" + keys.queue + "' is closed");
        }
        RedisLink main = null;
        RedisLink beat = null;
        try {
            main = RedisLink.open(client);
            beat = RedisLink.open(client);
            this.connection = main;
            this.heartbeatConnection = beat;
            ListReaper built = reaperSpec.build(beat);
            // the first lease waits longer: a cold JVM on a busy node can take seconds for its first command
            renewLease(leaseTtl.compareTo(FIRST_LEASE_TIMEOUT) > 0 ? leaseTtl : FIRST_LEASE_TIMEOUT);
            ReapResult recovered = built.recover(workerId);
            if (recovered.jobsReturned() + recovered.jobsDeadLettered() > 0) {
                LOG.warn("guard crash-safe queue '{}': worker {} found {} job(s) of its previous run in {} and returned them",
                        keys.queue, workerId, recovered.jobsReturned() + recovered.jobsDeadLettered(), processing);
            }
            this.ackNext = new HotScript(main, ListKeys.ACK_NEXT, ScriptOutputType.MULTI);
            long period = renewEvery().toMillis();
            this.heartbeat = Executors.newSingleThreadScheduledExecutor(r -> {
                Thread t = new Thread(r, "guard-lease-" + workerId);
                t.setDaemon(true);
                return t;
            });
            heartbeat.scheduleAtFixedRate(this::beat, period, period, TimeUnit.MILLISECONDS);
            this.reaper = reaps ? built.start() : null;
            opened = true;
        } catch (RuntimeException e) {
            if (beat != null) {
                beat.close();
            }
            if (main != null) {
                main.close();
            }
            throw e;
        }
    }

    /** A queue on {@code client} (the caller owns the client; the queue opens two connections and closes them). */
    /**
     * How a producer puts jobs on a list this queue (or a {@link FallbackListQueue}) takes from:
     * {@code LPUSH}, since both take the oldest job from the right end. A producer that
     * {@code RPUSH}es gets newest-first order, and nothing says so. Returns the list's length after
     * the push; the payloads go in the order given (the first is taken first).
     */
    public static long push(io.lettuce.core.api.sync.RedisCommands<String, String> redis, String queue, String... payloads) {
        if (payloads.length == 0) {
            return redis.llen(queue);
        }
        return redis.lpush(queue, payloads);
    }

    public static Builder builder(RedisClient client, String queue) {
        return new Builder(client, queue);
    }

    /** A queue on a Redis Cluster (keys under the queue's hash tag, see above); the caller owns the client. */
    public static Builder builder(RedisClusterClient client, String queue) {
        return new Builder(client, queue);
    }

    public String workerId() {
        return workerId;
    }

    /** This worker's processing list. */
    public String processingList() {
        return processing;
    }

    public String leaseKey() {
        return lease;
    }

    private void renewLease() {
        renewLease(leaseTtl);
    }

    private void renewLease(Duration timeout) {
        RedisFuture<String> set = heartbeatConnection.async().set(lease, Long.toString(ProcessHandle.current().pid()),
                SetArgs.Builder.px(leaseTtl.toMillis()));
        RedisFuture<Long> add = heartbeatConnection.async().sadd(keys.workers, workerId);
        try {
            Redis.await(set, timeout);
            Redis.await(add, timeout);
        } catch (Exception e) {
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            throw new IllegalStateException("guard crash-safe queue '" + keys.queue + "': could not renew lease " + lease
                    + " within " + timeout.toMillis() + " ms (" + Redis.describe(e) + "); without a lease the reaper"
                    + " returns this worker's jobs to other workers", e);
        }
    }

    private void beat() {
        try {
            renewLease();
        } catch (RuntimeException e) {
            suspect = true;
            LOG.warn("{}", e.getMessage());
        }
    }

    @Override
    public Optional<RedisJob> fetch() {
        if (!opened) { // read without the lock: fetch is the hot path, open() happens once
            open();
        }
        settle();
        returnStranded();
        if (prefetched != null) {
            String p = prefetched;
            prefetched = null;
            return Optional.of(new RedisJob(idOf.apply(p), p, keys.queue, null, 1));
        }
        String payload;
        try {
            payload = connection.sync().blmove(keys.queue, processing, LMoveArgs.Builder.rightLeft(),
                    Redis.seconds(options.pollTimeout()));
        } catch (RuntimeException e) {
            suspect = true; // the move may have happened with its reply lost: the job is in the list, not in hand
            throw e;
        }
        if (payload == null) {
            return Optional.empty();
        }
        synchronized (held) {
            held.merge(payload, 1, Integer::sum);
        }
        return Optional.of(new RedisJob(idOf.apply(payload), payload, keys.queue, null, 1));
    }

    private void release(String payload) {
        synchronized (held) {
            held.computeIfPresent(payload, (k, n) -> n > 1 ? n - 1 : null);
        }
    }

    /**
     * After a failed command (or every {@code strandCheckEvery}), returns to the queue what this
     * worker's processing list holds that the worker does not have in hand: an ack that failed,
     * a BLMOVE whose reply was lost, or, after a failover, the old master's moves and acks the
     * promoted replica never received. Without this such a job waits for the worker to die or
     * restart. Each return counts as an interruption; the job may run twice.
     */
    private void returnStranded() {
        long now = System.nanoTime();
        if (!suspect && now - lastStrandCheck < strandCheckEvery.toNanos()) {
            return;
        }
        List<String> args = new java.util.ArrayList<>();
        args.add(Integer.toString(options.maxInterruptions()));
        synchronized (held) {
            held.forEach((payload, n) -> {
                for (int i = 0; i < n; i++) {
                    args.add(payload);
                }
            });
        }
        try {
            List<Long> r = connection.sync().eval(ListKeys.STRANDED, ScriptOutputType.MULTI,
                    new String[] {processing, keys.queue, keys.interruptions, keys.dead}, args.toArray(new String[0]));
            suspect = false;
            lastStrandCheck = now;
            if (r.get(0) + r.get(1) > 0) {
                LOG.warn("guard crash-safe queue '{}': {} job(s) in {} were not in this worker's hands (an ack or a move"
                        + " that failed, or was lost in a failover): {} returned to the queue, {} dead-lettered at {}"
                        + " interruptions; they may run twice", keys.queue, r.get(0) + r.get(1), processing, r.get(0),
                        r.get(1), options.maxInterruptions());
            }
        } catch (RuntimeException e) {
            suspect = true;
            throw e;
        }
    }

    /**
     * Removes the job from the processing list and forgets its interruption count; when this
     * worker holds no unstarted job, the same script moves the next one in. Sent without waiting:
     * the reply is read by the next {@link #fetch} (or {@link #confirmAcks}, {@link #handBack},
     * {@link #fail}, {@link #close}), so ack and fetch share one round trip. An ack Redis never
     * confirms leaves the job in the processing list, from where it is returned to the queue: it
     * runs again, it is not lost (results must be idempotent).
     */
    @Override
    public void ack(RedisJob job) {
        release(job.payload());
        settle(); // an earlier ack not yet confirmed: this worker held two jobs at once
        try {
            pendingAck = ackNext.send(connection, new String[] {processing, keys.interruptions, keys.queue},
                    job.payload(), prefetched == null ? "1" : "0");
            pendingAckId = job.id();
        } catch (RuntimeException e) {
            suspect = true;
            throw new IllegalStateException("guard crash-safe queue '" + keys.queue + "': ack of job " + job.id()
                    + " could not be sent (" + Redis.describe(e) + "); it stays in " + processing + " and is returned to"
                    + " the queue once Redis answers again, so it will run again", e);
        }
    }

    /** Waits for the acks sent so far (they are otherwise confirmed by the next fetch). */
    public void confirmAcks() {
        settle();
    }

    /** Reads the reply of the last ack: warns when it failed, keeps the job it moved in for the next fetch. */
    private void settle() {
        HotScript.Sent sent = pendingAck;
        if (sent == null) {
            return;
        }
        pendingAck = null;
        try {
            List<Object> r = sent.await(ACK_TIMEOUT);
            if ((Long) r.get(0) == 0) {
                LOG.warn("guard crash-safe queue '{}': job {} was no longer in {} at ack: the lease had lapsed and a reaper"
                        + " returned it, so it may run twice (results must be idempotent)", keys.queue, pendingAckId,
                        processing);
            }
            if (r.size() > 1 && r.get(1) != null) {
                String next = (String) r.get(1);
                synchronized (held) {
                    held.merge(next, 1, Integer::sum);
                }
                prefetched = next;
            }
        } catch (Exception e) {
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            suspect = true; // the script may have run with its reply lost: the next fetch checks the processing list
            LOG.warn("guard crash-safe queue '{}': the ack of job {} was not confirmed ({}); it stays in {} and is returned"
                    + " to the queue once Redis answers again, so it will run again (results must be idempotent)",
                    keys.queue, pendingAckId, Redis.describe(e), processing);
        }
    }

    /**
     * Atomically moves the job from the processing list back to the queue (taken next), counting
     * an interruption; at the limit it goes to the dead-letter list instead.
     */
    @Override
    public void handBack(RedisJob job) throws HandBackFailedException {
        release(job.payload());
        settle();
        try {
            Long r = Redis.await(connection.async().eval(ListKeys.HAND_BACK, ScriptOutputType.INTEGER,
                    new String[] {processing, keys.queue, keys.interruptions, keys.dead},
                    job.payload(), Integer.toString(options.maxInterruptions())), options.handBackTimeout());
            if (r == 2) {
                LOG.warn("guard crash-safe queue '{}': job {} reached {} interruptions and was moved to '{}'",
                        keys.queue, job.id(), options.maxInterruptions(), keys.dead);
            } else if (r == 0) {
                LOG.warn("guard crash-safe queue '{}': job {} was no longer in {} at hand-back (a reaper returned it)",
                        keys.queue, job.id(), processing);
            }
        } catch (Exception e) {
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            suspect = true;
            throw new HandBackFailedException(job.id(), "hand-back of job " + job.id() + " from " + processing + " to '"
                    + keys.queue + "' did not complete within " + options.handBackTimeout().toMillis() + " ms (" + Redis.describe(e)
                    + "); the job stays in the processing list and goes back to the queue at this worker's next fetch once Redis"
                    + " answers again, or by a reaper once the lease expires", e);
        }
    }

    /** Moves the job from the processing list to the dead-letter list (a failure, not an interruption). */
    @Override
    public void fail(RedisJob job, Exception cause) {
        release(job.payload());
        settle();
        Long moved;
        try {
            moved = connection.sync().eval(ListKeys.FAIL, ScriptOutputType.INTEGER,
                    new String[] {processing, keys.dead, keys.interruptions}, job.payload());
        } catch (RuntimeException e) {
            suspect = true;
            throw e;
        }
        if (moved == 0) {
            LOG.warn("guard crash-safe queue '{}': failed job {} was no longer in {} (a reaper returned it); it is in the"
                    + " queue again, not parked", keys.queue, job.id(), processing);
        }
    }

    @Override
    public String idOf(RedisJob job) {
        return job.id();
    }

    @Override
    public JobOrigin originOf(RedisJob job) {
        return new JobOrigin("redis", job.origin(), null, null, job.entryId());
    }

    /** How often the heartbeat renews the lease: a third of it. */
    private Duration renewEvery() {
        return Duration.ofMillis(Math.max(1, leaseTtl.toMillis() / 3));
    }

    /**
     * The worker's lease: renewed every third of it by a heartbeat while the worker lives, so it
     * limits a pause of the JVM, not a job; a killed worker's jobs come back about one lease and
     * one reaper pass later.
     */
    @Override
    public List<JobClock> clocks() {
        String from = "leaseTtl of this worker";
        return List.of(
                JobClock.renewed("lease", leaseTtl, from, renewEvery()),
                JobClock.pickup("redelivery after a crash (lease + reaper pass)", leaseTtl.plus(reapEvery),
                        "leaseTtl + reapEvery of the reaper"));
    }

    /**
     * Whether the Redis holding the queue keeps it across a restart ({@code appendonly}, the
     * snapshot schedule, key eviction): a crash-safe queue on a Redis that keeps nothing on disk
     * loses every queued and every held job when Redis restarts. Asked over a connection of its
     * own; starts nothing.
     */
    @Override
    public dev.guard.drain.Durability durability() {
        return RedisLink.durability(client, keys.queue, "queue '" + keys.queue + "'");
    }

    /**
     * Stops the heartbeat and reaper, confirms the last ack and puts a job fetched ahead but never
     * started back at the consuming end (uncounted). With an empty processing list the lease is
     * deleted and the worker unregistered; otherwise the lease is left to expire so a reaper
     * returns the jobs.
     */
    @Override
    public synchronized void close() {
        boolean wasOpen = opened;
        opened = false;
        closed = true;
        if (!wasOpen) {
            return; // never fetched: no lease taken, nothing held
        }
        heartbeat.shutdownNow();
        if (reaper != null) {
            reaper.close();
        }
        try {
            settle();
            if (prefetched != null) {
                String p = prefetched;
                prefetched = null;
                release(p);
                connection.sync().eval(ListKeys.UNTOUCHED, ScriptOutputType.INTEGER, new String[] {processing, keys.queue}, p);
            }
            Long left = connection.sync().llen(processing);
            if (left == 0) {
                connection.sync().del(lease);
                connection.sync().srem(keys.workers, workerId);
            } else {
                LOG.warn("guard crash-safe queue '{}': worker {} closes with {} job(s) in {}; a reaper returns them once"
                        + " the lease expires", keys.queue, workerId, left, processing);
            }
        } catch (RuntimeException e) {
            LOG.warn("guard crash-safe queue '{}': could not clean up lease of {} ({}); it expires by itself",
                    keys.queue, workerId, Redis.describe(e));
        } finally {
            heartbeatConnection.close();
            connection.close();
        }
    }

    /** Mutable builder. */
    public static final class Builder extends RedisQueueBuilder<Builder> {
        private String workerId;
        private Duration leaseTtl = Duration.ofSeconds(3);
        private Duration reapEvery = Duration.ofSeconds(1);
        private Consumer<ReapResult> onReap = r -> { };
        private Duration strandCheckEvery = Duration.ofSeconds(30);

        Builder(AbstractRedisClient client, String queue) {
            super(client, queue, "queue", null);
        }

        @Override
        protected Builder self() {
            return this;
        }

        /** Unique per live worker (default HOSTNAME-pid); a restarted worker with the same id recovers its own jobs. */
        public Builder workerId(String workerId) {
            this.workerId = Objects.requireNonNull(workerId, "workerId");
            return this;
        }

        /**
         * Lease time to live (default 3 s), renewed every third of it. A dead worker's jobs come
         * back about one lease later; a pause (GC, CPU starvation) longer than the lease makes a
         * live worker's job run twice.
         */
        public Builder leaseTtl(Duration leaseTtl) {
            if (leaseTtl.toMillis() < 3) {
                throw new IllegalArgumentException("lease TTL must be at least 3 ms, was " + leaseTtl.toMillis() + " ms");
            }
            this.leaseTtl = leaseTtl;
            return this;
        }

        /** How often this worker's embedded reaper runs (default 1 s); {@link Duration#ZERO} runs none. */
        public Builder reapEvery(Duration reapEvery) {
            this.reapEvery = Objects.requireNonNull(reapEvery, "reapEvery");
            return this;
        }

        public Builder onReap(Consumer<ReapResult> onReap) {
            this.onReap = Objects.requireNonNull(onReap, "onReap");
            return this;
        }

        /**
         * How often a fetch also checks this worker's processing list for jobs it no longer holds
         * (default 30 s; always right after a failed command). One LRANGE in a script.
         */
        public Builder strandCheckEvery(Duration every) {
            this.strandCheckEvery = Objects.requireNonNull(every, "every");
            return this;
        }

        /**
         * The queue, without a command sent: the first {@link CrashSafeListQueue#fetch} registers
         * the worker, takes the lease, recovers its own leftovers and starts heartbeat and reaper.
         */
        public CrashSafeListQueue build() {
            return new CrashSafeListQueue(this);
        }
    }
}
