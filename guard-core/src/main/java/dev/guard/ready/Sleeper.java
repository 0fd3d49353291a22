package dev.guard.ready;

import java.time.Duration;

/** How the gate waits between attempts; injectable so schedules are tested without sleeping. */
@FunctionalInterface
public interface Sleeper {

    /** The real one: {@link Thread#sleep(long, int)}. */
    Sleeper SYSTEM = d -> {
        if (!d.isNegative() && !d.isZero()) {
            Thread.sleep(d.toMillis(), d.toNanosPart() % 1_000_000);
        }
    };

    void sleep(Duration duration) throws InterruptedException;
}
