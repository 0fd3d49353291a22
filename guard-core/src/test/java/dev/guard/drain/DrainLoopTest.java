package dev.guard.drain;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.StringWriter;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.appender.WriterAppender;
import org.apache.logging.log4j.core.config.Configuration;
import org.apache.logging.log4j.core.config.LoggerConfig;
import org.apache.logging.log4j.core.layout.PatternLayout;
import org.junit.jupiter.api.Test;

/** The loop's bookkeeping on an in-memory source and an injected clock (pure logic; Redis paths are tested for real). */
class DrainLoopTest {

    private final AtomicLong now = new AtomicLong();
    private final Drain drain = Drain.create(DrainConfig.builder().gracePeriod(Duration.ofSeconds(2))
            .safetyMargin(Duration.ofSeconds(1)).workerId("t").build(), now::get);

    /** A list of job ids; records what the loop did with each. */
    static class ListSource implements JobSource<String> {
        final Deque<String> jobs = new ArrayDeque<>();
        final List<String> acked = new ArrayList<>();
        final List<String> handedBack = new ArrayList<>();
        final List<String> failed = new ArrayList<>();
        boolean handBackBreaks;

        @Override
        public Optional<String> fetch() {
            return Optional.ofNullable(jobs.pollFirst());
        }

        @Override
        public void ack(String job) {
            acked.add(job);
        }

        @Override
        public void handBack(String job) throws HandBackFailedException {
            if (handBackBreaks) {
                throw new HandBackFailedException(job, "queue gone", null);
            }
            handedBack.add(job);
        }

        @Override
        public void fail(String job, Exception cause) {
            failed.add(job);
        }

        @Override
        public String idOf(String job) {
            return job;
        }

        @Override
        public void close() {
        }
    }

    @Test
    void aJobPastTheDeadlineIsHandedBackAndTheCallbackHearsIt() {
        ListSource source = new ListSource();
        source.jobs.push("slow");
        source.jobs.push("boom");
        source.jobs.push("quick");
        List<String> heard = new ArrayList<>();
        ShutdownReceipt r = DrainLoop.builder(drain, source, (String job, Drain d) -> {
            if (job.equals("boom")) {
                throw new IllegalStateException("handler bug");
            }
            if (job.equals("slow")) {
                drain.requestStop("SIGTERM");
                for (int step = 0; step < 10; step++) {
                    d.checkpoint();
                    now.addAndGet(Duration.ofMillis(300).toNanos());
                }
            }
        }).onHandBack(heard::add).build().run();
        assertEquals(List.of("quick"), source.acked);
        assertEquals(List.of("boom"), source.failed);
        assertEquals(List.of("slow"), source.handedBack);
        assertEquals(List.of("slow"), heard);
        assertEquals("guard drain receipt: worker=t reason=SIGTERM received=3 processed=1 rejected=0 failed=1 handed_back=1"
                + " hand_back_failed=0 drain_ms=1200 exit=0", r.toLine());
    }

    @Test
    void aJobThatRunsPastTheDeadlineWithoutACheckpointIsNamedWithHowFarAndWhatSigkillWouldHaveDone() {
        ListSource source = new ListSource();
        source.jobs.push("long");
        source.jobs.push("longer");
        StringWriter logs = new StringWriter();
        try (AutoCloseable capture = capture(logs)) {
            ShutdownReceipt r = DrainLoop.builder(drain, source, (String job, Drain d) -> {
                drain.requestStop("SIGTERM");
                // budget 1 s, margin 1 s: "longer" ends 1.5 s past the deadline, past the grace period
                now.addAndGet(Duration.ofMillis(job.equals("longer") ? 2500 : 1500).toNanos());
            }).build().run();
            assertEquals(List.of("longer"), source.acked, "it still finished: done, and said so");
            assertEquals(1, r.overran());
            assertTrue(r.toLine().contains(" processed=1 rejected=0 failed=0 handed_back=0 overran=1 "), r.toLine());
        } catch (Exception e) {
            throw new AssertionError(e);
        }
        String log = logs.toString();
        assertTrue(log.contains("job longer finished 1500 ms past the drain deadline, without a checkpoint that would have"
                + " handed it back; that is past the grace period (2000 ms): under Kubernetes the worker would have been"
                + " SIGKILLed mid-job. Call drain.checkpoint() between its steps"), log);
        assertTrue(log.contains("GUARD_GRACE_PERIOD and terminationGracePeriodSeconds together"), log);
    }

