package dev.guard.schema;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * JSON Schema as drafts 4, 6 and 7 define it, in cases written here from the specification text
 * (json-schema.org, draft-07 "JSON Schema Validation" sections 4.2 and 6, "Core" section 8): numbers
 * compared by value, boolean schemas, draft detection, and patterns. Measured against the published
 * test suite by {@code dev.guard.init.conformance.SchemaSuiteRun} (guard-init test sources).
 */
class StandardSemanticsTest {

    static Schemas one(String schema) {
        return Schemas.builder().fromJson("t", schema).build();
    }

    static boolean accepts(Schemas s, String payload) {
        Verdict v = s.validate("t", payload);
        if (v instanceof Malformed m) {
            throw new AssertionError("payload " + payload + " was not even checked: " + m.describe());
        }
        return v.accepted();
    }

    @Test
    void anIntegerValuedDecimalIsAnInteger() {
        Schemas s = one("{\"type\": \"integer\"}");
        for (String yes : List.of("1", "1.0", "-0.0", "1e2", "1.000E+3", "12345678901234567890.0", "-9223372036854775809")) {
            assertTrue(accepts(s, yes), yes + " is an integer (JSON Schema: a number with a zero fractional part)");
        }
        for (String no : List.of("1.5", "1e-2", "0.0000001", "\"1\"", "true")) {
            assertTrue(!accepts(s, no), no + " is not an integer");
        }
    }

    @Test
    void numbersAreEqualByValueInEnumConstAndUniqueItems() {
        Schemas e = one("{\"enum\": [0, 2.5, {\"a\": [1]}]}");
        for (String yes : List.of("0", "0.0", "-0", "-0.0", "2.50", "25e-1", "{\"a\": [1.0]}")) {
            assertTrue(accepts(e, yes), yes + " equals a value of the enum");
        }
        for (String no : List.of("false", "2.4999", "{\"a\": [true]}", "\"0\"")) {
            assertTrue(!accepts(e, no), no + " is not in the enum");
        }
        Schemas c = one("{\"const\": 100}");
        assertTrue(accepts(c, "1e2") && accepts(c, "100.000") && !accepts(c, "100.0001"));
        Schemas u = one("{\"uniqueItems\": true}");
        assertTrue(!accepts(u, "[1, 1.0]"), "1 and 1.0 are the same number");
        assertTrue(!accepts(u, "[{\"a\": 2}, {\"a\": 2.0}]"), "objects with equal numbers are equal");
        assertTrue(accepts(u, "[1, true, \"1\", [1]]"), "different types are never equal");
        assertTrue(accepts(u, "[0.1, 0.10000000000000001]"), "decimals are exact: these differ");
    }

    @Test
    void bigAndPreciseNumbersAreNeitherRoundedNorOverflowed() {
        Schemas max = one("{\"maximum\": 972783798187987123879878123.188781371}");
        assertTrue(accepts(max, "972783798187987123879878123.188781371"));
        assertTrue(!accepts(max, "972783798187987123879878123.1887813711"), "a double would round both to the same value");
        Schemas mult = one("{\"multipleOf\": 0.01}");
        assertTrue(accepts(mult, "19.99") && accepts(mult, "0.07") && !accepts(mult, "0.075"));
        Schemas big = one("{\"type\": \"integer\", \"minimum\": 18446744073709551616}");
        assertTrue(accepts(big, "18446744073709551616") && !accepts(big, "18446744073709551615"));

        Accepted a = assertInstanceOf(Accepted.class, one("{}").validate("t", "{\"n\": 2.50, \"i\": 3.0, \"b\": 1e30}"));
        java.util.Map<String, Object> o = a.object();
        assertEquals(new BigDecimal("2.5"), o.get("n"), "the exact decimal, without trailing zeros");
        assertEquals(3, o.get("i"), "an integer-valued decimal is handed on as the integer");
        assertEquals(BigInteger.TEN.pow(30), o.get("b"));
        assertEquals(3L, a.integer("i"), "3.0 read as an integer");
        assertEquals(2.5, ((Number) o.get("n")).doubleValue(), "a Number like any other");
    }

    @Test
    void schemaNumbersInAnyFormAreAcceptedWhereTheStandardWantsAnInteger() {
        Schemas s = one("{\"minItems\": 2.0, \"maxItems\": 3e0, \"items\": {\"maxLength\": 2.0, \"minLength\": 1.0}}");
        assertTrue(accepts(s, "[\"a\", \"bb\"]"));
        assertTrue(!accepts(s, "[\"a\"]") && !accepts(s, "[\"a\", \"b\", \"c\", \"d\"]") && !accepts(s, "[\"a\", \"ccc\"]"));
    }

