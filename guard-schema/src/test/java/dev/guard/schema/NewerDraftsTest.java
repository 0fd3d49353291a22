package dev.guard.schema;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import dev.guard.schema.boundary.JobBoundary;
import dev.guard.schema.deadletter.DeadLetter;
import dev.guard.schema.deadletter.InMemoryDeadLetters;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * JSON Schema 2019-09 and 2020-12 at the consumer boundary (networknt's validator behind guard's
 * registry): the keywords teams write today, guard's hints and dead letters as with drafts 4 to 7, the
 * meta-schemas resolved offline, empty pointer tokens as RFC 6901 defines them, no network unless allowed.
 */
class NewerDraftsTest {

    /** A job schema as an OpenAPI 3.1 / AsyncAPI 3 generator writes it. */
    static final String SEND_EMAIL_2020 = """
            {
              "$schema": "https://json-schema.org/draft/2020-12/schema",
              "$id": "https://guard.dev/schemas/send-email.v2.json",
              "type": "object",
              "required": ["job_id", "to"],
              "properties": {
                "job_id": {"$ref": "#/$defs/id"},
                "to": {"type": "string", "format": "email"},
                "cc": {"type": "array", "items": {"type": "string"}},
                "tags": {"type": "array", "prefixItems": [{"type": "string"}, {"type": "integer"}], "items": false},
                "attempt": {"type": "integer", "minimum": 0}
              },
              "dependentRequired": {"cc": ["to"], "reply_to": ["to"]},
              "allOf": [{"properties": {"reply_to": {"type": "string"}}}],
              "unevaluatedProperties": false,
              "$defs": {"id": {"type": "string", "minLength": 1}},
              "examples": [{"job_id": "j-0", "to": "a@example.com", "tags": ["x", 1], "reply_to": "b@example.com"}]
            }
            """;

    static final Schemas SCHEMAS = Schemas.builder().fromJson("send-email", SEND_EMAIL_2020).build();

    @Test
    void aValidJobIsAcceptedAndTheDraftIsKnown() {
        Verdict v = SCHEMAS.validate("send-email", "{\"job_id\":\"j-1\",\"to\":\"a@example.com\",\"tags\":[\"a\",2],\"cc\":[\"c@example.com\"]}");
        assertTrue(v.accepted(), v.describe());
        assertEquals(Draft.DRAFT_2020_12, SCHEMAS.draft("send-email"));
        assertEquals("https://guard.dev/schemas/send-email.v2.json", SCHEMAS.schemaId("send-email"));
    }

    @Test
    void aRenamedFieldGivesTheRenameHintAndEveryViolationWithItsPointer() {
        Invalid v = assertInstanceOf(Invalid.class, SCHEMAS.validate("send-email", "{\"id\":\"j-1\",\"to\":\"a@example.com\"}"));
        assertEquals(List.of("job_id missing, id present: renamed by the producer?"), v.hints());
        assertTrue(v.violations().contains(new SchemaViolation("#", "required", "required property 'job_id' not found")), v.describe());
        assertTrue(v.violations().stream().anyMatch(x -> x.keyword().equals("unevaluatedProperties") && x.message().contains("'id'")),
                v.describe());
    }

    @Test
    void prefixItemsDependentRequiredAndTypesAreChecked() {
        Invalid tuple = assertInstanceOf(Invalid.class, SCHEMAS.validate("send-email",
                "{\"job_id\":\"j-1\",\"to\":\"a@example.com\",\"tags\":[\"a\",\"2\"]}"));
        assertEquals(List.of(new SchemaViolation("#/tags/1", "type", "string found, integer expected")), tuple.violations());
        assertEquals(List.of("1: expected integer, found string: type changed by the producer?"), tuple.hints());

        Invalid extraItem = assertInstanceOf(Invalid.class, SCHEMAS.validate("send-email",
                "{\"job_id\":\"j-1\",\"to\":\"a@example.com\",\"tags\":[\"a\",2,3]}"));
        assertEquals("#/tags", extraItem.violations().get(0).pointer(), extraItem.describe());

        Invalid dependent = assertInstanceOf(Invalid.class, SCHEMAS.validate("send-email", "{\"job_id\":\"j-1\",\"reply_to\":\"b@example.com\"}"));
        assertTrue(dependent.violations().stream().anyMatch(x -> x.keyword().equals("dependentRequired")), dependent.describe());
        assertTrue(dependent.violations().stream().anyMatch(x -> x.keyword().equals("required")), dependent.describe());

        Invalid typed = assertInstanceOf(Invalid.class, SCHEMAS.validate("send-email", "{\"job_id\":\"j-1\",\"to\":\"a@example.com\",\"attempt\":\"3\"}"));
        assertEquals(List.of("attempt: expected integer, found string: type changed by the producer?"), typed.hints());
    }

