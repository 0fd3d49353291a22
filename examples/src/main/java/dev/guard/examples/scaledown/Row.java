package dev.guard.examples.scaledown;

import java.util.List;

/**
 * One mode's outcome, reconciled by id: workers terminated, ids that never reached the sink
 * (lost), hand-backs, jobs the reaper returned, ids written more than once, distinct ids in
 * the sink, dead-lettered ids, wall time; the Redis key prefix of the mode's run (its keys are
 * deleted after the run unless {@link ExperimentConfig#keepKeys()}).
 */
public record Row(Mode mode, int terminated, int lost, long handedBack, long reaped, int processedTwice,
        int distinctResults, long deadLettered, long millis, List<String> lostIds, String keyPrefix) {

    static String header() {
        return String.format("| %-32s | %10s | %5s | %11s | %18s | %15s | %8s |", "worker", "terminated", "lost",
                "handed back", "returned by reaper", "processed twice", "duration")
                + "\n|" + "-".repeat(34) + "|" + "-".repeat(12) + "|" + "-".repeat(7) + "|" + "-".repeat(13) + "|"
                + "-".repeat(20) + "|" + "-".repeat(17) + "|" + "-".repeat(10) + "|";
    }

    String line() {
        return String.format("| %-32s | %10d | %5d | %11d | %18d | %15d | %7.1fs |", mode.label(), terminated, lost,
                handedBack, reaped, processedTwice, millis / 1000.0);
    }
}
