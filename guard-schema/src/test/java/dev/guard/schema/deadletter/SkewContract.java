package dev.guard.schema.deadletter;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.guard.schema.Accepted;
import dev.guard.schema.SamplePayloads;
import dev.guard.schema.Schemas;
import dev.guard.schema.boundary.JobBoundary;
import dev.guard.schema.Outcome;
import dev.guard.schema.SourceInfo;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Schema skew through a real broker: the producer renamed a field, changed a type, wrapped the job
 * in another object, or wrote broken JSON, and a handler threw. Each ends dead-lettered on the real
 * server; the test reads every letter back from the server and checks the body is the original bytes
 * and the metadata carries the reason. Subclasses give the sink and read the letters back.
 */
abstract class SkewContract {

    static final Schemas SCHEMAS = SamplePayloads.schemas();

    /** One letter as read back from the server: the body and the metadata by short name (reason, job_id, ...). */
    record ReadBack(byte[] body, Map<String, String> meta) {}

    /** A unique name for this test's queue/key/subject. */
    final String unique = "guard-schema-test-" + UUID.randomUUID().toString().substring(0, 8);

    abstract DeadLetterSink sink() throws Exception;

    abstract String broker();

    /** Reads {@code n} letters back from the server, in the order written. */
    abstract List<ReadBack> readBack(int n) throws Exception;

    /** Header name to short metadata name: x-guard-job-id -> job_id. */
    static String shortName(String header) {
        return header.replaceFirst("^x-guard-", "").replace('-', '_');
    }

    @Test
    void schemaSkewEndsDeadLetteredOnTheRealBrokerWithItsReason() throws Exception {
        JobBoundary<Accepted> boundary = JobBoundary.builder().schemas(SCHEMAS).jobType("send-email")
                .deadLetters(sink()).consumer("skew-test").build();
        String renamedId = unique + "-renamed";
        byte[] renamed = SamplePayloads.renamed(renamedId).getBytes(StandardCharsets.UTF_8);
        byte[] typeChanged = SamplePayloads.typeChanged(4242).getBytes(StandardCharsets.UTF_8);
        byte[] nested = SamplePayloads.nested(unique + "-nested").getBytes(StandardCharsets.UTF_8);
        byte[] malformed = SamplePayloads.malformed(unique + "-malformed").getBytes(StandardCharsets.UTF_8);
        byte[] failing = SamplePayloads.validBytes(unique + "-failing");

        assertEquals(Outcome.REJECTED, boundary.handle(renamed, src("m-1"), job -> { }));
        assertEquals(Outcome.REJECTED, boundary.handle(typeChanged, src("m-2"), job -> { }));
        assertEquals(Outcome.REJECTED, boundary.handle(nested, src("m-3"), job -> { }));
        assertEquals(Outcome.REJECTED, boundary.handle(malformed, src("m-4"), job -> { }));
        assertEquals(Outcome.FAILED, boundary.handle(failing, src("m-5"), job -> {
            throw new IllegalArgumentException("template order-confirmation not found");
        }));
        assertEquals("received=5 processed=0 rejected=4 failed=1 handed_back=0 missing=0", boundary.ledger().summaryLine());

        List<ReadBack> letters = readBack(5);
        assertEquals(5, letters.size(), "letters read back from " + broker());

        ReadBack r = letters.get(0);
        assertArrayEquals(renamed, r.body(), "renamed: body is the original payload");
        assertEquals("rejected", r.meta().get("outcome"));
        assertEquals(renamedId, r.meta().get("job_id"));
        assertEquals("https://guard.dev/schemas/send-email.v1.json", r.meta().get("schema_id"));
        assertTrue(r.meta().get("reason").contains("#: required key [job_id] not found (required)"), r.meta().toString());
        assertEquals("[\"job_id missing, id present: renamed by the producer?\"]", r.meta().get("hints"));
        assertEquals("[{\"pointer\":\"#\",\"keyword\":\"required\",\"message\":\"required key [job_id] not found\"}]", r.meta().get("violations"));
        assertEquals("skew-test", r.meta().get("consumer"));
        assertEquals(broker() + ":" + unique + "-in#m-1", r.meta().get("source"));

        ReadBack t = letters.get(1);
        assertArrayEquals(typeChanged, t.body(), "type change: body is the original payload");
        assertEquals("4242", t.meta().get("job_id"));
        assertTrue(t.meta().get("reason").contains("#/job_id: expected type: String, found: Integer (type)"), t.meta().toString());
        assertTrue(t.meta().get("hints").contains("job_id: expected string, found integer: type changed by the producer?"), t.meta().toString());

        ReadBack n = letters.get(2);
        assertArrayEquals(nested, n.body(), "extra nesting: body is the original payload");
        assertEquals(broker() + ":" + unique + "-in#m-3", n.meta().get("job_id"), "no top-level id: the source position is the id");
        assertTrue(n.meta().get("hints").contains("job_id missing, found at #/job/job_id: extra nesting by the producer?"), n.meta().toString());

        ReadBack m = letters.get(3);
        assertArrayEquals(malformed, m.body(), "malformed: body is the original payload");
        assertTrue(m.meta().get("reason").startsWith("malformed (not_json) for schema https://guard.dev/schemas/send-email.v1.json: not JSON: "), m.meta().toString());
        assertTrue(m.meta().get("reason").contains("at line 1, column 62 (offset 61)"), m.meta().toString());

        ReadBack f = letters.get(4);
        assertArrayEquals(failing, f.body(), "failed: body is the original payload");
        assertEquals("failed", f.meta().get("outcome"));
        assertEquals(unique + "-failing", f.meta().get("job_id"));
        assertEquals("handler threw java.lang.IllegalArgumentException: template order-confirmation not found", f.meta().get("reason"));
        assertTrue(f.meta().get("exception").startsWith("java.lang.IllegalArgumentException: template order-confirmation not found at "), f.meta().toString());
        assertNull(r.meta().get("exception"));
    }

    SourceInfo src(String messageId) {
        return new SourceInfo(broker(), unique + "-in", null, null, messageId);
    }
}
