package dev.guard.init.diagnose;

/**
 * A signal with its place in the order the capture was read: {@code seq} grows with every signal
 * of a run, so "after" means later in time when every signal of a group has a timestamp, and later
 * in the capture otherwise.
 */
record Placed(Signal s, long seq) {

    /** Nanoseconds since the epoch, or {@link Long#MIN_VALUE} when the line has no timestamp. */
    long nanos() {
        java.time.Instant t = s.line().time();
        return t == null ? Long.MIN_VALUE : t.getEpochSecond() * 1_000_000_000L + t.getNano();
    }
}
