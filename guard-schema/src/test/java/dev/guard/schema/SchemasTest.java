package dev.guard.schema;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SchemasTest {

    static final Schemas SCHEMAS = SamplePayloads.schemas();
    static final String ID = "https://guard.dev/schemas/send-email.v1.json";

    @Test
    void validPayloadIsAcceptedWithTheParsedObject() {
        Verdict v = SCHEMAS.validate("send-email", SamplePayloads.validBytes("j-1"));
        Accepted a = assertInstanceOf(Accepted.class, v, v::describe);
        assertEquals(ID, a.schemaId());
        assertEquals("j-1", a.string("job_id"));
        assertEquals(129900, ((java.util.Map<?, ?>) a.object().get("params")).get("amount_cents"));
        assertInstanceOf(Accepted.class, SCHEMAS.validate("send-email", SamplePayloads.valid("j-2")));
        assertTrue(SamplePayloads.validBytes("j-1").length > 900 && SamplePayloads.validBytes("j-1").length < 1300,
                "benchmark payload should be about 1 KB, is " + SamplePayloads.validBytes("j-1").length);
    }

    @Test
    void renamedFieldIsInvalidWithPointerRuleSchemaIdAndRenameHint() {
        Invalid inv = assertInstanceOf(Invalid.class, SCHEMAS.validate("send-email", SamplePayloads.renamed("j-1")));
        assertEquals(ID, inv.schemaId());
        assertEquals(List.of(new SchemaViolation("#", "required", "required key [job_id] not found")), inv.violations());
        assertEquals(List.of("job_id missing, id present: renamed by the producer?"), inv.hints());
        assertEquals("invalid against schema " + ID + ": 1 violation: #: required key [job_id] not found (required); "
                + "hint: job_id missing, id present: renamed by the producer?", inv.describe());
    }

    @Test
    void renameHintsForCaseChangeSharedStemAndSameRole() {
        Invalid camel = assertInstanceOf(Invalid.class, SCHEMAS.validate("send-email",
                SamplePayloads.valid("j").replace("\"job_id\":", "\"jobId\":")));
        assertEquals(List.of("job_id missing, jobId present: renamed by the producer?"), camel.hints());

        Invalid stem = assertInstanceOf(Invalid.class, SCHEMAS.validate("send-email",
                SamplePayloads.valid("j").replace("\"user_email\":", "\"email\":")));
        assertEquals(List.of("user_email missing, email present: renamed by the producer?"), stem.hints());

        Invalid role = assertInstanceOf(Invalid.class, SCHEMAS.validate("send-email",
                SamplePayloads.valid("j").replace("\"job_id\":", "\"uuid\":")));
        assertEquals(List.of("job_id missing, uuid present (both look like identifiers): renamed by the producer?"), role.hints());

        Invalid inner = assertInstanceOf(Invalid.class, SCHEMAS.validate("send-email",
                SamplePayloads.valid("j").replace("\"first_name\":", "\"firstName\":")));
        assertEquals("#/params", inner.violations().get(0).pointer());
        assertEquals(List.of("first_name missing at #/params, firstName present: renamed by the producer?"), inner.hints());
    }

    @Test
    void noRenameHintWhenNothingCloseIsPresent() {
        Invalid inv = assertInstanceOf(Invalid.class, SCHEMAS.validate("send-email",
                SamplePayloads.valid("j").replace("\"template\":\"order-confirmation\",", "")));
        assertEquals("required", inv.violations().get(0).keyword());
        assertEquals(List.of(), inv.hints());
    }

    @Test
    void typeChangeIsNamedWithExpectedAndFoundTypes() {
        Invalid inv = assertInstanceOf(Invalid.class, SCHEMAS.validate("send-email", SamplePayloads.typeChanged(42)));
        assertEquals(2, inv.violations().size(), inv.describe());
        assertTrue(inv.violations().contains(new SchemaViolation("#/job_id", "type", "expected type: String, found: Integer")), inv.describe());
        assertTrue(inv.violations().contains(new SchemaViolation("#/attempt", "type", "expected type: Integer, found: String")), inv.describe());
        assertTrue(inv.hints().contains("job_id: expected string, found integer: type changed by the producer?"), inv.hints().toString());
        assertTrue(inv.hints().contains("attempt: expected integer, found string: type changed by the producer?"), inv.hints().toString());
    }

    @Test
    void extraNestingIsNamed() {
        Invalid inv = assertInstanceOf(Invalid.class, SCHEMAS.validate("send-email", SamplePayloads.nested("j-9")));
        assertEquals(7, inv.violations().size(), inv.describe());
        assertTrue(inv.hints().contains("job_id missing, found at #/job/job_id: extra nesting by the producer?"), inv.hints().toString());
    }

    @Test
    void malformedJsonSaysWhereWithLineColumnAndOffset() {
        Malformed m = assertInstanceOf(Malformed.class, SCHEMAS.validate("send-email", "{\"job_id\": \"a\",\n  \"x\": }"));
        assertEquals(Malformed.Kind.NOT_JSON, m.kind());
        assertEquals(ID, m.schemaId());
        assertTrue(m.reason().startsWith("not JSON: Unexpected character ('}'"), m.reason());
        assertTrue(m.reason().endsWith("at line 2, column 8 (offset 23)"), m.reason());

        Malformed truncated = assertInstanceOf(Malformed.class, SCHEMAS.validate("send-email", SamplePayloads.malformed("j")));
        assertEquals(Malformed.Kind.NOT_JSON, truncated.kind());
        assertTrue(truncated.reason().contains("at line 1, column "), truncated.reason());
    }

    @Test
    void sizeLimitIsCheckedBeforeParsing() {
        Schemas small = Schemas.builder().fromClasspath("send-email", "schemas/send-email.json").maxBytes(100).build();
        byte[] big = SamplePayloads.validBytes("j");
        Malformed m = assertInstanceOf(Malformed.class, small.validate("send-email", big));
        assertEquals(Malformed.Kind.TOO_LARGE, m.kind());
        assertEquals("payload is " + big.length + " bytes, larger than the limit of 100 bytes; not parsed", m.reason());
        // garbage over the limit is also TOO_LARGE: proof nothing was parsed
        byte[] garbage = new byte[101];
        assertEquals(Malformed.Kind.TOO_LARGE, ((Malformed) small.validate("send-email", garbage)).kind());
    }

    @Test
    void hundredThousandNestedArraysAreRejectedWithoutStackOverflow() {
        String deep = "[".repeat(100_000) + "]".repeat(100_000);
        Malformed m = assertInstanceOf(Malformed.class, SCHEMAS.validate("send-email", deep));
        assertEquals(Malformed.Kind.TOO_DEEP, m.kind());
        assertTrue(m.reason().startsWith("nested deeper than the limit of 64 levels at line 1, column 66"), m.reason());
        String deepObj = "{\"a\":".repeat(70) + "1" + "}".repeat(70);
        assertEquals(Malformed.Kind.TOO_DEEP, ((Malformed) SCHEMAS.validate("send-email", deepObj)).kind());
        // 64 levels are fine (the schema then says what is wrong)
        String ok = "{\"a\":".repeat(63) + "1" + "}".repeat(63);
        assertInstanceOf(Invalid.class, SCHEMAS.validate("send-email", ok));
    }

    @Test
    void hostileTokensAreMalformedWithAClearKind() {
        assertKind(Malformed.Kind.NOT_JSON, "{\"job_id\": NaN}", "not JSON: NaN is not a JSON number");
        assertKind(Malformed.Kind.DUPLICATE_KEY, "{\"job_id\":\"a\",\"job_id\":\"b\"}", "duplicate key \"job_id\" at line 1, column 15");
        assertKind(Malformed.Kind.NUMBER_OUT_OF_RANGE, "{\"attempt\": 1e400}", "number 1e400 does not fit a double");
        assertKind(Malformed.Kind.NOT_JSON, "{\"a\":1} {\"b\":2}", "trailing content after the JSON value at line 1, column 9");
        assertKind(Malformed.Kind.NOT_JSON, "", "payload is empty (no JSON value)");
        assertKind(Malformed.Kind.NOT_JSON, "{job_id: 'x'}", "not JSON: Unexpected character ('j'");
        byte[] badUtf8 = "{\"job_id\":\"a\u00e9\"}".getBytes(StandardCharsets.UTF_8);
        badUtf8[12] = (byte) 0xC3;
        badUtf8[13] = (byte) 0x28; // C3 28: invalid continuation byte
        Malformed m = assertInstanceOf(Malformed.class, SCHEMAS.validate("send-email", badUtf8));
        assertEquals(Malformed.Kind.NOT_UTF8, m.kind(), m.reason());
        assertTrue(m.reason().startsWith("not valid UTF-8: Invalid UTF-8 middle byte 0x28"), m.reason());
        // huge integers stay exact and are then judged by the schema
        Invalid inv = assertInstanceOf(Invalid.class, SCHEMAS.validate("send-email",
                SamplePayloads.valid("j").replace("\"attempt\":0", "\"attempt\":123456789012345678901234567890")));
        assertEquals("#/attempt", inv.violations().get(0).pointer());
        assertEquals("maximum", inv.violations().get(0).keyword());
        assertNull(SCHEMAS.validate("send-email", (byte[]) null).describe().isEmpty() ? "" : null);
    }

    private static void assertKind(Malformed.Kind kind, String payload, String reasonPrefix) {
        Malformed m = assertInstanceOf(Malformed.class, SCHEMAS.validate("send-email", payload), payload);
        assertEquals(kind, m.kind(), m.reason());
        assertTrue(m.reason().startsWith(reasonPrefix), "reason: " + m.reason());
    }

    @Test
    void regexThatOverflowsTheStackOnAHugeStringIsRejectedNotACrash() {
        Schemas s = Schemas.builder().fromJson("t", "{\"properties\": {\"s\": {\"type\": \"string\", \"pattern\": \"^(a|b)*$\"}}}").build();
        Malformed m = assertInstanceOf(Malformed.class, s.validate("t", "{\"s\": \"" + "ab".repeat(200_000) + "\"}"));
        assertEquals(Malformed.Kind.VALIDATOR_FAILED, m.kind());
        assertEquals("validator failed on this payload: StackOverflowError (a schema pattern recursing on a very long string?)", m.reason());
        assertInstanceOf(Accepted.class, s.validate("t", "{\"s\": \"abab\"}"), "the same schema still works afterwards");
    }

    @Test
    void unknownJobTypeIsMalformedAndNamesTheRegisteredTypes() {
        Malformed m = assertInstanceOf(Malformed.class, SCHEMAS.validate("resize-imag", "{}"));
        assertEquals(Malformed.Kind.UNKNOWN_JOB_TYPE, m.kind());
        assertNull(m.schemaId());
        assertEquals("no schema registered for job type 'resize-imag' (registered: send-email, resize-image)", m.reason());
    }

    @Test
    void schemaObjectsAreCachedNotReparsed() {
        assertSame(SCHEMAS.schema("send-email"), SCHEMAS.schema("send-email"));
        assertEquals(List.of("send-email", "resize-image"), List.copyOf(SCHEMAS.jobTypes()));
    }

    @Test
    void selfTestFailsBootWhenAnExampleIsRejected() {
        SchemaSelfTestException e = assertThrows(SchemaSelfTestException.class, () -> Schemas.builder()
                .fromClasspath("send-email", "schemas/send-email.json")
                .example("send-email", SamplePayloads.valid("ok"))
                .example("send-email", SamplePayloads.renamed("bad"))
                .build());
        assertEquals(List.of("example 2 for job type 'send-email' is rejected by its own schema: invalid against schema " + ID
                + ": 1 violation: #: required key [job_id] not found (required); hint: job_id missing, id present: renamed by the producer?"),
                e.problems());
        assertTrue(e.getMessage().startsWith("schema self-test failed (1 problem): example 2"), e.getMessage());
        assertTrue(e.getMessage().endsWith("the consumer must not start without valid schemas."), e.getMessage());
    }

    @Test
    void theSchemasOwnExamplesKeywordIsSelfTestedToo() {
        String schema = "{\"type\":\"object\",\"required\":[\"job_id\"],"
                + "\"examples\":[{\"job_id\":\"j-1\"},{\"id\":\"j-2\"}]}";
        SchemaSelfTestException e = assertThrows(SchemaSelfTestException.class,
                () -> Schemas.builder().fromJson("t", schema).build());
        assertEquals(1, e.problems().size(), e.getMessage());
        assertTrue(e.problems().get(0).startsWith("example 2 for job type 't' is rejected by its own schema"), e.getMessage());
        assertTrue(e.problems().get(0).contains("job_id missing, id present: renamed by the producer?"), e.getMessage());

        Schemas ok = Schemas.builder().fromJson("t", "{\"type\":\"object\",\"examples\":[{\"job_id\":\"j-1\"}]}").build();
        assertTrue(ok.validate("t", "{\"job_id\":\"j-3\"}").accepted());
    }

    @Test
    void selfTestFailsBootOnMissingBrokenOrInvalidSchemas(@TempDir Path dir) throws Exception {
        Path broken = dir.resolve("broken.json");
        Files.writeString(broken, "{\"type\": \"object\",\n \"properties\": {");
        SchemaSelfTestException e = assertThrows(SchemaSelfTestException.class, () -> Schemas.builder()
                .fromClasspath("a", "schemas/nope.json")
                .fromFile("b", broken)
                .fromJson("c", "{\"type\": \"objekt\"}")
                .fromFile("d", dir.resolve("missing.json"))
                .example("e", "{}")
                .build());
        List<String> p = e.problems();
        assertEquals(5, p.size(), p.toString());
        assertEquals("job type 'a': cannot read classpath:schemas/nope.json: classpath resource 'schemas/nope.json' not found; "
                + "put it under src/main/resources/schemas/nope.json or pass the right path", p.get(0));
        assertTrue(p.get(1).startsWith("job type 'b': file:" + broken + " is not valid JSON: not JSON: Unexpected end-of-input"), p.get(1));
        assertTrue(p.get(1).contains("at line 2"), p.get(1));
        assertTrue(p.get(2).startsWith("job type 'c': inline schema is not a valid JSON Schema (draft-07): #: "), p.get(2));
        assertTrue(p.get(2).contains("objekt"), p.get(2));
        assertEquals("job type 'd': cannot read file:" + dir.resolve("missing.json") + ": file "
                + dir.resolve("missing.json").toAbsolutePath() + " does not exist or is not a regular file", p.get(3));
        assertEquals("example 1 is for job type 'e', which has no schema", p.get(4));

        SchemaSelfTestException none = assertThrows(SchemaSelfTestException.class, () -> Schemas.builder().build());
        assertTrue(none.getMessage().contains("no schema registered"), none.getMessage());
    }

    @Test
    void singleUsesTheIdOrTheFileName(@TempDir Path dir) throws Exception {
        Path withId = dir.resolve("x.json");
        Files.writeString(withId, "{\"$id\": \"orders.v3\", \"type\": \"object\", \"required\": [\"order_id\"]}");
        Schemas s = Schemas.single(withId);
        assertEquals(List.of("orders.v3"), List.copyOf(s.jobTypes()));
        assertInstanceOf(Accepted.class, s.validate("orders.v3", "{\"order_id\": 1}"));
        Path noId = dir.resolve("refund.schema.json");
        Files.writeString(noId, "{\"type\": \"object\"}");
        assertEquals(List.of("refund"), List.copyOf(Schemas.single(noId).jobTypes()));
        assertThrows(SchemaSelfTestException.class, () -> Schemas.single(dir.resolve("absent.json")));
    }

    @Test
    void limitsAreValidated() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Schemas.builder().maxDepth(100_000));
        assertEquals("maxDepth must be between 1 and 512, was 100000", e.getMessage());
        assertFalse(SCHEMAS.maxBytes() != Schemas.DEFAULT_MAX_BYTES);
    }
}