    @Test
    void booleanSchemasAsRootAndAsSubschemas() {
        assertTrue(accepts(one("true"), "{\"anything\": 1}") && accepts(one("true"), "null"));
        assertTrue(!accepts(one("false"), "{}") && !accepts(one("false"), "0"));
        Schemas s = one("{\"properties\": {\"deprecated\": false, \"free\": true}, \"items\": false}");
        assertTrue(accepts(s, "{\"free\": [1, 2]}"));
        assertTrue(!accepts(s, "{\"deprecated\": 1}"), "a property whose schema is false must be absent");
        Schemas all = one("{\"allOf\": [true, {\"type\": \"string\"}], \"not\": false}");
        assertTrue(accepts(all, "\"x\"") && !accepts(all, "1"));
    }

    @Test
    void theDraftComesFromDollarSchemaElseFromTheBuilder() {
        String exclusive = "\"exclusiveMaximum\": true, \"maximum\": 5";
        // draft-04: exclusiveMaximum is a boolean modifier of maximum
        Schemas d4 = one("{\"$schema\": \"http://json-schema.org/draft-04/schema#\", " + exclusive + "}");
        assertTrue(accepts(d4, "4.9") && !accepts(d4, "5"));
        Schemas d4https = one("{\"$schema\": \"https://json-schema.org/draft-04/schema\", " + exclusive + "}");
        assertTrue(!accepts(d4https, "5"), "https and no trailing # name the same draft");
        Schemas byBuilder = Schemas.builder().defaultDraft(Draft.DRAFT_4).fromJson("t", "{" + exclusive + "}").build();
        assertTrue(!accepts(byBuilder, "5"));
        // draft-07: exclusiveMaximum is a number
        Schemas d7 = one("{\"exclusiveMaximum\": 5}");
        assertTrue(accepts(d7, "4.9") && !accepts(d7, "5"));

        SchemaSelfTestException e = assertThrows(SchemaSelfTestException.class,
                () -> one("{\"$schema\": \"https://example.com/our-own-meta-schema\", \"type\": \"object\"}"));
        assertTrue(e.getMessage().contains("guard validates draft-04, draft-06, draft-07, 2019-09 and 2020-12")
                && e.getMessage().contains("our-own-meta-schema"), e.getMessage());
    }

    @Test
    void aPatternJavaCannotCompileIsRefusedAtBootWithItsPointer() {
        SchemaSelfTestException e = assertThrows(SchemaSelfTestException.class,
                () -> one("{\"properties\": {\"name\": {\"pattern\": \"^\\\\p{Script_Extensions=Greek}+$\"}}}"));
        assertTrue(e.getMessage().contains("at #/properties/name/pattern cannot be compiled by java.util.regex"), e.getMessage());
        // Unicode property names and code points beyond four hex digits, as ECMA 262 writes them, are translated
        Schemas letters = one("{\"properties\": {\"name\": {\"pattern\": \"^[\\\\p{Letter}\\\\p{gc=Nd}]+\\\\u{1F600}?$\"}}}");
        assertTrue(accepts(letters, "{\"name\": \"\u00e9l\u00e8ve2\"}") && accepts(letters, "{\"name\": \"a\ud83d\ude00\"}"));
        assertTrue(!accepts(letters, "{\"name\": \"a-b\"}"));
        Schemas greek = one("{\"pattern\": \"^\\\\p{Script=Greek}+$\"}");
        assertTrue(accepts(greek, "\"\u03b1\u03b2\"") && !accepts(greek, "\"ab\""));
        SchemaSelfTestException pp = assertThrows(SchemaSelfTestException.class,
                () -> one("{\"patternProperties\": {\"([a-z\": {}}}"));
        assertTrue(pp.getMessage().contains("at #/patternProperties/([a-z"), pp.getMessage());
    }

    @Test
    void aPropertyNamedDollarRefOrAnIdInsideDataIsNotAReference(@TempDir Path dir) throws Exception {
        Schemas s = one("{\"properties\": {\"$ref\": {\"type\": \"string\"}}, \"enum\": [{\"$ref\": \"http://nowhere.example/x\"}, {\"$ref\": 1}, {\"$ref\": \"a\"}]}");
        assertTrue(accepts(s, "{\"$ref\": \"a\"}") && !accepts(s, "{\"$ref\": 1}"));
        Path f = Files.writeString(dir.resolve("s.json"), "{\"$id\": \"https://x.example/s.json\", \"const\": {\"$id\": \"q\"}}");
        assertTrue(accepts(Schemas.builder().fromFile("t", f).build(), "{\"$id\": \"q\"}"));
    }
}
