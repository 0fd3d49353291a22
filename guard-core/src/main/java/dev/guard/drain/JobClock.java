package dev.guard.drain;

import java.time.Duration;
import java.util.Objects;

/**
 * One of a source's clocks that a job's length meets: a broker's AckWait, a claim's idle time, a
 * consumer timeout, a message's age limit. A {@link JobSource} reads its own from the broker
 * ({@link JobSource#clocks()}) and the {@link TimeoutBudget} compares them with the declared
 * longest job and the drain's grace period.
 *
 * @param name the clock as its broker's documentation names it ({@code AckWait}, {@code consumer_timeout})
 * @param value its value
 * @param origin where the value was read ({@code consumer info of 'workers'}), or why it is assumed
 * @param effect what a job meets it with
 * @param renewEvery for {@link Effect#RENEWED}: how often the source extends it while a job runs; else null
 * @param consequence what happens at run time when a job outlasts it, in the seeds' words
 * @param fix what to change, with the setting's name
 * @param assumed the value is the broker's documented default, not read (a setting AMQP cannot
 *     see): a mismatch is a warning, never a refusal, since the real value may differ
 */
public record JobClock(String name, Duration value, String origin, Effect effect, Duration renewEvery,
        String consequence, String fix, boolean assumed) {

    /** How a job's length meets a clock. */
    public enum Effect {
        /** A job running longer than it is taken from this worker while it still runs (run twice, or its channel closed). */
        LIMITS_RUN,
        /** The source extends it while a job runs (an in-progress ack, a lease, a lock renewal): not a limit on a live worker. */
        RENEWED,
        /** A job's age: one interrupted after it (handed back, its worker killed) is deleted by the broker, never delivered again. */
        LIMITS_AGE,
        /** How long a killed worker's job waits before another worker gets it: not a limit, a delay. */
        PICKUP
    }

    public JobClock {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(value, "value");
        Objects.requireNonNull(origin, "origin");
        Objects.requireNonNull(effect, "effect");
        if (effect == Effect.RENEWED) {
            Objects.requireNonNull(renewEvery, "renewEvery of a renewed clock");
        }
        consequence = consequence == null ? "" : consequence;
        fix = fix == null ? "" : fix;
    }

    /** A clock a job must finish within. */
    public static JobClock limitsRun(String name, Duration value, String origin, String consequence, String fix) {
        return new JobClock(name, value, origin, Effect.LIMITS_RUN, null, consequence, fix, false);
    }

    /** A clock the source extends every {@code every} while a job runs. */
    public static JobClock renewed(String name, Duration value, String origin, Duration every) {
        return new JobClock(name, value, origin, Effect.RENEWED, every, "", "", false);
    }

    /** A message age limit: a job interrupted after it is gone. */
    public static JobClock limitsAge(String name, Duration value, String origin, String consequence, String fix) {
        return new JobClock(name, value, origin, Effect.LIMITS_AGE, null, consequence, fix, false);
    }

    /** How long a dead worker's job waits before it is delivered again. */
    public static JobClock pickup(String name, Duration value, String origin) {
        return new JobClock(name, value, origin, Effect.PICKUP, null, "", "", false);
    }

    /** This clock with its value marked as the broker's default, not read. */
    public JobClock asAssumed() {
        return new JobClock(name, value, origin, effect, renewEvery, consequence, fix, true);
    }
}