    @Test
    void theBoundaryDeadLettersWithTheReasonAndTheHint() {
        InMemoryDeadLetters sink = new InMemoryDeadLetters();
        JobBoundary<Accepted> boundary = JobBoundary.builder().schemas(SCHEMAS).jobType("send-email").deadLetters(sink)
                .consumer("mailer-2020").build();
        byte[] payload = "{\"id\":\"j-9\",\"to\":\"a@example.com\"}".getBytes(StandardCharsets.UTF_8);
        assertEquals(Outcome.REJECTED, boundary.handle(payload, null, job -> {
            throw new AssertionError("the handler must not run for an invalid job");
        }));
        DeadLetter d = sink.letters().get(0);
        assertEquals("j-9", d.jobId(), "the id is found under its renamed field");
        assertEquals(List.of("job_id missing, id present: renamed by the producer?"), d.hints());
        assertTrue(d.reason().startsWith("invalid against schema https://guard.dev/schemas/send-email.v2.json"), d.reason());
        List<String> seen = new java.util.ArrayList<>();
        assertEquals(Outcome.PROCESSED, boundary.handle("{\"job_id\":\"j-10\",\"to\":\"a@example.com\"}".getBytes(StandardCharsets.UTF_8),
                null, job -> seen.add(job.string("job_id"))));
        assertEquals(List.of("j-10"), seen);
        assertEquals("received=2 processed=1 rejected=1 failed=0 handed_back=0 missing=0", boundary.ledger().summaryLine());
    }

    @Test
    void theExamplesOfA2020SchemaAreSelfTestedAtBoot() {
        SchemaSelfTestException e = assertThrows(SchemaSelfTestException.class, () -> Schemas.builder()
                .fromJson("t", SEND_EMAIL_2020.replace("\"tags\": [\"x\", 1]", "\"tags\": [\"x\", \"1\"]")).build());
        assertTrue(e.getMessage().contains("is rejected by its own schema") && e.getMessage().contains("#/tags/1"), e.getMessage());
    }

    @Test
    void formatIsAnAnnotationUnlessAssertionIsAskedForThenGuardsOwnChecksApply() {
        String job = "{\"job_id\":\"j-1\",\"to\":\"not an address\"}";
        assertTrue(SCHEMAS.validate("send-email", job).accepted(), "2020-12: format is an annotation by default");
        Schemas asserted = Schemas.builder().fromJson("send-email", SEND_EMAIL_2020).formatAssertion(true).build();
        Invalid v = assertInstanceOf(Invalid.class, asserted.validate("send-email", job));
        assertEquals("#/to", v.violations().get(0).pointer());
        assertEquals("format", v.violations().get(0).keyword());
        assertTrue(asserted.validate("send-email", "{\"job_id\":\"j-1\",\"to\":\"ada@example.com\"}").accepted());
        // guard's RFC 3339 check, not a pattern: 30 February and a leap second off 23:59 are not dates
        Schemas dates = Schemas.builder().formatAssertion(true).fromJson("t", "{\"$schema\":\"https://json-schema.org/draft/2020-12/schema\","
                + "\"format\":\"date-time\"}").build();
        assertTrue(dates.validate("t", "\"2026-12-07T10:00:00.5+01:00\"").accepted());
        assertFalse(dates.validate("t", "\"2026-02-30T10:00:00Z\"").accepted());
        assertFalse(dates.validate("t", "\"2026-12-07T10:00:60Z\"").accepted());
        // other formats are networknt's
        Schemas ipv4 = Schemas.builder().formatAssertion(true).fromJson("t", "{\"$schema\":\"https://json-schema.org/draft/2020-12/schema\","
                + "\"format\":\"ipv4\"}").build();
        assertTrue(ipv4.validate("t", "\"10.0.0.1\"").accepted());
        assertFalse(ipv4.validate("t", "\"10.0.0.256\"").accepted());
    }

