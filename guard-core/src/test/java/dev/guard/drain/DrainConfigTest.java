package dev.guard.drain;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

class DrainConfigTest {

    @Test
    void defaultsAreThirtySecondsGraceAndFiveSecondsMargin() {
        DrainConfig c = DrainConfig.fromEnv(Map.of());
        assertEquals(Duration.ofSeconds(30), c.gracePeriod());
        assertEquals(Duration.ofSeconds(5), c.safetyMargin());
        assertEquals(Duration.ofSeconds(25), c.budget());
    }

    @Test
    void plainNumbersAreSecondsAndUnitsAreAccepted() {
        DrainConfig c = DrainConfig.fromEnv(Map.of("GUARD_GRACE_PERIOD", "120", "GUARD_SAFETY_MARGIN", "1500ms",
                "GUARD_WORKER_ID", "worker-7"));
        assertEquals(Duration.ofSeconds(120), c.gracePeriod());
        assertEquals(Duration.ofMillis(1500), c.safetyMargin());
        assertEquals("worker-7", c.workerId());
        assertEquals(Duration.ofMinutes(2), DrainConfig.fromEnv(Map.of("GUARD_GRACE_PERIOD", "2m")).gracePeriod());
    }

    @Test
    void hostnameIsTheWorkerIdWhenNoneIsSet() {
        assertEquals("etl-worker-5d9f", DrainConfig.fromEnv(Map.of("HOSTNAME", "etl-worker-5d9f")).workerId());
    }

    @Test
    void badDurationNamesTheVariableTheValueAndTheForms() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> DrainConfig.fromEnv(Map.of("GUARD_GRACE_PERIOD", "thirty")));
        assertEquals("GUARD_GRACE_PERIOD (from the environment): 'thirty' is not a duration: write seconds (30), a number with a"
                + " unit (500ms, 30s, 2m, 1h) or ISO-8601 (PT30S); the grace period should match the pod's terminationGracePeriodSeconds.",
                e.getMessage());
    }

    @Test
    void marginAsLongAsTheGracePeriodIsRejected() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> DrainConfig.fromEnv(Map.of("GUARD_GRACE_PERIOD", "5", "GUARD_SAFETY_MARGIN", "5")));
        assertTrue(e.getMessage().startsWith("safety margin 5000 ms (from the environment: GUARD_GRACE_PERIOD,"
                + " GUARD_SAFETY_MARGIN) must be at least 0 and shorter than the grace period 5000 ms"), e.getMessage());
    }
}
