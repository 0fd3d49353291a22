package dev.guard.ready;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The retry schedule is failsafe's; these pin its exact values without sleeping. */
class BackoffTest {

    private static final ProbeResult REFUSED =
            new ProbeResult("redis", "redis:6379", ProbeState.REFUSED, "", "", 1, Duration.ZERO);

    private static Duration ms(long v) {
        return Duration.ofMillis(v);
    }

    @Test
    void withoutJitterTheScheduleDoublesFrom10msUpToTheCap() {
        Backoff b = Backoff.builder().jitter(0).build();
        assertArrayEquals(new Duration[] {ms(10), ms(20), ms(40), ms(60), ms(60), ms(60), ms(60)},
                b.delays(REFUSED, 7));
    }

    @Test
    void aCapEqualToTheInitialDelayIsAConstantInterval() {
        // build() accepts max == initial; failsafe's withBackoff would reject it when the gate starts
        Backoff b = Backoff.builder().initial(ms(50)).max(ms(50)).jitter(0).build();
        assertArrayEquals(new Duration[] {ms(50), ms(50), ms(50)}, b.delays(REFUSED, 3));
    }

    @Test
    void customScheduleIsExact() {
        Backoff b = Backoff.builder().initial(ms(5)).max(ms(100)).factor(3).jitter(0).build();
        assertArrayEquals(new Duration[] {ms(5), ms(15), ms(45), ms(100), ms(100)}, b.delays(REFUSED, 5));
    }

    /**
     * The documented schedule, written out independently of failsafe: delay k (1-based) is
     * {@code min(initial * factor^(k-1), max)}; jitter moves each delay by at most +/- jitter of it.
     */
    private static long nominalNanos(long initialMs, double factor, long maxMs, int k) {
        return (long) Math.min(initialMs * 1_000_000L * Math.pow(factor, k - 1), maxMs * 1_000_000L);
    }

    @Test
    void defaultsAreTheDocumentedOnes() {
        assertEquals(ms(10), Backoff.DEFAULT.initial(), "default initial delay");
        assertEquals(2.0, Backoff.DEFAULT.factor(), "default factor");
        assertEquals(ms(60), Backoff.DEFAULT.max(), "default cap");
        assertEquals(0.05, Backoff.DEFAULT.jitter(), "default jitter");
    }

    @Test
    void withoutJitterEveryDelayIsTheFormulasValue() {
        long[][] configs = {{10, 2, 60}, {5, 3, 100}, {1, 2, 1000}, {7, 10, 8}};
        for (long[] c : configs) {
            Backoff b = Backoff.builder().initial(ms(c[0])).factor(c[1]).max(ms(c[2])).jitter(0).build();
            Duration[] delays = b.delays(REFUSED, 15);
            for (int k = 1; k <= delays.length; k++) {
                assertEquals(nominalNanos(c[0], c[1], c[2], k), delays[k - 1].toNanos(),
                        b + ": delay after failure " + k + " must be min(" + c[0] + "ms * " + c[1] + "^" + (k - 1) + ", "
                                + c[2] + "ms)");
            }
        }
    }

    @Test
    void withoutJitterTheScheduleIsAPureFunctionOfTheFailureCount() {
        Backoff b = Backoff.builder().jitter(0).build();
        assertArrayEquals(b.delays(REFUSED, 9), b.delays(REFUSED, 9), "two computations of the same schedule differ");
        assertArrayEquals(java.util.Arrays.copyOf(b.delays(REFUSED, 9), 4), b.delays(REFUSED, 4),
                "the first 4 delays must not depend on how many are asked for");
    }

    @Test
    void jitteredDelaysStayWithinTheJitterOfTheFormulasValue() {
        Backoff b = Backoff.DEFAULT;
        double j = b.jitter();
        boolean sawJitter = false;
        for (int round = 0; round < 200; round++) {
            Duration[] d = b.delays(REFUSED, 10);
            for (int k = 1; k <= d.length; k++) {
                long nominal = nominalNanos(10, 2, 60, k);
                long nanos = d[k - 1].toNanos();
                assertTrue(nanos >= nominal * (1 - j) - 1 && nanos <= nominal * (1 + j) + 1,
                        "delay after failure " + k + " = " + d[k - 1] + " must be within " + nominal / 1e6 + "ms +/- "
                                + Math.round(j * 100) + "%");
                sawJitter |= nanos != nominal;
            }
        }
        assertTrue(sawJitter, "200 jittered schedules were all exactly the nominal one: jitter is not applied");
    }

    /** Attempt starts within the first second: one at t=0, then one after each delay (attempts take no time). */
    private static int attemptsInFirstSecond(Duration[] delays) {
        long t = 0;
        int attempts = 1;
        for (Duration d : delays) {
            t += d.toNanos();
            if (t >= 1_000_000_000L) {
                return attempts;
            }
            attempts++;
        }
        throw new AssertionError("the " + delays.length + " delays do not reach 1 s: ask for more");
    }

