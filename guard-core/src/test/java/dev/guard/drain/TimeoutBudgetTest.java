package dev.guard.drain;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.guard.config.Durations;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The timeout budget's judgement (pure logic; the clocks themselves are read from real brokers in
 * each source's test): which clock a longest job outlasts, with the numbers and the fix, and which
 * it does not (a renewed clock, a job within its limit, an assumed value that only warns).
 */
class TimeoutBudgetTest {

    private static final DrainConfig GRACE_30 = DrainConfig.builder().gracePeriod(Duration.ofSeconds(30))
            .safetyMargin(Duration.ofSeconds(1)).build();

    private static DrainConfig grace(Duration grace) {
        return DrainConfig.builder().gracePeriod(grace).safetyMargin(Duration.ofSeconds(1)).build();
    }

    private static TimeoutBudget.Settings longest(Duration d) {
        return new TimeoutBudget.Settings(CheckLevel.ERROR, d, "env GUARD_LONGEST_JOB");
    }

    private static final JobClock CLAIM = JobClock.limitsRun("claim min-idle time", Duration.ofSeconds(30), "claimMinIdle",
            "is claimed by another consumer", "claimMinIdle(...) above the longest job");

    @Test
    void aJobLongerThanTheDrainIsRefusedWithTheGracePeriodItNeeds() {
        TimeoutBudget b = TimeoutBudget.evaluate("w", longest(Duration.ofSeconds(45)), GRACE_30, "env GUARD_GRACE_PERIOD", List.of());
        assertEquals(1, b.violations().size(), b.render());
        TimeoutBudget.Violation v = b.violations().get(0);
        assertTrue(v.refusing());
        assertTrue(v.text().contains("45 s") && v.text().contains("29 s") && v.text().contains("env GUARD_GRACE_PERIOD"), v.text());
        // 45 s of job plus the 1 s margin: the grace period to set, rounded up to whole seconds
        assertTrue(v.text().contains("to at least 46 s"), v.text());
        assertTrue(v.text().contains("SIGKILL"), v.text());
    }

    @Test
    void aJobWithinEveryClockPassesAndSaysWhatIsToSpare() {
        TimeoutBudget b = TimeoutBudget.evaluate("w", longest(Duration.ofSeconds(20)), GRACE_30, "default", List.of(CLAIM));
        assertTrue(b.violations().isEmpty(), b.render());
        assertEquals("ok: 9 s to spare", b.rows().get(0).verdict());
        assertEquals("ok: 10 s to spare", b.rows().get(1).verdict());
    }

    @Test
    void aJobAsLongAsALimitIsAViolationNamingTheClockAndItsFix() {
        TimeoutBudget b = TimeoutBudget.evaluate("w", longest(Duration.ofSeconds(30)), grace(Duration.ofMinutes(2)), "default", List.of(CLAIM));
        assertEquals(1, b.violations().size(), b.render());
        String t = b.violations().get(0).text();
        assertTrue(t.contains("claim min-idle time (30 s, claimMinIdle)") && t.contains("is claimed by another consumer")
                && t.contains("Action: claimMinIdle(...) above the longest job"), t);
        assertTrue(b.render().contains("VIOLATED"), b.render());
    }

    @Test
    void aRenewedClockIsNeverAViolationHoweverLongTheJob() {
        JobClock ackWait = JobClock.renewed("AckWait", Duration.ofSeconds(30), "consumer info", Duration.ofSeconds(10));
        TimeoutBudget b = TimeoutBudget.evaluate("w", longest(Duration.ofMinutes(10)), grace(Duration.ofMinutes(11)), "default", List.of(ackWait));
        assertTrue(b.violations().isEmpty(), b.render());
        assertTrue(b.rows().get(1).verdict().startsWith("renewed every 10 s"), b.rows().get(1).verdict());
        assertTrue(b.rows().get(1).verdict().contains("over 20 s"), b.rows().get(1).verdict());
    }

    @Test
    void anAssumedValueWarnsButDoesNotRefuse() {
        JobClock assumed = JobClock.limitsRun("consumer timeout", Duration.ofMinutes(30), "RabbitMQ's default", "closed",
                "raise it").asAssumed();
        TimeoutBudget b = TimeoutBudget.evaluate("w", longest(Duration.ofMinutes(40)), grace(Duration.ofHours(1)), "default", List.of(assumed));
        assertEquals(1, b.violations().size());
        assertFalse(b.refusing());
        assertTrue(b.render().contains("warning: the value is assumed"), b.render());
    }

