package dev.guard.init.diagnose;

/**
 * A signal with its place in the order the capture was read: {@code seq} grows with every signal
 * of a run, so "after" means later in time when every signal of a group has a timestamp, and later
 * in the capture otherwise.
 */
record Placed(Signal s, long seq, long nanos) {

    /** The signal placed at {@code seq}, its time read once (spans compare it with every job line's). */
    static Placed of(Signal s, long seq) {
        java.time.Instant t = s.line().time();
        return new Placed(s, seq, t == null ? Long.MIN_VALUE : t.getEpochSecond() * 1_000_000_000L + t.getNano());
    }

    /** Nanoseconds since the epoch, or {@link Long#MIN_VALUE} when the line has no timestamp. */
    @Override
    public long nanos() {
        return nanos;
    }
}