    @Test
    void defaultRateStaysUnderTwentyAttemptsPerSecondPerTarget() {
        // steady state: the smallest delay is the 60 ms cap less 5 % jitter
        assertEquals(1000.0 / (60 * 0.95), Backoff.DEFAULT.maxAttemptsPerSecond(), 1e-9, "documented steady-state bound");
        assertEquals(17.54, Backoff.DEFAULT.maxAttemptsPerSecond(), 0.01);
        // worst case of the first second: every delay Backoff computes, at its lowest jittered value
        Backoff jitterFree = Backoff.builder().initial(Backoff.DEFAULT.initial()).factor(Backoff.DEFAULT.factor())
                .max(Backoff.DEFAULT.max()).jitter(0).build();
        Duration[] lowest = java.util.Arrays.stream(jitterFree.delays(REFUSED, 40))
                .map(d -> Duration.ofNanos((long) Math.floor(d.toNanos() * (1 - Backoff.DEFAULT.jitter()))))
                .toArray(Duration[]::new);
        // starts at 0, 9.5, 28.5, 66.5, then every 57 ms: 66.5 + 16 * 57 = 978.5 ms is the 20th
        assertEquals(20, attemptsInFirstSecond(lowest), "worst-case attempts in the first second");
        // and the delays Backoff.DEFAULT really draws never exceed it
        for (int round = 0; round < 200; round++) {
            Duration[] drawn = Backoff.DEFAULT.delays(REFUSED, 40);
            int attempts = attemptsInFirstSecond(drawn);
            assertTrue(attempts <= 20, "round " + round + ": " + attempts + " attempts in the first second, more than 20; "
                    + "delays " + java.util.Arrays.toString(drawn));
            for (int k = 4; k <= drawn.length; k++) {
                assertTrue(drawn[k - 1].toNanos() >= 1e9 / Backoff.DEFAULT.maxAttemptsPerSecond() - 1,
                        "steady-state delay " + drawn[k - 1] + " is below 1 / maxAttemptsPerSecond()");
            }
        }
    }

    @Test
    void nonRetryableStatesAbortAtOnce() {
        for (ProbeState s : new ProbeState[] {ProbeState.AUTH, ProbeState.TLS, ProbeState.CONFIG}) {
            ProbeResult r = new ProbeResult("redis", "redis:6379", s, "", "", 1, Duration.ZERO);
            assertEquals(Duration.ZERO, Backoff.DEFAULT.delays(r, 1)[0], s + " must complete (abort) the execution");
            assertTrue(!s.retryable());
        }
        for (ProbeState s : ProbeState.values()) {
            if (s.retryable() && s != ProbeState.READY) {
                ProbeResult r = new ProbeResult("redis", "redis:6379", s, "", "", 1, Duration.ZERO);
                assertTrue(Backoff.DEFAULT.delays(r, 1)[0].toMillis() >= 9, s + " must be retried");
            }
        }
    }

    @Test
    void invalidSchedulesAreRejectedWithTheValue() {
        var e = assertThrows(IllegalArgumentException.class, () -> Backoff.builder().factor(1).build());
        assertEquals("backoff factor must be > 1, got 1.0", e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> Backoff.builder().max(ms(5)).build());
        assertEquals("backoff max delay PT0.005S is below the initial delay PT0.01S", e.getMessage());
    }

    private static ProbeResult loadingFor(Duration readyIn) {
        return new ProbeResult("redis", "redis:6379", ProbeState.LOADING, "", "", 1, Duration.ZERO)
                .withExpectedReadyIn(readyIn);
    }

    @Test
    void anEstimatedEndPacesAttemptsHalvingTheTimeLeftThenDenseAtTheEnd() {
        assertEquals(null, Backoff.paceByEstimate(loadingFor(null)), "no estimate: the backoff applies");
        assertEquals(Backoff.FAR_CAP, Backoff.paceByEstimate(loadingFor(Duration.ofSeconds(30))));
        assertEquals(Duration.ofMillis(200), Backoff.paceByEstimate(loadingFor(Duration.ofMillis(400))), "half the time left");
        assertEquals(Duration.ofMillis(40), Backoff.paceByEstimate(loadingFor(Duration.ofMillis(80))), "at least LEAD");
        assertEquals(Duration.ofMillis(10), Backoff.paceByEstimate(loadingFor(Duration.ofMillis(50))),
                "never past the start of the lead window");
        assertEquals(Backoff.DENSE, Backoff.paceByEstimate(loadingFor(Backoff.LEAD)));
        assertEquals(Backoff.DENSE, Backoff.paceByEstimate(loadingFor(Duration.ZERO)));
        // through failsafe: the estimate replaces the backoff (jitter 5 % still applies), its absence restores it
        Duration[] d = Backoff.builder().jitter(0).build().delays(loadingFor(Duration.ofSeconds(30)), 2);
        assertEquals(List.of(Backoff.FAR_CAP, Backoff.FAR_CAP), List.of(d));
        assertEquals(Duration.ofMillis(10), Backoff.builder().jitter(0).build().delays(loadingFor(null), 1)[0]);
    }

    @Test
    void theAttemptWindowHoldsTheTwentyFirstStartUntilASecondAfterTheFirst() {
        AttemptWindow w = new AttemptWindow(20);
        long ms = 1_000_000L;
        for (int i = 0; i < 20; i++) {
            assertEquals(Duration.ZERO, w.waitBefore(i * 10 * ms));
            w.started(i * 10 * ms);
        }
        assertEquals(Duration.ofMillis(810), w.waitBefore(190 * ms + 0));
        assertEquals(Duration.ZERO, w.waitBefore(1_000 * ms));
        w.started(1_000 * ms);
        assertEquals(Duration.ofMillis(10), w.waitBefore(1_000 * ms), "the next slot frees when the second start ages out");
    }
}
