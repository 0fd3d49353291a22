package dev.guard.ready;

/** Told once per state change per target during {@link ReadinessGate#await()} (not per attempt). */
@FunctionalInterface
public interface ReadinessListener {

    /**
     * @param previous the last result in the previous state, or null on the first attempt
     * @param current  the result that entered the new state
     */
    void onStateChange(ProbeResult previous, ProbeResult current);
}