    @Test
    void metaSchemasResolveOfflineInEveryDraft() {
        for (String[] c : new String[][] {
                {"http://json-schema.org/draft-04/schema#", "http://json-schema.org/draft-04/schema#"},
                {"http://json-schema.org/draft-06/schema#", "http://json-schema.org/draft-06/schema#"},
                {"http://json-schema.org/draft-07/schema#", "http://json-schema.org/draft-07/schema#"},
                {"https://json-schema.org/draft/2019-09/schema", "https://json-schema.org/draft/2019-09/schema"},
                {"https://json-schema.org/draft/2020-12/schema", "https://json-schema.org/draft/2020-12/schema"}}) {
            Schemas s = Schemas.builder().fromJson("schema", "{\"$schema\":\"" + c[0] + "\",\"$ref\":\"" + c[1] + "\"}").build();
            assertTrue(s.validate("schema", "{\"type\":\"string\",\"minLength\":1}").accepted(), c[0]);
            Verdict bad = s.validate("schema", "{\"type\":12}");
            assertFalse(bad.accepted(), c[0] + ": a schema whose type is a number is not a schema");
            assertFalse(s.validate("schema", "{\"minLength\":-1}").accepted(), c[0]);
        }
        // a definition borrowed from the draft-07 meta-schema
        Schemas borrowed = Schemas.builder().fromJson("t", "{\"$schema\":\"http://json-schema.org/draft-07/schema#\","
                + "\"properties\":{\"n\":{\"$ref\":\"http://json-schema.org/draft-07/schema#/definitions/nonNegativeInteger\"}}}").build();
        assertTrue(borrowed.validate("t", "{\"n\":3}").accepted());
        assertFalse(borrowed.validate("t", "{\"n\":-3}").accepted());
    }

    @Test
    void aPointerEndingInAnEmptyTokenResolvesAsRfc6901SaysIn2020() {
        Schemas s = Schemas.builder().fromJson("t", "{\"$schema\":\"https://json-schema.org/draft/2020-12/schema\","
                + "\"$defs\":{\"\":{\"type\":\"integer\"},\"a\":{\"type\":\"string\"}},\"$ref\":\"#/$defs/\"}").build();
        assertTrue(s.validate("t", "3").accepted());
        assertFalse(s.validate("t", "\"3\"").accepted(), "the empty-named definition (integer), not $defs itself");
        // draft-07 (everit drops the empty token): the target is registered whole where it has no references of its own
        Schemas d7 = Schemas.builder().fromJson("t", "{\"definitions\":{\"\":{\"type\":\"integer\",\"properties\":{\"id\":{}}},"
                + "\"a\":{}},\"properties\":{\"n\":{\"$ref\":\"#/definitions/\"}}}").build();
        assertTrue(d7.validate("t", "{\"n\":3}").accepted());
        assertFalse(d7.validate("t", "{\"n\":\"3\"}").accepted(), "the empty-named definition (integer), not definitions itself");
        // ... and refused at boot with its pointer where it has
        SchemaSelfTestException e = assertThrows(SchemaSelfTestException.class, () -> Schemas.builder().fromJson("t",
                "{\"definitions\":{\"\":{\"$ref\":\"#/definitions/a\"},\"a\":{}},\"$ref\":\"#/definitions/\"}").build());
        assertTrue(e.getMessage().contains("#/$ref") && e.getMessage().contains("empty token"), e.getMessage());
    }

    @Test
    void anUnresolvableReferenceIsABootProblemWithItsPointer() {
        SchemaSelfTestException e = assertThrows(SchemaSelfTestException.class, () -> Schemas.builder().fromJson("t",
                "{\"$schema\":\"https://json-schema.org/draft/2020-12/schema\",\"properties\":{\"a\":{\"$ref\":\"#/$defs/missing\"}}}").build());
        assertTrue(e.getMessage().contains("#/properties/a/$ref") && e.getMessage().contains("points at nothing"), e.getMessage());
        SchemaSelfTestException anchor = assertThrows(SchemaSelfTestException.class, () -> Schemas.builder().fromJson("t",
                "{\"$schema\":\"https://json-schema.org/draft/2020-12/schema\",\"$id\":\"https://x.example/a\","
                        + "\"$defs\":{\"n\":{\"$anchor\":\"num\",\"type\":\"number\"}},\"$ref\":\"#nums\"}").build());
        assertTrue(anchor.getMessage().contains("#nums"), anchor.getMessage());
        Schemas anchored = Schemas.builder().fromJson("t", "{\"$schema\":\"https://json-schema.org/draft/2020-12/schema\","
                + "\"$id\":\"https://x.example/a\",\"$defs\":{\"n\":{\"$anchor\":\"num\",\"type\":\"number\"}},\"$ref\":\"#num\"}").build();
        assertFalse(anchored.validate("t", "\"x\"").accepted());
    }

