package dev.guard.ready;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Test helper: a real probe that counts the checks made through it, so a test can wait until
 * the gate has really tried N times (for example against a closed port) instead of sleeping
 * and hoping that enough attempts fit in the pause on a busy machine. It can also hold each
 * check until an event the test names has happened, to fix an order that load could change.
 */
public final class CountedProbe implements Probe {

    private final Probe real;
    private final Runnable beforeCheck;
    private final AtomicInteger checks = new AtomicInteger();
    private final java.util.List<ProbeResult> results = new java.util.concurrent.CopyOnWriteArrayList<>();

    public CountedProbe(Probe real) {
        this(real, () -> { });
    }

    /** Runs {@code beforeCheck} (for example: await a latch) before each check of {@code real}. */
    public CountedProbe(Probe real, Runnable beforeCheck) {
        this.real = real;
        this.beforeCheck = beforeCheck;
    }

    @Override
    public String kind() {
        return real.kind();
    }

    @Override
    public String target() {
        return real.target();
    }

    @Override
    public ProbeResult check(Duration attemptTimeout) {
        try {
            beforeCheck.run();
            ProbeResult r = real.check(attemptTimeout);
            results.add(r);
            return r;
        } finally {
            synchronized (checks) {
                checks.incrementAndGet();
                checks.notifyAll();
            }
        }
    }

    /** What each check returned, in order. */
    public java.util.List<ProbeResult> results() {
        return java.util.List.copyOf(results);
    }

    /** Checks finished so far. */
    public int checks() {
        return checks.get();
    }

    /** Waits (at most {@code bound}) until {@code n} checks have finished; fails saying how many did. */
    public void awaitChecks(int n, Duration bound) throws InterruptedException {
        long deadline = System.nanoTime() + bound.toNanos();
        synchronized (checks) {
            while (checks.get() < n) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    throw new AssertionError("only " + checks.get() + " of " + n + " checks of " + target()
                            + " finished within " + bound.toSeconds() + " s");
                }
                TimeUnit.NANOSECONDS.timedWait(checks, left);
            }
        }
    }

    @Override
    public void close() {
        real.close();
    }
}