    @Test
    void anAgeLimitCountsTheLongestJobAndThePickupOfAKilledWorkersJob() {
        JobClock ttl = JobClock.limitsAge("message TTL", Duration.ofSeconds(60), "x-message-ttl", "is dropped", "no TTL");
        JobClock pickup = JobClock.pickup("redelivery after a crash", Duration.ofSeconds(30), "AckWait");
        // 20 s job + 30 s pickup = 50 s < 60 s
        assertTrue(TimeoutBudget.evaluate("w", longest(Duration.ofSeconds(20)), GRACE_30, "default", List.of(ttl, pickup))
                .violations().isEmpty());
        // 29 s job + 30 s pickup = 59 s: under; 31 s + 30 s = 61 s: over, though the job alone is far under the TTL
        TimeoutBudget over = TimeoutBudget.evaluate("w", longest(Duration.ofSeconds(31)), grace(Duration.ofMinutes(1)), "default", List.of(ttl, pickup));
        assertEquals(1, over.violations().size(), over.render());
        assertTrue(over.violations().get(0).text().contains("61 s old"), over.violations().get(0).text());
    }

    @Test
    void withoutALongestJobTheTableIsShownAndNothingJudged() {
        TimeoutBudget b = TimeoutBudget.evaluate("w", TimeoutBudget.Settings.DEFAULT, GRACE_30, "default", List.of(CLAIM));
        assertTrue(b.violations().isEmpty());
        assertTrue(b.render().contains("longest job not declared: set GUARD_LONGEST_JOB"), b.render());
        assertTrue(b.rows().get(1).verdict().startsWith("not judged"), b.rows().get(1).verdict());
    }

    @Test
    void refusalAsksTheSourceAndStopsOnlyAtErrorLevel() {
        JobSource<String> source = new ClockedSource(List.of(CLAIM));
        DrainConfig grace = grace(Duration.ofMinutes(5));
        Optional<String> refused = TimeoutBudget.refusal(source, longest(Duration.ofMinutes(1)), grace, "default", "w",
                "GUARD_TIMEOUT_CHECK=warn");
        assertTrue(refused.isPresent());
        assertTrue(refused.get().contains("to start anyway: GUARD_TIMEOUT_CHECK=warn"), refused.get());
        assertTrue(TimeoutBudget.refusal(source, new TimeoutBudget.Settings(CheckLevel.WARN, Duration.ofMinutes(1),
                "x"), grace, "default", "w", "").isEmpty());
        // a source whose clocks cannot be read: only the drain is judged
        JobSource<String> broken = new ClockedSource(null);
        assertTrue(TimeoutBudget.refusal(broken, longest(Duration.ofMinutes(1)), grace, "default", "w", "").isEmpty());
        assertTrue(TimeoutBudget.refusal(broken, longest(Duration.ofMinutes(6)), grace, "default", "w", "").isPresent());
    }

    @Test
    void aBadLevelNamesWhereItCameFromAndTheValuesAllowed() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> TimeoutBudget.parseLevel("strict", "env GUARD_TIMEOUT_CHECK"));
        assertTrue(e.getMessage().contains("'strict' (from env GUARD_TIMEOUT_CHECK) is not one of error, warn, off"),
                e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new TimeoutBudget.Settings(CheckLevel.ERROR,
                Duration.ZERO, "x"));
    }

    @Test
    void durationsReadAsAPersonWritesThem() {
        assertEquals("450 ms", Durations.show(Duration.ofMillis(450)));
        assertEquals("1.5 s", Durations.show(Duration.ofMillis(1500)));
        assertEquals("90 s", Durations.show(Duration.ofSeconds(90)));
        assertEquals("30 min", Durations.show(Duration.ofMinutes(30)));
        assertEquals("1 h 30 min", Durations.show(Duration.ofMinutes(90)));
        assertEquals("5 h", Durations.show(Duration.ofHours(5)));
        assertEquals("2 d", Durations.show(Duration.ofDays(2)));
        assertEquals("61500 ms", Durations.show(Duration.ofMillis(61_500)));
    }

    /** A source whose only behaviour under test is {@link #clocks()}; null clocks throw as a broker that cannot be asked. */
    private record ClockedSource(List<JobClock> clocks) implements JobSource<String> {
        @Override
        public List<JobClock> clocks() {
            if (clocks == null) {
                throw new IllegalStateException("no answer");
            }
            return clocks;
        }

        @Override
        public Optional<String> fetch() {
            return Optional.empty();
        }

        @Override
        public void ack(String job) {}

        @Override
        public void handBack(String job) {}

        @Override
        public void fail(String job, Exception cause) {}

        @Override
        public String idOf(String job) {
            return job;
        }

        @Override
        public void close() {}
    }
}
