package dev.guard.ready;

/** Told once per state change per target during {@link ReadinessGate#await()} (not per attempt), and once when the wait ends. */
@FunctionalInterface
public interface ReadinessListener {

    /**
     * @param previous the last result in the previous state, or null on the first attempt
     * @param current  the result that entered the new state
     */
    void onStateChange(ProbeResult previous, ProbeResult current);

    /** The wait has ended, ready or not: its report. Default: nothing. */
    default void onWaitEnded(ReadinessReport report) {
    }
}