    @Test
    void aJobThatEndsPastTheDeadlineButWithinTheMarginIsNamedToo() {
        ListSource source = new ListSource();
        source.jobs.push("long");
        StringWriter logs = new StringWriter();
        try (AutoCloseable capture = capture(logs)) {
            DrainLoop.builder(drain, source, (String job, Drain d) -> {
                drain.requestStop("SIGTERM");
                now.addAndGet(Duration.ofMillis(1300).toNanos());
            }).build().run();
        } catch (Exception e) {
            throw new AssertionError(e);
        }
        assertTrue(logs.toString().contains("job long finished 300 ms past the drain deadline, without a checkpoint that would"
                + " have handed it back; the grace period (2000 ms) ended 700 ms later"), logs.toString());
    }

    @Test
    void theDeadlineWatchNamesAJobStillRunningAtTheDeadline() throws Exception {
        Drain real = Drain.create(DrainConfig.builder().gracePeriod(Duration.ofMillis(700))
                .safetyMargin(Duration.ofMillis(500)).workerId("w").build());
        ListSource source = new ListSource();
        source.jobs.push("stuck");
        StringWriter logs = new StringWriter();
        try (AutoCloseable capture = capture(logs)) {
            ShutdownReceipt r = DrainLoop.builder(real, source, (String job, Drain d) -> {
                real.requestStop("SIGTERM");
                Thread.sleep(600);   // the deadline is 200 ms after the stop
            }).build().run();
            assertEquals(1, r.overran());
        }
        assertTrue(logs.toString().contains("job stuck is still running at the drain deadline (200 ms after SIGTERM"), logs.toString());
        assertTrue(logs.toString().contains("The grace period ends in 500 ms; under Kubernetes the worker is SIGKILLed then"),
                logs.toString());
    }

    /** Captures what dev.guard logs at INFO and above while the returned handle is open. */
    static AutoCloseable capture(StringWriter into) {
        LoggerContext ctx = (LoggerContext) LogManager.getContext(false);
        Configuration config = ctx.getConfiguration();
        WriterAppender appender = WriterAppender.newBuilder().setName("capture-" + System.nanoTime()).setTarget(into)
                .setLayout(PatternLayout.newBuilder().withPattern("%level %msg%n").build()).build();
        appender.start();
        config.addAppender(appender);
        LoggerConfig previous = config.getLoggers().get("dev.guard");
        LoggerConfig capture = new LoggerConfig("dev.guard", Level.INFO, false);
        capture.addAppender(appender, Level.INFO, null);
        config.addLogger("dev.guard", capture);
        ctx.updateLoggers();
        return () -> {
            config.removeLogger("dev.guard");
            if (previous != null) {
                config.addLogger("dev.guard", previous);
            }
            ctx.updateLoggers();
            appender.stop();
        };
    }

    @Test
    void aFailedHandBackMakesTheReceiptUncleanWithTheId() {
        ListSource source = new ListSource();
        source.handBackBreaks = true;
        source.jobs.push("job-7");
        List<String> failedIds = new ArrayList<>();
        ShutdownReceipt r = DrainLoop.builder(drain, source, (String job, Drain d) -> {
            drain.requestStop("SIGTERM");
            now.addAndGet(Duration.ofSeconds(2).toNanos());
            d.checkpoint();
        }).onHandBackFailed((id, e) -> failedIds.add(id + ": " + e.getMessage())).build().run();
        assertEquals(List.of("job-7: queue gone"), failedIds);
        assertEquals(70, r.exitCode());
        assertEquals(List.of("job-7"), r.handBackFailedIds());
    }

