package dev.guard.schema.deadletter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.guard.schema.Accepted;
import dev.guard.schema.SamplePayloads;
import dev.guard.schema.boundary.JobBoundary;
import dev.guard.schema.Outcome;
import dev.guard.schema.SourceInfo;
import dev.guard.schema.deadletter.redis.RedisListDeadLetters;
import dev.guard.testing.FreePorts;
import dev.guard.testing.NoLeakedProcesses;
import dev.guard.testing.RedisServer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The dead-letter destination is gone: a private Redis (real redis-server) that is stopped under a
 * running boundary, and a Redis URL pointing at a closed port. The failure is loud: handle() throws,
 * the ledger shows the job without an outcome, and secrets in the URL are masked.
 */
@ExtendWith(NoLeakedProcesses.class)
class DeadLetterSinkFailureTest {

    /** The sink's write timeout: room for a cold lettuce connect on a busy machine. */
    private static final Duration SINK_TIMEOUT = Duration.ofSeconds(10);

    @Test
    void stoppedRedisMakesHandleThrowAndLeavesTheJobMissing() {
        try (RedisServer redis = RedisServer.builder().build().start()) {
            RedisListDeadLetters sink = RedisListDeadLetters.connect(redis.uri(), "dead", SINK_TIMEOUT);
            try {
                JobBoundary<Accepted> boundary = JobBoundary.builder().schemas(SamplePayloads.schemas()).jobType("send-email")
                        .deadLetters(sink).consumer("mailer").build();
                SourceInfo src = SourceInfo.redis("jobs", null);
                assertEquals(Outcome.REJECTED, boundary.handle(bytes(SamplePayloads.renamed("before-stop")), src, job -> { }));
                assertEquals(Outcome.PROCESSED, boundary.handle(SamplePayloads.validBytes("ok-1"), src, job -> { }));

                redis.stop();

                DeadLetterException rejected = assertThrows(DeadLetterException.class,
                        () -> boundary.handle(bytes(SamplePayloads.renamed("after-stop")), src, job -> { }));
                assertTrue(rejected.getMessage().startsWith("dead letter for job after-stop not written to redis list 'dead' at redis://127.0.0.1:"
                        + redis.port() + ": "), rejected.getMessage());
                assertTrue(rejected.getMessage().endsWith("; the job is not acknowledged"), rejected.getMessage());

                DeadLetterException failed = assertThrows(DeadLetterException.class,
                        () -> boundary.handle(SamplePayloads.validBytes("failing-after-stop"), src, job -> {
                            throw new IllegalStateException("downstream is down too");
                        }));
                assertEquals("downstream is down too", failed.getSuppressed()[0].getMessage());

                assertEquals(List.of("after-stop", "failing-after-stop"), boundary.ledger().reconcile().missingIds());
                assertEquals("received=4 processed=1 rejected=1 failed=0 handed_back=0 missing=2 missing_ids=after-stop,failing-after-stop",
                        boundary.ledger().summaryLine());
                assertFalse(boundary.ledger().reconcile().balanced());
            } finally {
                sink.close();
            }
        }
    }

    @Test
    void closedPortFailsAtConnectWithThePasswordMasked() {
        int closed = FreePorts.next();
        DeadLetterException e = assertThrows(DeadLetterException.class,
                () -> RedisListDeadLetters.connect("redis://:s3cret-pw@127.0.0.1:" + closed, "dead", Duration.ofSeconds(2)));
        assertTrue(e.getMessage().startsWith("dead-letter sink: cannot connect to Redis at redis://:****@127.0.0.1:" + closed
                + " for list 'dead': "), e.getMessage());
        assertTrue(e.getMessage().endsWith("; check the URI and that Redis is up"), e.getMessage());
        assertFalse(e.getMessage().contains("s3cret"), e.getMessage());
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
