package dev.guard.schema;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The parsed payload a handler receives: plain Java values, and errors that name the field. */
class PayloadTest {

    private static final Schemas ANY = Schemas.builder().fromJson("t", "{\"$id\": \"any\"}").build();

    private static Payload parse(String json) {
        return assertInstanceOf(Payload.class, ANY.parse(json.getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void objectsArraysAndNumbersArePlainJavaValues() {
        Payload p = parse("{\"id\": \"j-1\", \"n\": 3.0, \"d\": 2.50, \"big\": 1e30, \"ok\": true, \"none\": null,"
                + " \"tags\": [\"a\", 1, null, {\"x\": []}]}");
        Map<String, Object> o = p.object();
        assertEquals("j-1", o.get("id"));
        assertEquals(3, o.get("n"));
        assertEquals(new BigDecimal("2.5"), o.get("d"));
        assertEquals(BigInteger.TEN.pow(30), o.get("big"));
        assertEquals(Boolean.TRUE, o.get("ok"));
        assertTrue(o.containsKey("none") && o.get("none") == null, "JSON null is a key with Java null");
        assertEquals(Arrays.asList("a", 1, null, Map.of("x", List.of())), o.get("tags"));
        assertThrows(UnsupportedOperationException.class, () -> o.put("id", "changed"));
        assertThrows(UnsupportedOperationException.class, () -> ((List<?>) o.get("tags")).clear());
        assertTrue(p.has("none"));
        assertFalse(p.has("missing"));
        assertNull(p.get("missing"));
    }

    @Test
    void stringAndIntegerReadTopLevelFieldsOrSayWhatWasFound() {
        Payload p = parse("{\"id\": \"j-1\", \"width\": 3e2, \"ratio\": 1.5, \"huge\": 18446744073709551616, \"gone\": null}");
        assertEquals("j-1", p.string("id"));
        assertEquals(300L, p.integer("width"));
        assertEquals("field 'width' is a JSON integer, expected a string",
                assertThrows(IllegalStateException.class, () -> p.string("width")).getMessage());
        assertEquals("field 'ratio' is a JSON number, expected an integer",
                assertThrows(IllegalStateException.class, () -> p.integer("ratio")).getMessage());
        assertEquals("field 'huge' is a JSON integer, expected an integer within the range of a long",
                assertThrows(IllegalStateException.class, () -> p.integer("huge")).getMessage());
        assertEquals("field 'gone' is null, expected a string",
                assertThrows(IllegalStateException.class, () -> p.string("gone")).getMessage());
        assertEquals("the payload has no field 'job_id' (fields: gone, huge, id, ratio, width); expected a string",
                assertThrows(IllegalStateException.class, () -> p.string("job_id")).getMessage());
    }

    @Test
    void aPayloadThatIsNotAnObjectSaysSo() {
        Payload array = parse("[1, 2]");
        assertFalse(array.isObject());
        assertEquals(List.of(1, 2), array.value());
        assertEquals("cannot read the payload as an object: the payload is a JSON array, not an object",
                assertThrows(IllegalStateException.class, array::object).getMessage());
        assertEquals("cannot read field 'id' as a string: the payload is a JSON array, not an object",
                assertThrows(IllegalStateException.class, () -> array.string("id")).getMessage());
        assertNull(parse("null").value());
        assertEquals("x", parse("\"x\"").value());
    }

    @Test
    void jsonTextReadsBackToTheSameValue() {
        for (String text : List.of("{\"a\": [1, 2.5, \"x\\\"y\", null, true], \"b\": {}}", "[]", "\"s\"", "12", "null")) {
            Payload p = parse(text);
            assertEquals(p.value(), parse(p.json()).value(), text);
        }
    }

    @Test
    void anAcceptedVerdictNamesItsSchemaInAReadError() {
        Accepted a = assertInstanceOf(Accepted.class, ANY.validate("t", "{\"id\": 7}"));
        assertEquals(7L, a.integer("id"));
        assertEquals("payload accepted by schema any: field 'id' is a JSON integer, expected a string",
                assertThrows(IllegalStateException.class, () -> a.string("id")).getMessage());
    }

    @Test
    void parseGivesMalformedForWhatIsNotJson() {
        Parsed p = ANY.parse("{\"a\": ".getBytes(StandardCharsets.UTF_8));
        Malformed m = assertInstanceOf(Malformed.class, p);
        assertEquals(Malformed.Kind.NOT_JSON, m.kind());
        assertNull(m.schemaId());
    }
}