    /** A source whose fetch returns a job just as the stop arrives (the SIGTERM-during-BRPOP race). */
    private ListSource stopArrivesDuringFetch(String job) {
        return new ListSource() {
            @Override
            public Optional<String> fetch() {
                drain.requestStop("SIGTERM");
                return Optional.of(job);
            }
        };
    }

    @Test
    void aJobFetchedAsTheStopArrivesIsHandedBackNotRun() {
        ListSource source = stopArrivesDuringFetch("raced");
        List<String> ran = new ArrayList<>();
        ShutdownReceipt r = DrainLoop.builder(drain, source, (String job, Drain d) -> ran.add(job)).build().run();
        assertEquals(List.of(), ran);
        assertEquals(List.of("raced"), source.handedBack);
        assertEquals(1, r.handedBack());
    }

    @Test
    void withoutHandBackAJobFetchedAsTheStopArrivesStillRuns() {
        ListSource source = stopArrivesDuringFetch("late");
        ShutdownReceipt r = DrainLoop.builder(drain, source, (String job, Drain d) -> { }).handBack(false).build().run();
        assertEquals(List.of("late"), source.acked);
        assertEquals(List.of(), source.handedBack);
        assertEquals(1, r.done());
    }

    @Test
    void aRetryableExceptionHandsTheJobBackAndTheLoopGoesOn() {
        ListSource source = new ListSource();
        source.jobs.add("dead-letter-store-down");
        source.jobs.add("fine");
        ShutdownReceipt r = DrainLoop.builder(drain, source, (String job, Drain d) -> {
            if (job.equals("dead-letter-store-down")) {
                throw new java.io.UncheckedIOException(new java.io.IOException("store unreachable"));
            }
            d.requestStop("after the second job");
        }).handBackIf(e -> e instanceof java.io.UncheckedIOException).build().run();
        assertEquals(List.of("dead-letter-store-down"), source.handedBack);
        assertEquals(List.of("fine"), source.acked);
        assertEquals(List.of(), source.failed);
        assertEquals(0, r.exitCode(), r.toLine());
    }

    @Test
    void aRetryableExceptionWhoseHandBackFailsStopsTheLoopWithExit70() {
        ListSource source = new ListSource();
        source.handBackBreaks = true;
        source.jobs.add("stranded");
        source.jobs.add("never-taken");
        ShutdownReceipt r = DrainLoop.builder(drain, source, (String job, Drain d) -> {
            throw new java.io.UncheckedIOException(new java.io.IOException("store unreachable"));
        }).handBackIf(e -> true).build().run();
        assertEquals(List.of("stranded"), r.handBackFailedIds());
        assertEquals(70, r.exitCode());
        assertEquals("hand-back of job stranded failed", r.reason());
        assertEquals(List.of("never-taken"), List.copyOf(source.jobs), "the loop stopped taking jobs");
    }

    @Test
    void aFailedJobThatCannotBeParkedIsNamedAsPossiblyLost() {
        ListSource source = new ListSource() {
            @Override
            public void fail(String job, Exception cause) {
                throw new IllegalStateException("dead list unreachable");
            }
        };
        source.jobs.add("boom");
        ShutdownReceipt r = DrainLoop.builder(drain, source, (String job, Drain d) -> {
            d.requestStop("after the job");
            throw new IllegalArgumentException("handler bug");
        }).build().run();
        // counted once, as possibly lost, not also as failed (the fault matrix's broker restart found
        // receipts with unaccounted=-1)
        assertEquals(0, r.failed());
        assertEquals(List.of("boom"), r.handBackFailedIds());
        assertEquals(70, r.exitCode(), r.toLine());
        assertFalse(r.toLine().contains("unaccounted"), r.toLine());
    }

