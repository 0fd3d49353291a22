package dev.guard.examples.scaledown;

import java.util.SplittableRandom;

/**
 * Job ids and their work, deterministic per id: most jobs take 5-14 ms in one step; 1 in
 * {@code slowOneIn} takes 1.0-2.5 s in 100 ms steps (the deadline is checked between steps).
 */
final class JobWork {

    static final long STEP_MILLIS = 100;

    private JobWork() {}

    static String id(int n) {
        return String.format("job-%06d", n);
    }

    /** Step durations in ms for this job. */
    static long[] steps(String id, int slowOneIn) {
        SplittableRandom r = new SplittableRandom(id.hashCode() * 0x9E3779B97F4A7C15L);
        if (r.nextInt(slowOneIn) == 0) {
            int n = 10 + r.nextInt(16); // 10..25 steps of 100 ms = 1.0..2.5 s
            long[] steps = new long[n];
            java.util.Arrays.fill(steps, STEP_MILLIS);
            return steps;
        }
        return new long[] {5 + r.nextInt(10)};
    }
}
