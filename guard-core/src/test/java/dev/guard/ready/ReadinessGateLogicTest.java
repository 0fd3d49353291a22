package dev.guard.ready;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntFunction;
import org.junit.jupiter.api.Test;

/**
 * The gate's orchestration with scripted probes and an injected clock and sleeper: exact
 * schedules and state-change reporting, no sleeping. (Real servers: the per-client tests and
 * {@code ReadinessGateTest}.)
 */
class ReadinessGateLogicTest {

    /** A clock that only moves when the sleeper (or a probe) moves it. */
    static final class FakeTime extends Clock implements Sleeper {
        private volatile Instant now = Instant.parse("2026-01-01T00:00:00Z");
        final List<Duration> sleeps = new CopyOnWriteArrayList<>();

        @Override
        public synchronized void sleep(Duration d) {
            sleeps.add(d);
            now = now.plus(d);
        }

        synchronized void advance(Duration d) {
            now = now.plus(d);
        }

        @Override
        public Instant instant() {
            return now;
        }

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }
    }

    /** Answers state(n) on the n-th check (1-based); each check takes 1 ms of fake time. */
    static Probe scripted(FakeTime time, IntFunction<ProbeState> script, AtomicInteger calls) {
        return new Probe() {
            @Override
            public String kind() {
                return "redis";
            }

            @Override
            public String target() {
                return "redis:6379";
            }

            @Override
            public ProbeResult check(Duration attemptTimeout) {
                int n = calls.incrementAndGet();
                time.advance(Duration.ofMillis(1));
                ProbeState s = script.apply(n);
                return new ProbeResult(kind(), target(), s, s == ProbeState.LOADING ? "dataset " + n + "% loaded" : "",
                        "", 1, Duration.ofMillis(1));
            }
        };
    }

    private static final Backoff NO_JITTER = Backoff.builder().jitter(0).build();

    @Test
    void retriesOnTheExactBackoffScheduleAndReportsOnlyStateChanges() {
        FakeTime time = new FakeTime();
        AtomicInteger calls = new AtomicInteger();
        List<String> changes = new ArrayList<>();
        Probe probe = scripted(time, n -> n <= 4 ? ProbeState.REFUSED : n <= 7 ? ProbeState.LOADING : ProbeState.READY, calls);
        ReadinessGate gate = ReadinessGate.builder().probe(probe).deadline(Duration.ofSeconds(60)).backoff(NO_JITTER)
                .clock(time).sleeper(time)
                .listener((prev, cur) -> changes.add((prev == null ? "-" : prev.state().label()) + "->" + cur.state().label()
                        + "@" + cur.attempt()))
                .build();
        ReadinessReport report = gate.await();
        assertTrue(report.ready(), report.render());
        assertEquals(8, calls.get());
        assertEquals(List.of("-->refused@1", "refused->loading@5", "loading->ready@8"), changes);
        // failsafe's schedule over 7 failures is 10, 20, 40, 60, 60, 60, 60 ms between attempt STARTS:
        // each attempt takes 1 ms here, which the gate subtracts from the sleep after it
        assertEquals(List.of(9L, 19L, 39L, 59L, 59L, 59L, 59L), time.sleeps.stream().map(Duration::toMillis).toList());
        ProbeResult last = report.results().get(0);
        assertEquals(8, last.attempt());
        // attempt 8 starts at 10+20+40+60*4 ms and takes 1 ms
        assertEquals(Duration.ofMillis(10 + 20 + 40 + 60 * 4 + 1), last.elapsed());
    }

    @Test
    void deadlineStopsTheLoopAndTheLastSleepIsCutToTheDeadline() {
        FakeTime time = new FakeTime();
        AtomicInteger calls = new AtomicInteger();
        ReadinessGate gate = ReadinessGate.builder().probe(scripted(time, n -> ProbeState.LOADING, calls))
                .deadline(Duration.ofMillis(300)).backoff(NO_JITTER).clock(time).sleeper(time).build();
        ReadinessReport report = gate.await();
        assertEquals(ReadinessReport.Outcome.DEADLINE, report.outcome());
        // attempts start at t=0, 10, 30, 70, 130, 190, 250 (each takes 1 ms, sleeps are the rest of the delay);
        // after the one ending at t=251 only 49 ms are left: the sleep is cut to the deadline, no attempt after it
        assertEquals(7, calls.get());
        assertEquals(List.of(9L, 19L, 39L, 59L, 59L, 59L, 49L), time.sleeps.stream().map(Duration::toMillis).toList());
        assertEquals("dataset 7% loaded", report.results().get(0).detail());
    }

    /** How much earlier than its shortened timeout the cut-short attempt gives up: 0, or a client's timer firing early. */
    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.ValueSource(longs = {0, 22})
    void anAttemptCutShortByTheDeadlineDoesNotHideTheLastRealState(long endsEarlyMs) {
        FakeTime time = new FakeTime();
        Duration attemptTimeout = Duration.ofMillis(200);
        Probe slowNearDeadline = new Probe() {
            @Override
            public String kind() {
                return "kafka";
            }

            @Override
            public String target() {
                return "kafka:9092";
            }

            @Override
            public ProbeResult check(Duration timeout) {
                if (timeout.compareTo(attemptTimeout) < 0) {
                    time.advance(timeout.minusMillis(endsEarlyMs));
                    return new ProbeResult(kind(), target(), ProbeState.TIMEOUT, "no metadata in time", "", 1, timeout);
                }
                time.advance(Duration.ofMillis(1));
                return new ProbeResult(kind(), target(), ProbeState.LOADING, "1 of the required 3 broker(s) registered",
                        "", 1, Duration.ofMillis(1));
            }
        };
        ReadinessReport report = ReadinessGate.builder().probe(slowNearDeadline).deadline(Duration.ofMillis(300))
                .attemptTimeout(attemptTimeout).backoff(NO_JITTER).clock(time).sleeper(time).build().await();
        assertEquals(ReadinessReport.Outcome.DEADLINE, report.outcome());
        assertEquals(ProbeState.LOADING, report.results().get(0).state(), report.render());
        assertEquals("1 of the required 3 broker(s) registered", report.results().get(0).detail());
    }

    @Test
    void nonRetryableStateStopsTheWholeWaitAtOnceWithoutSleeping() {
        FakeTime time = new FakeTime();
        AtomicInteger calls = new AtomicInteger();
        AtomicInteger other = new AtomicInteger();
        CountDownLatch otherChecking = new CountDownLatch(1);
        CountDownLatch releaseOther = new CountDownLatch(1);
        // the AUTH answer comes only once the other target's first check is under way, and that check
        // does not finish until the test is done: the gate must not wait for it (nor retry either target)
        Probe auth = scripted(time, n -> {
            awaitUninterruptibly(otherChecking);
            return ProbeState.AUTH;
        }, calls);
        Probe stillChecking = new Probe() {
            @Override
            public String kind() {
                return "kafka";
            }

            @Override
            public String target() {
                return "kafka:9092";
            }

            @Override
            public ProbeResult check(Duration attemptTimeout) {
                other.incrementAndGet();
                otherChecking.countDown();
                awaitUninterruptibly(releaseOther);
                return new ProbeResult(kind(), target(), ProbeState.LOADING, "", "", 1, Duration.ZERO);
            }
        };
        try {
            ReadinessReport report = ReadinessGate.builder().probe(auth).probe(stillChecking)
                    .deadline(Duration.ofSeconds(5)).clock(time).sleeper(time).build().await();
            assertEquals(ReadinessReport.Outcome.NOT_RETRYABLE, report.outcome(),
                    "an AUTH answer must end the wait at once, not at the deadline:\n" + report.render());
            assertEquals(1, calls.get(), "the AUTH target must be checked exactly once");
            assertEquals(1, other.get(), "the other target must have been checked once and never again");
            assertEquals(List.of(), time.sleeps, "nothing may sleep after a non-retryable answer");
            assertEquals(ProbeState.AUTH, report.results().get(0).state(), report.render());
            ProbeResult unfinished = report.results().get(1);
            assertEquals(ProbeState.TIMEOUT, unfinished.state(), "the other target's check never finished: " + report.render());
            assertEquals("no attempt finished before the wait ended", unfinished.detail());
        } finally {
            releaseOther.countDown();
        }
    }

    private static void awaitUninterruptibly(CountDownLatch latch) {
        boolean interrupted = false;
        while (true) {
            try {
                latch.await();
                break;
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    @Test
    void stableWindowRequiresContinuousReadinessAndRestartsTheScheduleAfterAFlip() {
        FakeTime time = new FakeTime();
        AtomicInteger calls = new AtomicInteger();
        List<String> changes = new ArrayList<>();
        // ready at 1-2, flips to loading at 3, ready again from 4 on
        Probe probe = scripted(time, n -> n == 3 ? ProbeState.LOADING : ProbeState.READY, calls);
        ReadinessGate gate = ReadinessGate.builder().probe(probe).deadline(Duration.ofSeconds(60)).backoff(NO_JITTER)
                .stableFor(Duration.ofMillis(200)).clock(time).sleeper(time)
                .listener((prev, cur) -> changes.add(cur.state().label())).build();
        ReadinessReport report = gate.await();
        assertTrue(report.ready(), report.render());
        assertEquals(List.of("ready", "loading", "ready"), changes);
        // while READY it re-checks every 60 ms (the cap) until 200 ms of continuous readiness (each check: 1 ms)
        // (after the LOADING attempt the backoff restarts at 10 ms between starts: a 9 ms sleep)
        assertEquals(List.of(60L, 60L, 9L, 60L, 60L, 60L, 17L),
                time.sleeps.stream().map(Duration::toMillis).toList());
        assertEquals("stable for 0.2s", report.results().get(0).detail());
    }

    @Test
    void logLineNamesTargetStateAttemptAndElapsedOfDeadline() {
        ProbeResult r = new ProbeResult("redis", "127.0.0.1:6379", ProbeState.LOADING, "dataset 40% loaded", "", 7,
                Duration.ofMillis(3140));
        assertEquals("redis 127.0.0.1:6379 loading (dataset 40% loaded), attempt 7, 3.1s of 60s",
                ReadinessGate.logLine(r, Duration.ofSeconds(60)));
    }

    @Test
    void aProbeThatThrowsBecomesAResultNotAnException() {
        Probe broken = new Probe() {
            @Override
            public String kind() {
                return "custom";
            }

            @Override
            public String target() {
                return "x:1";
            }

            @Override
            public ProbeResult check(Duration attemptTimeout) {
                throw new IllegalStateException("boom at redis://u:s3cret@x:1");
            }
        };
        ReadinessReport report = ReadinessGate.builder().probe(broken).build().checkOnce();
        ProbeResult r = report.results().get(0);
        assertEquals(ProbeState.PROTOCOL, r.state());
        assertEquals("the probe failed unexpectedly", r.detail());
        assertEquals("java.lang.IllegalStateException: boom at redis://u:****@x:1", r.cause());
    }

    /** A target that loads until {@code end} (fake time) and says how long is left, as a loading Redis does; records starts. */
    static Probe loadingUntil(FakeTime time, Instant end, java.util.function.Function<Duration, Duration> estimate,
                              List<Instant> starts) {
        return new Probe() {
            @Override
            public String kind() {
                return "redis";
            }

            @Override
            public String target() {
                return "redis:6379";
            }

            @Override
            public ProbeResult check(Duration attemptTimeout) {
                starts.add(time.instant());
                time.advance(Duration.ofMillis(1));
                Duration left = Duration.between(time.instant(), end);
                if (left.isNegative() || left.isZero()) {
                    return new ProbeResult(kind(), target(), ProbeState.READY, "PONG", "", 1, Duration.ofMillis(1));
                }
                return new ProbeResult(kind(), target(), ProbeState.LOADING, "dataset loading", "", 1, Duration.ofMillis(1))
                        .withExpectedReadyIn(estimate.apply(left));
            }
        };
    }

    static int mostStartsInAnySecond(List<Instant> starts) {
        int best = 0;
        for (int i = 0, j = 0; i < starts.size(); i++) {
            while (!Duration.between(starts.get(j), starts.get(i)).minusSeconds(1).isNegative()) {
                j++;
            }
            best = Math.max(best, i - j + 1);
        }
        return best;
    }

    @Test
    void aTargetThatEstimatesItsEndIsCheckedSparselyWhileFarAndDenselyAtTheEnd() {
        FakeTime time = new FakeTime();
        Instant end = time.instant().plusMillis(6_000);
        List<Instant> starts = new CopyOnWriteArrayList<>();
        try (ReadinessGate gate = ReadinessGate.builder().probe(loadingUntil(time, end, left -> left, starts))
                .deadline(Duration.ofSeconds(60)).clock(time).sleeper(time).build()) {
            ReadinessReport report = gate.await();
            assertTrue(report.ready(), report.render());
            long lagMs = Duration.between(end, time.instant()).toMillis();
            assertTrue(lagMs <= Backoff.DENSE.toMillis() + 2, "ready seen " + lagMs + " ms after the end, "
                    + starts.size() + " attempts");
            // the backoff alone makes about 17 attempts a second: over 100 for 6 s
            assertTrue(starts.size() <= 40, starts.size() + " attempts for a 6 s load");
            assertTrue(mostStartsInAnySecond(starts) <= ReadinessGate.MAX_ATTEMPTS_PER_SECOND,
                    mostStartsInAnySecond(starts) + " attempts in one second");
            Instant lastSecond = end.minusSeconds(1);
            long before = starts.stream().filter(t -> t.isBefore(lastSecond)).count();
            long perSecond = 1000 / Backoff.FAR_CAP.toMillis();
            assertTrue(before <= 5 * perSecond + 3, "while the end is far, at most 1 / FAR_CAP attempts a second: " + before);
        }
    }

    @Test
    void anEstimateThatIsAlwaysTooEarlyNeverMakesMoreThanTheBoundOfAttemptsInAnySecond() {
        FakeTime time = new FakeTime();
        Instant end = time.instant().plusMillis(3_000);
        List<Instant> starts = new CopyOnWriteArrayList<>();
        // "any moment now" for 3 s: dense pacing would be 100 attempts a second
        try (ReadinessGate gate = ReadinessGate.builder().probe(loadingUntil(time, end, left -> Duration.ZERO, starts))
                .deadline(Duration.ofSeconds(60)).clock(time).sleeper(time).build()) {
            assertTrue(gate.await().ready());
            assertEquals(ReadinessGate.MAX_ATTEMPTS_PER_SECOND, mostStartsInAnySecond(starts),
                    "most attempts in one second, of " + starts.size());
            assertTrue(starts.size() <= 3 * ReadinessGate.MAX_ATTEMPTS_PER_SECOND + 1, starts.size() + " attempts");
        }
    }
}