    @Test
    void networkReferencesAreFetchedOnlyWhenAllowed() throws Exception {
        AtomicInteger requests = new AtomicInteger();
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/common.json", x -> {
            requests.incrementAndGet();
            byte[] body = "{\"$schema\":\"https://json-schema.org/draft/2020-12/schema\",\"$defs\":{\"id\":{\"type\":\"string\"}}}"
                    .getBytes(StandardCharsets.UTF_8);
            x.sendResponseHeaders(200, body.length);
            try (OutputStream out = x.getResponseBody()) {
                out.write(body);
            }
        });
        server.start();
        try {
            String url = "http://127.0.0.1:" + server.getAddress().getPort() + "/common.json";
            String schema = "{\"$schema\":\"https://json-schema.org/draft/2020-12/schema\",\"properties\":{\"job_id\":{\"$ref\":\""
                    + url + "#/$defs/id\"}}}";
            SchemaSelfTestException off = assertThrows(SchemaSelfTestException.class, () -> Schemas.builder().fromJson("t", schema).build());
            assertTrue(off.getMessage().contains("network references are off"), off.getMessage());
            assertEquals(0, requests.get(), "nothing fetched while network references are off");

            Schemas on = Schemas.builder().fromJson("t", schema).allowNetworkRefs(true).build();
            assertTrue(requests.get() >= 1, "fetched at boot when allowed");
            int atBoot = requests.get();
            assertFalse(on.validate("t", "{\"job_id\":5}").accepted());
            assertTrue(on.validate("t", "{\"job_id\":\"5\"}").accepted());
            assertEquals(atBoot, requests.get(), "nothing fetched per payload");

            Schemas registered = Schemas.builder().fromJson("t", schema).refFromJson(url,
                    "{\"$schema\":\"https://json-schema.org/draft/2020-12/schema\",\"$defs\":{\"id\":{\"type\":\"integer\"}}}").build();
            assertTrue(registered.validate("t", "{\"job_id\":5}").accepted(), "the registered copy, not the server's");
            assertEquals(atBoot, requests.get());
        } finally {
            server.stop(0);
        }
        // the server gone (its port closed): boot fails, naming the reference, within the connect timeout
        String url = "http://127.0.0.1:" + server.getAddress().getPort() + "/common.json";
        long t0 = System.nanoTime();
        SchemaSelfTestException gone = assertThrows(SchemaSelfTestException.class, () -> Schemas.builder().allowNetworkRefs(true)
                .fromJson("t", "{\"$schema\":\"https://json-schema.org/draft/2020-12/schema\",\"$ref\":\"" + url + "\"}").build());
        assertTrue(gone.getMessage().contains(url) && gone.getMessage().contains("cannot be fetched"), gone.getMessage());
        assertTrue(System.nanoTime() - t0 < 30_000_000_000L, "bounded by guard's timeouts");
    }

    @Test
    void the2019DraftAndItsSpellingsAreRecognised() {
        for (String spelling : new String[] {"https://json-schema.org/draft/2019-09/schema", "http://json-schema.org/draft/2019-09/schema#"}) {
            Schemas s = Schemas.builder().fromJson("t", "{\"$schema\":\"" + spelling + "\",\"type\":\"array\","
                    + "\"items\":[{\"type\":\"string\"}],\"unevaluatedItems\":false,\"dependentRequired\":{}}").build();
            assertEquals(Draft.DRAFT_2019_09, s.draft("t"));
            assertTrue(s.validate("t", "[\"a\"]").accepted());
            assertFalse(s.validate("t", "[\"a\", 1]").accepted(), spelling);
        }
        assertEquals(Draft.DRAFT_2020_12, Draft.parse("2020-12").orElseThrow());
        assertEquals(Draft.DRAFT_2019_09, Draft.parse("draft2019-09").orElseThrow());
        SchemaSelfTestException e = assertThrows(SchemaSelfTestException.class, () -> Schemas.builder()
                .fromJson("t", "{\"$schema\":\"http://json-schema.org/draft-03/schema#\"}").build());
        assertTrue(e.getMessage().contains("2020-12") && e.getMessage().contains("draft-03"), e.getMessage());
    }
}
