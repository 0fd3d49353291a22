package dev.guard.ready;

import java.time.Duration;

/**
 * The bound on one target's attempt starts: at most {@code max} in any one second, whatever paced
 * them (the backoff, a target's own estimate of when it is ready). Remembers the last {@code max}
 * starts; the next may begin no earlier than one second after the oldest of them. Times are
 * nanoseconds on any one clock. Not thread-safe: one per target loop.
 */
final class AttemptWindow {

    private static final long SECOND = 1_000_000_000L;

    private final long[] starts;
    private int count;
    private int oldest;

    AttemptWindow(int max) {
        if (max < 1) {
            throw new IllegalArgumentException("at least one attempt per second, got " + max);
        }
        this.starts = new long[max];
    }

    /** How long to wait from {@code now} before the next attempt may start. */
    Duration waitBefore(long now) {
        if (count < starts.length) {
            return Duration.ZERO;
        }
        long wait = starts[oldest] + SECOND - now;
        return wait > 0 ? Duration.ofNanos(wait) : Duration.ZERO;
    }

    /** Records an attempt that started at {@code now}. */
    void started(long now) {
        if (count < starts.length) {
            starts[(oldest + count) % starts.length] = now;
            count++;
        } else {
            starts[oldest] = now;
            oldest = (oldest + 1) % starts.length;
        }
    }
}