    /**
     * The fault matrix's broker restart (2026-12-06): jobs finished while the broker was down had their
     * ack fail, and the loop called them failed, tried to dead-letter them (which failed too) and named
     * them lost (exit 70). A done job is done: the broker still holds it and gives it out again.
     */
    @Test
    void aDoneJobWhoseAckFailsIsDoneNotFailedNorLostAndTheReceiptSaysItMayRunAgain() {
        ListSource source = new ListSource() {
            @Override
            public void ack(String job) {
                if (job.equals("acked-into-the-void")) {
                    throw new IllegalStateException("connection reset");
                }
                super.ack(job);
            }
        };
        source.jobs.add("acked-into-the-void");
        source.jobs.add("next");
        List<String> ran = new ArrayList<>();
        ShutdownReceipt r = DrainLoop.builder(drain, source, (String job, Drain d) -> {
            ran.add(job);
            if (job.equals("next")) {
                d.requestStop("after the job");
            }
        }).build().run();
        assertEquals(List.of("acked-into-the-void", "next"), ran, "the loop went on after the failed ack");
        assertEquals(List.of("next"), source.acked);
        assertEquals(List.of(), source.failed, "a done job was parked as failed");
        assertEquals(2, r.done());
        assertEquals(1, r.ackFailed());
        assertEquals(0, r.failed());
        assertEquals(0, r.exitCode(), r.toLine());
        assertTrue(r.toLine().contains(" processed=2 rejected=0 ack_failed=1 "), r.toLine());
    }

    @Test
    void aLostSourceEndsTheLoopWithExit69() {
        ListSource source = new ListSource() {
            @Override
            public Optional<String> fetch() {
                throw new SourceLostException("channel closed by the broker");
            }
        };
        ShutdownReceipt r = DrainLoop.builder(drain, source, (String job, Drain d) -> { }).build().run();
        assertEquals(69, r.exitCode(), r.toLine());
        assertEquals(java.util.Optional.of("channel closed by the broker"), r.sourceLost());
        assertTrue(r.toLine().contains("source_lost=true"), r.toLine());
    }

    /** A store whose claim does not answer for the first job and then records everything (pure logic). */
    @Test
    void aCompletionStoreThatDoesNotAnswerHandsTheJobBackAndAReceiptCountsDuplicatesAndSuperseded() {
        ListSource source = new ListSource();
        source.jobs.addAll(List.of("unanswered", "dup", "fenced", "stop"));
        List<String> ran = new ArrayList<>();
        CompletionStore<List<String>> store = new CompletionStore<>() {
            @Override
            public Claim claim(String jobId) {
                if (jobId.equals("unanswered")) {
                    throw new Unavailable("no reply", null);
                }
                return new Claim(jobId, 1, jobId.equals("dup"));
            }

            @Override
            public List<String> writes(Claim claim) {
                return new ArrayList<>();
            }

            @Override
            public Verdict complete(Claim claim, List<String> writes) {
                return claim.jobId().equals("fenced") ? Verdict.SUPERSEDED : Verdict.RECORDED;
            }

            @Override
            public String describe() {
                return "memory";
            }

            @Override
            public void close() {
            }
        };
        ShutdownReceipt r = DrainLoop.builder(drain, source, Once.handler(store, (String j) -> j, (String job, Drain d,
                List<String> w) -> {
            ran.add(job);
            if (job.equals("stop")) {
                d.requestStop("SIGTERM");
            }
        })).build().run();
        assertEquals(List.of("fenced", "stop"), ran, "a duplicate must not run; an unanswered claim must not run");
        // the unanswered job and the superseded one go back (the default release is a hand-back)
        assertEquals(List.of("unanswered", "fenced"), source.handedBack);
        assertEquals(List.of("dup", "stop"), source.acked);
        assertEquals(List.of(), source.failed);
        assertEquals("guard drain receipt: worker=t reason=SIGTERM received=4 processed=1 rejected=0 failed=0 handed_back=1 duplicate=1"
                + " superseded=1 hand_back_failed=0 drain_ms=0 exit=0", r.toLine());
    }
}
