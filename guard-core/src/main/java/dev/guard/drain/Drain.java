package dev.guard.drain;

import dev.guard.GuardLog;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import org.slf4j.Logger;

/**
 * The drain state of one worker process: whether a stop was requested, the deadline, and the
 * counts that end up in its {@link ShutdownReceipt}.
 *
 * <p>{@link #install(DrainConfig)} replaces the JVM's SIGTERM/SIGINT handling with a handler
 * that only calls {@link #requestStop(String)}: the JVM does not start its shutdown, so no
 * shutdown hook (Lettuce's, Netty's, a logging framework's) closes clients while the worker
 * loop is still finishing a job. The loop does the work, closes its connections and returns
 * from {@code main}; the process exits 0 after a clean drain. A shutdown hook is kept only as a
 * fallback for a JVM shutdown that did not come through those signals (another signal,
 * {@code System.exit} elsewhere): it requests the stop and waits for the loop up to the
 * deadline. Nothing here calls {@code System.exit}.
 */
public final class Drain {

    private static final Logger LOG = GuardLog.logger(Drain.class);

    private final DrainConfig config;
    private final LongSupplier nanoClock;
    private final Object lock = new Object();
    private volatile boolean stopping;
    private volatile long deadlineNanos;
    private volatile long stopNanos;
    private volatile String reason = "running";
    private final CountDownLatch stopRequested = new CountDownLatch(1);
    private final CountDownLatch finished = new CountDownLatch(1);
    private final AtomicLong fetched = new AtomicLong();
    private final AtomicLong done = new AtomicLong();
    private final AtomicLong failed = new AtomicLong();
    private final AtomicLong handedBack = new AtomicLong();
    private final AtomicLong ackFailed = new AtomicLong();
    private final AtomicLong duplicates = new AtomicLong();
    private final AtomicLong superseded = new AtomicLong();
    private final AtomicLong rejected = new AtomicLong();
    private final AtomicLong failedAtBoundary = new AtomicLong();
    private final AtomicLong overran = new AtomicLong();
    private final List<String> handBackFailedIds = new ArrayList<>();
    private volatile ShutdownReceipt finalReceipt;
    private volatile String sourceLost;
    private volatile long lastTurnNanos = System.nanoTime();

    Drain(DrainConfig config, LongSupplier nanoClock) {
        this.config = Objects.requireNonNull(config, "config");
        this.nanoClock = Objects.requireNonNull(nanoClock, "nanoClock");
    }

    /** A drain without signal handlers: call {@link #requestStop(String)} yourself (tests, embedded use). */
    public static Drain create(DrainConfig config) {
        return new Drain(config, System::nanoTime);
    }

    /** For pure-logic tests: a drain on an injected monotonic clock (nanoseconds). */
    static Drain create(DrainConfig config, LongSupplier nanoClock) {
        return new Drain(config, nanoClock);
    }

    /**
     * A drain that listens to SIGTERM and SIGINT (the handler only sets state) and registers the
     * fallback shutdown hook. Call once per process, before the worker loop starts.
     */
    public static Drain install(DrainConfig config) {
        Drain drain = create(config);
        drain.handle("TERM");
        drain.handle("INT");
        Thread hook = new Thread(drain::onJvmShutdown, "guard-drain-shutdown-hook");
        Runtime.getRuntime().addShutdownHook(hook);
        // load and initialise the shutdown path now (receipt, Jackson): on a busy node, first use
        // after SIGTERM costs hundreds of milliseconds of a grace period that may be 1 s
        String warm = drain.receipt().toLine() + drain.receipt().toJson();
        LOG.debug("guard drain installed: {} ({} chars of receipt warmed up)", config, warm.length());
        return drain;
    }

    @SuppressWarnings("removal")
    private void handle(String name) {
        try {
            sun.misc.Signal.handle(new sun.misc.Signal(name), sig -> requestStop("SIG" + sig.getName()));
        } catch (IllegalArgumentException | UnsupportedOperationException | LinkageError e) {
            // e.g. -Xrs, or INT ignored by a background shell: the shutdown hook still drains
            LOG.warn("guard drain: cannot handle SIG{} ({}); relying on the shutdown hook, which waits for the loop"
                    + " up to the deadline", name, e.toString());
        }
    }

