package dev.guard.drain;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** Pure logic on an injected clock: deadline, checkpoint, receipt. */
class DrainTest {

    private final AtomicLong now = new AtomicLong(1_000_000_000L);
    private final Drain drain = Drain.create(DrainConfig.builder().gracePeriod(Duration.ofSeconds(10))
            .safetyMargin(Duration.ofSeconds(2)).workerId("w1").build(), now::get);

    @Test
    void beforeAStopThereIsNoDeadlineAndCheckpointsPass() {
        assertFalse(drain.stopping());
        assertTrue(drain.deadline().isEmpty());
        assertEquals(Duration.ofSeconds(8), drain.timeLeft());
        drain.checkpoint();
        assertTrue(drain.canContinue());
    }

    @Test
    void deadlineIsGraceMinusMarginAfterTheFirstStopRequest() {
        drain.requestStop("SIGTERM");
        now.addAndGet(Duration.ofSeconds(3).toNanos());
        drain.requestStop("SIGINT"); // a second signal does not move the deadline
        assertEquals(Duration.ofSeconds(5), drain.timeLeft());
        drain.checkpoint();
        now.addAndGet(Duration.ofSeconds(5).toNanos());
        assertFalse(drain.canContinue());
        HandBack signal = assertThrows(HandBack.class, drain::checkpoint);
        assertEquals("drain deadline passed 0 ms ago after SIGTERM; handing the job back", signal.getMessage());
        assertEquals(Duration.ZERO, drain.timeLeft());
    }

    @Test
    void receiptCountsAndExitCode() {
        drain.jobFetched();
        drain.jobDone();
        drain.jobFetched();
        drain.jobHandedBack();
        drain.requestStop("SIGTERM");
        now.addAndGet(Duration.ofMillis(420).toNanos());
        ShutdownReceipt clean = drain.receipt();
        assertEquals(0, clean.exitCode());
        assertEquals("guard drain receipt: worker=w1 reason=SIGTERM received=2 processed=1 rejected=0 failed=0 handed_back=1"
                + " hand_back_failed=0 drain_ms=420 exit=0", clean.toLine());
        assertEquals("{\"worker\":\"w1\",\"reason\":\"SIGTERM\",\"received\":2,\"processed\":1,\"rejected\":0,\"ackFailed\":0,"
                + "\"failed\":0,\"handedBack\":1,\"duplicates\":0,\"superseded\":0,\"overran\":0,"
                + "\"handBackFailed\":0,\"handBackFailedIds\":[],\"drainMillis\":420,\"clean\":true,\"exitCode\":0}",
                clean.toJson());

        drain.jobFetched();
        drain.jobHandBackFailed("job-42");
        ShutdownReceipt lost = drain.finish();
        assertFalse(lost.clean());
        assertEquals(70, lost.exitCode());
        assertEquals("guard drain receipt: worker=w1 reason=SIGTERM received=3 processed=1 rejected=0 failed=0 handed_back=1"
                + " hand_back_failed=1 lost_ids=job-42 drain_ms=420 exit=70", lost.toLine());
    }
}
