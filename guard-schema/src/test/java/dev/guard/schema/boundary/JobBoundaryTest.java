package dev.guard.schema.boundary;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.guard.schema.Accepted;
import dev.guard.schema.Outcome;
import dev.guard.schema.SamplePayloads;
import dev.guard.schema.Schemas;
import dev.guard.schema.SourceInfo;
import dev.guard.schema.deadletter.DeadLetter;
import dev.guard.schema.deadletter.DeadLetterException;
import dev.guard.schema.deadletter.InMemoryDeadLetters;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class JobBoundaryTest {

    static final Schemas SCHEMAS = SamplePayloads.schemas();
    static final Instant T = Instant.parse("2026-11-30T09:00:00Z");

    final InMemoryDeadLetters sink = new InMemoryDeadLetters();
    final JobBoundary<Accepted> boundary = JobBoundary.builder().schemas(SCHEMAS).jobType("send-email")
            .deadLetters(sink).consumer("mailer-1").clock(Clock.fixed(T, ZoneOffset.UTC)).build();
    final SourceInfo src = SourceInfo.kafka("emails", 3, 1234L);

    @Test
    void validJobIsProcessedAndNothingIsDeadLettered() {
        List<String> seen = new ArrayList<>();
        assertEquals(Outcome.PROCESSED, boundary.handle(SamplePayloads.validBytes("j-1"), src,
                job -> seen.add(job.string("job_id"))));
        assertEquals(List.of("j-1"), seen);
        assertEquals(List.of(), sink.letters());
        assertEquals("received=1 processed=1 rejected=0 failed=0 handed_back=0 missing=0", boundary.ledger().summaryLine());
    }

    @Test
    void renamedFieldIsRejectedDeadLetteredWithReasonAndTheHandlerNeverRuns() {
        byte[] payload = SamplePayloads.renamed("j-7").getBytes(StandardCharsets.UTF_8);
        assertEquals(Outcome.REJECTED, boundary.handle(payload, src, job -> {
            throw new AssertionError("handler must not run for an invalid job");
        }));
        DeadLetter d = sink.letters().get(0);
        assertArrayEquals(payload, d.originalPayload());
        assertEquals(Outcome.REJECTED, d.outcome());
        assertEquals("j-7", d.jobId(), "the id is found under its renamed field too");
        assertEquals("https://guard.dev/schemas/send-email.v1.json", d.schemaId());
        assertEquals("#", d.violations().get(0).pointer());
        assertEquals("required", d.violations().get(0).keyword());
        assertEquals(List.of("job_id missing, id present: renamed by the producer?"), d.hints());
        assertEquals(T, d.time());
        assertEquals("mailer-1", d.consumer());
        assertEquals(src, d.source());
        assertNull(d.exception());
        assertTrue(d.metadataJson().startsWith("{\"outcome\":\"rejected\",\"reason\":\"invalid against schema "
                + "https://guard.dev/schemas/send-email.v1.json: 1 violation: #: required key [job_id] not found (required); "
                + "hint: job_id missing, id present: renamed by the producer?\",\"violations\":[{\"pointer\":\"#\",\"keyword\":\"required\","
                + "\"message\":\"required key [job_id] not found\"}],\"hints\":[\"job_id missing, id present: renamed by the producer?\"],"
                + "\"schema_id\":\"https://guard.dev/schemas/send-email.v1.json\",\"job_id\":\"j-7\",\"time\":\"2026-11-30T09:00:00Z\","
                + "\"consumer\":\"mailer-1\",\"source\":{\"broker\":\"kafka\",\"queue\":\"emails\",\"partition\":3,\"offset\":1234},"
                + "\"payload_bytes\":"), d.metadataJson());
    }

    @Test
    void malformedPayloadWithoutAnIdIsRejectedUnderTheSourcePosition() {
        byte[] payload = "{\"job_id\": ".getBytes(StandardCharsets.UTF_8);
        assertEquals(Outcome.REJECTED, boundary.handle(payload, src, job -> { }));
        DeadLetter d = sink.letters().get(0);
        assertEquals("kafka:emails[3]@1234", d.jobId());
        assertTrue(d.reason().startsWith("malformed (not_json) for schema https://guard.dev/schemas/send-email.v1.json: not JSON: Unexpected end-of-input"), d.reason());
        assertEquals(List.of(), d.violations());
        assertEquals("received=1 processed=0 rejected=1 failed=0 handed_back=0 missing=0", boundary.ledger().summaryLine());
        // no source position either: a synthetic id, still exactly one outcome
        assertEquals(Outcome.REJECTED, boundary.handle(new byte[] {(byte) 0xff}, null, job -> { }));
        assertEquals("unidentified-mailer-1-1", sink.letters().get(1).jobId());
    }

    @Test
    void handlerExceptionIsFailedDeadLetteredWithTheExceptionAndSecretsMasked() {
        Outcome o = boundary.handle(SamplePayloads.validBytes("j-2"), src, job -> {
            throw new IllegalStateException("smtp refused: smtp://mailer:hunter2@smtp.example.com:587 said 421",
                    new java.io.IOException("password=hunter2 rejected"));
        });
        assertEquals(Outcome.FAILED, o);
        DeadLetter d = sink.letters().get(0);
        assertEquals(Outcome.FAILED, d.outcome());
        assertEquals("handler threw java.lang.IllegalStateException: smtp refused: smtp://mailer:****@smtp.example.com:587 said 421; "
                + "caused by java.io.IOException: password=**** rejected", d.reason());
        assertTrue(d.exception().startsWith(d.reason().substring("handler threw ".length()) + " at dev.guard.schema.boundary.JobBoundaryTest"), d.exception());
        assertTrue(!d.metadataJson().contains("hunter2") && !d.metadataHeaders().toString().contains("hunter2"));
        assertEquals("received=1 processed=0 rejected=0 failed=1 handed_back=0 missing=0", boundary.ledger().summaryLine());
    }

    @Test
    void deadLetterFailureIsLoudAndLeavesTheJobMissing() {
        sink.failing(true);
        DeadLetterException e = assertThrows(DeadLetterException.class,
                () -> boundary.handle(SamplePayloads.renamed("j-3").getBytes(StandardCharsets.UTF_8), src, job -> { }));
        assertEquals("in-memory sink told to fail (job j-3)", e.getMessage());
        RuntimeException handlerError = new RuntimeException("boom");
        DeadLetterException e2 = assertThrows(DeadLetterException.class,
                () -> boundary.handle(SamplePayloads.validBytes("j-4"), src, job -> {
                    throw handlerError;
                }));
        assertSame(handlerError, e2.getSuppressed()[0], "the handler's exception travels with the dead-letter failure");
        Reconciliation r = boundary.ledger().reconcile();
        assertEquals(List.of("j-3", "j-4"), r.missingIds());
        assertEquals("received=2 processed=0 rejected=0 failed=0 handed_back=0 missing=2 missing_ids=j-3,j-4", r.summaryLine());
    }

    @Test
    void anErrorFromTheHandlerPropagatesAndTheJobStaysMissing() {
        assertThrows(StackOverflowError.class, () -> boundary.handle(SamplePayloads.validBytes("j-5"), src, job -> {
            throw new StackOverflowError("simulated");
        }));
        assertEquals(List.of("j-5"), boundary.ledger().reconcile().missingIds());
    }

    @Test
    void jobTypeAndIdFunctionsReadThePayloadAndAThrowingOneCountsAsNone() {
        InMemoryDeadLetters s = new InMemoryDeadLetters();
        JobBoundary<Accepted> b = JobBoundary.builder().schemas(SCHEMAS).jobTypeOf(p -> p.string("kind"))
                .jobIdOf(p -> "ref-" + p.integer("ref")).deadLetters(s).consumer("c").build();
        assertEquals(Outcome.REJECTED, b.handle("{\"kind\":\"fax\",\"ref\":12}".getBytes(StandardCharsets.UTF_8), null, a -> { }));
        assertEquals("ref-12", s.letters().get(0).jobId());
        assertEquals("malformed (unknown_job_type): no schema registered for job type 'fax' (registered: send-email, resize-image)",
                s.letters().get(0).reason());
        assertEquals(Outcome.REJECTED, b.handle("{\"ref\":\"twelve\"}".getBytes(StandardCharsets.UTF_8), null, a -> { }));
        assertEquals("unidentified-c-1", s.letters().get(1).jobId(), "integer(ref) threw: no id from the payload");
        assertTrue(s.letters().get(1).reason().contains("the job type could not be read from the payload"), s.letters().get(1).reason());
    }

    @Test
    void jobTypeFromThePayloadMappingAndHandBack() {
        InMemoryDeadLetters s = new InMemoryDeadLetters();
        JobBoundary<String> b = JobBoundary.builder().schemas(SCHEMAS).jobTypeField("type").deadLetters(s).consumer("c")
                .map(a -> a.string("template")).build();
        List<String> templates = new ArrayList<>();
        assertEquals(Outcome.PROCESSED, b.handle(SamplePayloads.validBytes("a"), null, templates::add));
        assertEquals(List.of("order-confirmation"), templates);
        assertEquals(Outcome.REJECTED, b.handle("{\"type\":\"fax\",\"job_id\":\"f-1\"}".getBytes(StandardCharsets.UTF_8), null, templates::add));
        assertEquals("malformed (unknown_job_type): no schema registered for job type 'fax' (registered: send-email, resize-image)",
                s.letters().get(0).reason());
        b.handedBack("h-1");
        b.ledger().received("h-2");
        b.handedBack("h-2");
        assertEquals("received=4 processed=1 rejected=1 failed=0 handed_back=2 missing=0", b.ledger().summaryLine());
    }

    @Test
    void builderSaysWhatIsMissing() {
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> JobBoundary.builder().build());
        assertEquals("JobBoundary: not configured: schemas(Schemas) deadLetters(DeadLetterSink) consumer(name) jobType(type) or jobTypeOf(payload -> type); "
                + "a boundary needs its schemas, a dead-letter sink, a consumer name and the job type", e.getMessage());
        IllegalStateException unknown = assertThrows(IllegalStateException.class, () -> JobBoundary.builder()
                .schemas(SCHEMAS).deadLetters(sink).consumer("c").jobType("nope").build());
        assertEquals("JobBoundary: job type 'nope' has no schema (registered: send-email, resize-image); register it in Schemas.builder()",
                unknown.getMessage());
    }
}
