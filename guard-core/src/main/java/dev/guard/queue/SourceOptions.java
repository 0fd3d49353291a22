package dev.guard.queue;

import java.time.Duration;
import java.util.Objects;

/**
 * The three settings every guard job source shares: how long one fetch waits for a job, how long a
 * hand-back (or a dead letter's publish) may take, and how many interruptions a job survives
 * before it is dead-lettered instead of run again. One value, so that a worker with several
 * sources sets them once ({@code builder.options(opts)}), and one place that checks them.
 *
 * @param pollTimeout how long one fetch waits (default 1 s): the longest an idle worker takes to
 *     notice a stop
 * @param handBackTimeout bound of a hand-back, a confirmed ack or a dead letter's publish (default
 *     2 s); keep it inside the drain's safety margin, which is what the hand-back of a draining
 *     worker has before SIGKILL
 * @param maxInterruptions a job interrupted this many times (handed back, or taken from a worker
 *     that died holding it) is dead-lettered at its next delivery instead of run (default 3)
 */
public record SourceOptions(Duration pollTimeout, Duration handBackTimeout, int maxInterruptions) {

    /** 1 s, 2 s, 3. */
    public static final SourceOptions DEFAULTS = new SourceOptions(Duration.ofSeconds(1), Duration.ofSeconds(2), 3);

    /**
     * @throws IllegalArgumentException naming the setting, the value and what is accepted
     */
    public SourceOptions {
        Objects.requireNonNull(pollTimeout, "pollTimeout");
        Objects.requireNonNull(handBackTimeout, "handBackTimeout");
        if (pollTimeout.isNegative()) {
            throw new IllegalArgumentException("pollTimeout must not be negative, was " + pollTimeout.toMillis()
                    + " ms (0 returns at once when no job is waiting)");
        }
        if (handBackTimeout.isNegative() || handBackTimeout.isZero()) {
            throw new IllegalArgumentException("handBackTimeout must be positive, was " + handBackTimeout.toMillis()
                    + " ms: a hand-back that may not wait for the broker's confirmation cannot be known to have landed");
        }
        checkMaxInterruptions(maxInterruptions);
    }

    /** The same limit rule for the sources' helpers (a reaper) that count interruptions without polling. */
    public static int checkMaxInterruptions(int max) {
        if (max < 1) {
            throw new IllegalArgumentException("maxInterruptions must be at least 1, was " + max
                    + " (1 dead-letters a job at its first interruption)");
        }
        return max;
    }

    public SourceOptions withPollTimeout(Duration pollTimeout) {
        return new SourceOptions(pollTimeout, handBackTimeout, maxInterruptions);
    }

    public SourceOptions withHandBackTimeout(Duration handBackTimeout) {
        return new SourceOptions(pollTimeout, handBackTimeout, maxInterruptions);
    }

    public SourceOptions withMaxInterruptions(int maxInterruptions) {
        return new SourceOptions(pollTimeout, handBackTimeout, maxInterruptions);
    }

    /** Whether a job interrupted {@code interruptions} times has reached the limit: dead-letter it, do not run it. */
    public boolean exhausted(long interruptions) {
        return interruptions >= maxInterruptions;
    }

    /** The dead letter's reason for a job that reached the limit, the same words on every broker. */
    public String exhaustedReason(long interruptions) {
        return "interrupted " + interruptions + " times (limit " + maxInterruptions + ")";
    }
}
