package dev.guard.ready;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
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
        assertArrayEquals(new Duration[] {ms(10), ms(20), ms(40), ms(65), ms(65), ms(65), ms(65)},
                b.delays(REFUSED, 7));
    }

    @Test
    void customScheduleIsExact() {
        Backoff b = Backoff.builder().initial(ms(5)).max(ms(100)).factor(3).jitter(0).build();
        assertArrayEquals(new Duration[] {ms(5), ms(15), ms(45), ms(100), ms(100)}, b.delays(REFUSED, 5));
    }

    @Test
    void jitterStaysWithinTenPercentOfTheNominalDelay() {
        long[] nominal = {10, 20, 40, 65, 65, 65, 65, 65};
        for (int round = 0; round < 200; round++) {
            Duration[] d = Backoff.DEFAULT.delays(REFUSED, nominal.length);
            for (int i = 0; i < nominal.length; i++) {
                long nanos = d[i].toNanos();
                long n = nominal[i] * 1_000_000;
                assertTrue(nanos >= n * 0.9 - 1 && nanos <= n * 1.1 + 1,
                        "delay " + i + " = " + d[i] + " outside " + nominal[i] + "ms +/- 10%");
            }
        }
    }

    @Test
    void defaultRateStaysUnderTwentyAttemptsPerSecondPerTarget() {
        // steady state: the smallest delay is 65ms * 0.9 = 58.5ms
        assertEquals(17.09, Backoff.DEFAULT.maxAttemptsPerSecond(), 0.01);
        // worst case first second, every delay at its jittered minimum and attempts taking no time
        double t = 0;
        int attempts = 1;
        long[] nominal = {10, 20, 40};
        for (long n : nominal) {
            t += n * 0.9;
            attempts++;
        }
        while (t + 65 * 0.9 <= 1000) {
            t += 65 * 0.9;
            attempts++;
        }
        assertTrue(attempts <= 20, "worst-case attempts in the first second: " + attempts);
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
}
