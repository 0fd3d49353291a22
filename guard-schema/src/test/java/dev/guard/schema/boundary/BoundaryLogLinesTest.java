package dev.guard.schema.boundary;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.guard.schema.Accepted;
import dev.guard.schema.SamplePayloads;
import dev.guard.schema.SourceInfo;
import dev.guard.schema.deadletter.DeadLetterException;
import dev.guard.schema.deadletter.InMemoryDeadLetters;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.LogEvent;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.appender.AbstractAppender;
import org.apache.logging.log4j.core.config.Configurator;
import org.apache.logging.log4j.core.config.Property;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The boundary's log lines are API: one line per job that is not processed, with its id and reason; none for processed ones. */
class BoundaryLogLinesTest {

    final List<String> lines = new CopyOnWriteArrayList<>();
    AbstractAppender capture;

    @BeforeEach
    void captureLogs() {
        capture = new AbstractAppender("capture-" + System.nanoTime(), null, null, true, Property.EMPTY_ARRAY) {
            @Override
            public void append(LogEvent event) {
                if (event.getLoggerName().equals(JobBoundary.class.getName())) {
                    lines.add(event.getLevel() + " " + event.getMessage().getFormattedMessage());
                }
            }
        };
        capture.start();
        LoggerContext ctx = (LoggerContext) LogManager.getContext(false);
        ctx.getConfiguration().getRootLogger().addAppender(capture, Level.ALL, null);
        ctx.updateLoggers();
        Configurator.setLevel(JobBoundary.class.getName(), Level.INFO);
    }

    @AfterEach
    void stopCapture() {
        LoggerContext ctx = (LoggerContext) LogManager.getContext(false);
        ctx.getConfiguration().getRootLogger().removeAppender(capture.getName());
        ctx.updateLoggers();
        capture.stop();
        Configurator.setLevel(JobBoundary.class.getName(), Level.WARN);
    }

    @Test
    void oneLinePerNonProcessedJobWithIdAndReason() {
        InMemoryDeadLetters sink = new InMemoryDeadLetters();
        JobBoundary<Accepted> b = JobBoundary.builder().schemas(SamplePayloads.schemas()).jobType("send-email").deadLetters(sink)
                .consumer("mailer-1").build();
        SourceInfo src = SourceInfo.amqp("emails", "m-9");
        b.handle(SamplePayloads.validBytes("ok"), src, job -> { });
        b.handle(SamplePayloads.renamed("r-1").getBytes(StandardCharsets.UTF_8), src, job -> { });
        b.handle(SamplePayloads.validBytes("f-1"), src, job -> {
            throw new IllegalStateException("token=abc123 expired");
        });
        b.handedBack("h-1");
        sink.failing(true);
        assertThrows(DeadLetterException.class, () -> b.handle(SamplePayloads.renamed("d-1").getBytes(StandardCharsets.UTF_8), src, job -> { }));

        assertEquals(4, lines.size(), lines.toString());
        assertEquals("WARN job r-1 rejected by consumer mailer-1 from amqp:emails#m-9: invalid against schema "
                + "https://guard.dev/schemas/send-email.v1.json: 1 violation: #: required key [job_id] not found (required); "
                + "hint: job_id missing, id present: renamed by the producer? -> dead-lettered", lines.get(0));
        assertEquals("WARN job f-1 failed by consumer mailer-1 from amqp:emails#m-9: handler threw java.lang.IllegalStateException: "
                + "token=**** expired -> dead-lettered", lines.get(1));
        assertEquals("INFO job h-1 handed_back by consumer mailer-1: given back to the broker unprocessed (drain)", lines.get(2));
        assertTrue(lines.get(3).startsWith("ERROR job d-1 from amqp:emails#m-9 was to be rejected (invalid against schema "), lines.get(3));
        assertTrue(lines.get(3).endsWith("but its dead letter could not be written: in-memory sink told to fail (job d-1); "
                + "not acknowledged, the error propagates"), lines.get(3));
    }
}