    private void onJvmShutdown() {
        if (finished.getCount() == 0) {
            return;
        }
        requestStop("JVM shutdown");
        long waitNanos = Math.max(0, deadlineNanos - nanoClock.getAsLong()) + config.safetyMargin().toNanos();
        try {
            if (!finished.await(waitNanos, TimeUnit.NANOSECONDS)) {
                LOG.error("guard drain: the worker loop did not finish within the grace period during JVM shutdown;"
                        + " in-flight jobs may be lost: {}", receipt().toLine());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Idempotent: the first call sets the deadline (now + grace period - safety margin). Safe from a signal handler. */
    public void requestStop(String why) {
        synchronized (lock) {
            if (stopping) {
                return;
            }
            long now = nanoClock.getAsLong();
            stopNanos = now;
            deadlineNanos = now + config.budget().toNanos();
            reason = why;
            stopping = true;
        }
        stopRequested.countDown();
        LOG.info("guard drain: {} received, no new jobs; in-flight jobs may run {} ms, then they are handed back",
                why, config.budget().toMillis());
    }

    public boolean stopping() {
        return stopping;
    }

    /** When a job must stop starting new steps; empty while no stop was requested. */
    public Optional<Instant> deadline() {
        if (!stopping) {
            return Optional.empty();
        }
        return Optional.of(Instant.now().plusNanos(deadlineNanos - nanoClock.getAsLong()));
    }

    /** Time left until the deadline (zero once past it); while running, the whole budget a stop would give. */
    public Duration timeLeft() {
        if (!stopping) {
            return config.budget();
        }
        return Duration.ofNanos(Math.max(0, deadlineNanos - nanoClock.getAsLong()));
    }

    /** True once a stop was requested and the deadline has passed. */
    public boolean pastDeadline() {
        return stopping && nanoClock.getAsLong() - deadlineNanos >= 0;
    }

    /** Between steps: false once the deadline has passed (the job should be handed back). */
    public boolean canContinue() {
        return !pastDeadline();
    }

    /**
     * Between steps, never inside one: throws {@link HandBack} once the deadline has passed, so
     * the loop hands the job back untouched.
     */
    public void checkpoint() {
        if (pastDeadline()) {
            throw new HandBack("drain deadline passed " + Duration.ofNanos(nanoClock.getAsLong() - deadlineNanos).toMillis()
                    + " ms ago after " + reason + "; handing the job back");
        }
    }

    /** Waits up to {@code max} for a stop request; true when one came. */
    public boolean awaitStop(Duration max) throws InterruptedException {
        return stopRequested.await(max.toNanos(), TimeUnit.NANOSECONDS);
    }

    public DrainConfig config() {
        return config;
    }

    public void jobFetched() {
        fetched.incrementAndGet();
    }

    public void jobDone() {
        done.incrementAndGet();
    }

    public void jobFailed() {
        failed.incrementAndGet();
    }

    /** A done job whose ack failed: counted apart (the broker gives it out again; it may run twice). */
    public void jobAckFailed() {
        ackFailed.incrementAndGet();
    }

    /** A job whose completion was on record (acked without running, or its run's writes discarded). */
    public void jobDuplicate() {
        duplicates.incrementAndGet();
    }

    /** A job another worker claimed while this one held it: left to that worker. */
    public void jobSuperseded() {
        superseded.incrementAndGet();
    }

    /**
     * The job in hand, which the loop acks and counts as done, was rejected at the consumer
     * boundary (dead-lettered as invalid): the receipt says {@code rejected}, as the ledger does.
     */
    public void jobRejected() {
        rejected.incrementAndGet();
    }

    /**
     * The job in hand, which the loop acks and counts as done, failed in its handler and the
     * boundary dead-lettered it with the exception: the receipt says {@code failed}, as the ledger does.
     */
    public void jobFailedAtBoundary() {
        failedAtBoundary.incrementAndGet();
    }

    /** A job finished after the deadline without a checkpoint stopping it ({@link DrainLoop} says how far). */
    public void jobOverran() {
        overran.incrementAndGet();
    }

    /** The worker loop turned (a fetch came back, a job starts): what a liveness probe counts as progress. */
    public void loopTurned() {
        lastTurnNanos = System.nanoTime();
    }

    /** {@link System#nanoTime()} of the loop's last turn (of this drain's creation before the first). */
    public long lastTurnNanos() {
        return lastTurnNanos;
    }

    /** The deadline, on this drain's clock (nanoseconds); meaningful once a stop was requested. */
    long deadlineNanos() {
        return deadlineNanos;
    }

    /** This drain's monotonic clock, in nanoseconds. */
    long nanoTime() {
        return nanoClock.getAsLong();
    }

    public void jobHandedBack() {
        handedBack.incrementAndGet();
    }

    /** Records a job that could not be handed back: the receipt is not clean and its exit code is non-zero. */
    public void jobHandBackFailed(String jobId) {
        synchronized (handBackFailedIds) {
            handBackFailedIds.add(jobId);
        }
    }

    /** The job source is gone (see {@link SourceLostException}): stops, and the receipt's exit code is 69. */
    public void sourceLost(String why) {
        sourceLost = why;
        requestStop("job source lost");
    }

    /** A snapshot of the counts so far. */
    public ShutdownReceipt receipt() {
        List<String> failedIds;
        synchronized (handBackFailedIds) {
            failedIds = List.copyOf(handBackFailedIds);
        }
        long drainMillis = stopping ? TimeUnit.NANOSECONDS.toMillis(nanoClock.getAsLong() - stopNanos) : 0;
        return new ShutdownReceipt(config.workerId(), reason, fetched.get(), done.get(), failed.get(),
                handedBack.get(), failedIds, drainMillis, sourceLost, ackFailed.get(), duplicates.get(), superseded.get(),
                rejected.get(), failedAtBoundary.get(), overran.get());
    }

    /**
     * The worker loop never started (its boot failed) and the process is about to exit: releases
     * the fallback shutdown hook, which would otherwise wait out the grace period, and logs no
     * receipt (no job was taken).
     */
    public void release() {
        finished.countDown();
    }

    /**
     * The loop has ended: freezes and logs the receipt (one line, then JSON) and releases the
     * fallback shutdown hook. Later calls return the same receipt.
     */
    public ShutdownReceipt finish() {
        synchronized (lock) {
            if (finalReceipt == null) {
                finalReceipt = receipt();
                if (finalReceipt.clean()) {
                    LOG.info("{}", finalReceipt.toLine());
                } else {
                    LOG.error("{}", finalReceipt.toLine());
                }
                LOG.info("{}", finalReceipt.toJson());
            }
        }
        finished.countDown();
        return finalReceipt;
    }
}
