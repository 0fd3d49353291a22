package dev.guard.examples.scaledown;

import java.util.List;

/**
 * One mode's outcome on one broker, reconciled by id: workers terminated, ids that never reached
 * the sink (lost), hand-backs, jobs the Redis reaper returned, fetches of an id already fetched
 * (redelivered: hand-backs and crash recoveries), ids written more than once, distinct ids in the
 * sink, dead-lettered ids, wall time; the key prefix of the run (its keys are deleted after the
 * run unless {@link ExperimentConfig#keepKeys()}); for SIGKILLed workers that held a job, the
 * milliseconds from the kill to another worker's fetch of that job; workers that exited by themselves
 * and were replaced; the settle time of the run's faults ({@code Trial}: from a fault's end until
 * every job held when it began had its outcome; -1 when one never did; {@link #NO_FAULT} without faults),
 * and from a fault's end until the fleet's next outcome (how long it stood still); ids whose handler
 * started more than once (with completion records, a run after the first writes nothing); workers
 * that held a job when the scale-down chose them (the scaler's misses: each is a job interrupted
 * or finished in the grace period instead of a worker that had nothing to lose).
 */
public record Row(Transport.Kind broker, Mode mode, int terminated, int lost, long handedBack, long reaped,
        long redelivered, int processedTwice, int distinctResults, long deadLettered, long millis, List<String> lostIds,
        String keyPrefix, List<Long> pickupMillis, int restarts, long settleMillis,
        long resumeMillis, int ranAgain, int busyStopped) {

    /** {@link #settleMillis()} of a run without faults. */
    static final long NO_FAULT = -2;
    /** {@link #resumeMillis()} when every job had its outcome before the fault ended: nothing was left to resume. */
    static final long NOTHING_LEFT = -3;

    static String header() {
        return String.format("| %-8s | %-40s | %10s | %9s | %5s | %11s | %11s | %9s | %15s | %8s | %-22s |", "broker",
                "worker", "terminated", "busy ones", "lost", "handed back", "redelivered", "ran again", "processed twice",
                "duration", "death to pick-up")
                + "\n|" + "-".repeat(10) + "|" + "-".repeat(42) + "|" + "-".repeat(12) + "|" + "-".repeat(11) + "|"
                + "-".repeat(7) + "|" + "-".repeat(13) + "|" + "-".repeat(13) + "|" + "-".repeat(11) + "|"
                + "-".repeat(17) + "|" + "-".repeat(10) + "|" + "-".repeat(24) + "|";
    }

    String line() {
        return String.format("| %-8s | %-40s | %10d | %9d | %5d | %11d | %11d | %9d | %15d | %7.1fs | %-22s |",
                broker.arg(), mode.label(broker), terminated, busyStopped, lost, handedBack, redelivered, ranAgain,
                processedTwice, millis / 1000.0, pickups());
    }

    /** {@code 1.02-1.10 s (3)}, or {@code -} when no killed worker held a job. */
    String pickups() {
        if (pickupMillis.isEmpty()) {
            return "-";
        }
        long min = pickupMillis.stream().mapToLong(Long::longValue).min().orElseThrow();
        long max = pickupMillis.stream().mapToLong(Long::longValue).max().orElseThrow();
        return String.format("%.2f-%.2f s (%d)", min / 1000.0, max / 1000.0, pickupMillis.size());
    }
}
