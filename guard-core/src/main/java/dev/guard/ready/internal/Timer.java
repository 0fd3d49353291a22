package dev.guard.ready.internal;

import java.time.Duration;

/** Elapsed time of one attempt, from {@link System#nanoTime()}. */
public final class Timer {
    private final long start = System.nanoTime();

    public Duration elapsed() {
        return Duration.ofNanos(System.nanoTime() - start);
    }

    /** What is left of {@code budget}, never negative. */
    public Duration remaining(Duration budget) {
        Duration left = budget.minus(elapsed());
        return left.isNegative() ? Duration.ZERO : left;
    }
}
