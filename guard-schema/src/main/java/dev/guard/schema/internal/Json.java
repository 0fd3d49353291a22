package dev.guard.schema.internal;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import dev.guard.schema.Malformed;
import java.io.CharConversionException;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import org.json.JSONArray;
import org.json.JSONObject;

/**
 * Strict JSON reading into org.json values (what everit validates), with hostile input turned
 * into a {@link Failure} instead of an exception: size checked before parsing, depth enforced by
 * Jackson's streaming parser (no recursion before the limit), invalid UTF-8, NaN, duplicate keys,
 * non-finite numbers, trailing content.
 */
public final class Json {

    /** The outcome of reading: a value or a failure. */
    public sealed interface Read permits Value, Failure {}

    /** Parsed JSON value (JSONObject, JSONArray, String, Number, Boolean or JSONObject.NULL). */
    public record Value(Object value) implements Read {}

    /** Why the bytes are not acceptable JSON. */
    public record Failure(Malformed.Kind kind, String reason) implements Read {}

    /** Decimals beyond a double's range are refused (other languages would read them as Infinity). */
    private static final BigDecimal MAX_DOUBLE = new BigDecimal(Double.MAX_VALUE);
    /** Most decimal places a decimal may have, so that comparisons and multipleOf stay cheap. */
    static final int MAX_SCALE = 1100;

    private final JsonFactory factory;
    private final int maxBytes;
    private final int maxDepth;

    public Json(int maxBytes, int maxDepth) {
        this.maxBytes = maxBytes;
        this.maxDepth = maxDepth;
        this.factory = JsonFactory.builder()
                .streamReadConstraints(StreamReadConstraints.builder()
                        .maxNestingDepth(maxDepth)
                        .maxDocumentLength(maxBytes)
                        .build())
                .build();
    }

    public int maxBytes() {
        return maxBytes;
    }

    public int maxDepth() {
        return maxDepth;
    }

    /** Reads one JSON document from UTF-8 bytes. */
    public Read read(byte[] bytes) {
        if (bytes == null) {
            return new Failure(Malformed.Kind.NOT_JSON, "payload is null (no bytes at all)");
        }
        if (bytes.length > maxBytes) {
            return new Failure(Malformed.Kind.TOO_LARGE, "payload is " + bytes.length
                    + " bytes, larger than the limit of " + maxBytes + " bytes; not parsed");
        }
        Read r = read(bytes, null, false);
        return r == DUPLICATE ? read(bytes, null, true) : r;
    }

    private Read read(byte[] bytes, String text, boolean exact) {
        JsonParser p = null;
        try {
            p = bytes != null ? factory.createParser(bytes) : factory.createParser(text);
            return readDocument(p, exact);
        } catch (IOException | RuntimeException e) {
            return failure(e, p);
        } finally {
            close(p);
        }
    }

    /** Reads one JSON document from text (its length counts as bytes for the size limit). */
    public Read read(String text) {
        if (text == null) {
            return new Failure(Malformed.Kind.NOT_JSON, "payload is null (no text at all)");
        }
        if (text.length() > maxBytes) {
            return new Failure(Malformed.Kind.TOO_LARGE, "payload is " + text.length()
                    + " characters, larger than the limit of " + maxBytes + " bytes; not parsed");
        }
        Read r = read(null, text, false);
        return r == DUPLICATE ? read(null, text, true) : r;
    }

    /**
     * Marks a duplicate key found without its position: the fast pass checks duplicates by the object's
     * size after each put (one hash lookup per key instead of two), the exact pass, run only then, with
     * a lookup before it, where the parser still knows the key's line and column.
     */
    private static final Failure DUPLICATE = new Failure(Malformed.Kind.DUPLICATE_KEY, "duplicate key");

    private Read readDocument(JsonParser p, boolean exact) throws IOException {
        JsonToken t = p.nextToken();
        if (t == null) {
            return new Failure(Malformed.Kind.NOT_JSON, "payload is empty (no JSON value)");
        }
        Object value = readValue(p, t, exact);
        if (value instanceof Failure f) {
            return f;
        }
        JsonToken after = p.nextToken();
        if (after != null) {
            return new Failure(Malformed.Kind.NOT_JSON, "trailing content after the JSON value "
                    + position(p.currentTokenLocation()));
        }
        return new Value(value);
    }

    /** Returns the value, or a {@link Failure} (a value of its own type, to avoid exceptions). */
    private Object readValue(JsonParser p, JsonToken t, boolean exact) throws IOException {
        switch (t) {
            case START_OBJECT: {
                JSONObject obj = new JSONObject();
                String key;
                while ((key = p.nextFieldName()) != null) {
                    if (exact && obj.has(key)) {
                        return new Failure(Malformed.Kind.DUPLICATE_KEY, "duplicate key \"" + shorten(key)
                                + "\" " + position(p.currentTokenLocation()));
                    }
                    Object v = readValue(p, p.nextToken(), exact);
                    if (v instanceof Failure) {
                        return v;
                    }
                    int before = obj.length();
                    obj.put(key, v);
                    if (obj.length() == before) {
                        return DUPLICATE; // rare: read() reads again, exactly, for the key's position
                    }
                }
                return obj;
            }
            case START_ARRAY: {
                JSONArray arr = new JSONArray();
                JsonToken n;
                while ((n = p.nextToken()) != JsonToken.END_ARRAY) {
                    Object v = readValue(p, n, exact);
                    if (v instanceof Failure) {
                        return v;
                    }
                    arr.put(v);
                }
                return arr;
            }
            case VALUE_STRING:
                return p.getText();
            case VALUE_NUMBER_INT:
                switch (p.getNumberType()) {
                    case INT:
                        return p.getIntValue();
                    case LONG:
                        return p.getLongValue();
                    default:
                        return p.getBigIntegerValue();
                }
            case VALUE_NUMBER_FLOAT: {
                BigDecimal d = p.getDecimalValue();
                if (d.precision() - d.scale() > 308 && d.abs().compareTo(MAX_DOUBLE) > 0) {
                    return new Failure(Malformed.Kind.NUMBER_OUT_OF_RANGE, "number " + shorten(p.getText())
                            + " does not fit a double " + position(p.currentTokenLocation()));
                }
                if (d.scale() > MAX_SCALE) {
                    return new Failure(Malformed.Kind.NUMBER_OUT_OF_RANGE, "number " + shorten(p.getText())
                            + " has more than " + MAX_SCALE + " decimal places " + position(p.currentTokenLocation()));
                }
                return number(d);
            }
            case VALUE_TRUE:
                return Boolean.TRUE;
            case VALUE_FALSE:
                return Boolean.FALSE;
            case VALUE_NULL:
                return JSONObject.NULL;
            default:
                return new Failure(Malformed.Kind.NOT_JSON, "unexpected token " + t + " "
                        + position(p.currentTokenLocation()));
        }
    }

    /**
     * One canonical value per JSON number, as JSON Schema compares them: an integer-valued decimal
     * ({@code 1.0}, {@code 1e2}, {@code -0.0}) is the integer, an Integer when it fits, else a Long, else
     * a BigInteger; any other decimal is an exact BigDecimal without trailing zeros ({@code 2.50} is
     * {@code 2.5}). Integer tokens come from Jackson in the same narrowest form, so equal numbers are
     * equal objects and {@code 1.0} passes {@code type: integer}.
     */
    public static Number number(BigDecimal d) {
        if (d.signum() == 0) {
            return 0;
        }
        BigDecimal s = d.stripTrailingZeros();
        if (s.scale() > 0) {
            return s;
        }
        BigInteger i = s.toBigIntegerExact();
        int bits = i.bitLength();
        if (bits < 32) {
            return i.intValue();
        }
        if (bits < 64) {
            return i.longValue();
        }
        return i;
    }

    private static void close(JsonParser p) {
        if (p != null) {
            try {
                p.close();
            } catch (IOException ignored) {
                // reading from memory: nothing to release
            }
        }
    }

    private Failure failure(Exception e, JsonParser p) {
        if (e instanceof StreamConstraintsException) {
            String m = String.valueOf(e.getMessage());
            if (m.contains("nesting depth")) {
                return new Failure(Malformed.Kind.TOO_DEEP, "nested deeper than the limit of " + maxDepth
                        + " levels " + position(((StreamConstraintsException) e).getLocation() != null
                        ? ((StreamConstraintsException) e).getLocation() : p == null ? null : p.currentLocation())
                        + "; not parsed further");
            }
            return new Failure(Malformed.Kind.TOO_LARGE, "exceeds a size limit: "
                    + ((JsonProcessingException) e).getOriginalMessage());
        }
        if (e instanceof JsonProcessingException jpe) {
            String m = String.valueOf(jpe.getOriginalMessage());
            Malformed.Kind kind = m.contains("Invalid UTF-8") || m.contains("UTF8")
                    ? Malformed.Kind.NOT_UTF8 : Malformed.Kind.NOT_JSON;
            if (kind == Malformed.Kind.NOT_JSON && m.contains("Non-standard token 'NaN'")) {
                m = "NaN is not a JSON number";
            }
            return new Failure(kind, (kind == Malformed.Kind.NOT_UTF8 ? "not valid UTF-8: " : "not JSON: ")
                    + shorten(oneLine(m)) + " " + position(jpe.getLocation()));
        }
        if (e instanceof CharConversionException) {
            return new Failure(Malformed.Kind.NOT_UTF8, "not valid UTF-8/UTF-16/UTF-32 text: " + shorten(oneLine(e.getMessage())));
        }
        return new Failure(Malformed.Kind.NOT_JSON, "not JSON: " + e.getClass().getSimpleName() + ": "
                + shorten(oneLine(String.valueOf(e.getMessage()))));
    }

    /** {@code "at line 1, column 14 (offset 13)"}. */
    static String position(JsonLocation loc) {
        if (loc == null) {
            return "(position unknown)";
        }
        long offset = loc.getByteOffset() >= 0 ? loc.getByteOffset() : loc.getCharOffset();
        return "at line " + loc.getLineNr() + ", column " + loc.getColumnNr() + " (offset " + offset + ")";
    }

    private static String oneLine(String s) {
        return s == null ? "" : s.replace('\n', ' ').replace('\r', ' ');
    }

    static String shorten(String s) {
        return s.length() <= 120 ? s : s.substring(0, 117) + "...";
    }

    /** The JSON type name of a parsed value: object, array, string, integer, number, boolean, null. */
    public static String typeName(Object v) {
        if (v == null || v == JSONObject.NULL) {
            return "null";
        }
        if (v instanceof JSONObject) {
            return "object";
        }
        if (v instanceof JSONArray) {
            return "array";
        }
        if (v instanceof String) {
            return "string";
        }
        if (v instanceof Integer || v instanceof Long || v instanceof BigInteger) {
            return "integer";
        }
        if (v instanceof Number || v instanceof BigDecimal) {
            return "number";
        }
        if (v instanceof Boolean) {
            return "boolean";
        }
        return v.getClass().getSimpleName();
    }

    /**
     * The reference tokens of a JSON pointer ({@code "#/a~1b/0"} is {@code a/b}, {@code 0}), {@code ~1} and
     * {@code ~0} decoded as RFC 6901 says; none for {@code "#"}, {@code ""} and null.
     */
    public static java.util.List<String> tokens(String pointer) {
        String p = pointer == null ? "" : pointer.startsWith("#") ? pointer.substring(1) : pointer;
        if (p.isEmpty()) {
            return java.util.List.of();
        }
        String[] raw = p.substring(1).split("/", -1);
        java.util.List<String> out = new java.util.ArrayList<>(raw.length);
        for (String r : raw) {
            out.add(r.replace("~1", "/").replace("~0", "~"));
        }
        return out;
    }

    /**
     * Follows a JSON pointer ({@code "#"}, {@code "#/a/0/b"}, with {@code ~0 ~1}) into a parsed value; null
     * when it leads nowhere. An array index is a decimal without leading zeros, as RFC 6901 says.
     */
    public static Object at(Object root, String pointer) {
        if (pointer == null) {
            return null;
        }
        Object cur = root;
        for (String seg : tokens(pointer)) {
            if (cur instanceof JSONObject o) {
                cur = o.opt(seg);
            } else if (cur instanceof JSONArray a && seg.matches("0|[1-9][0-9]{0,8}")) {
                cur = a.opt(Integer.parseInt(seg));
            } else {
                return null;
            }
            if (cur == null) {
                return null;
            }
        }
        return cur;
    }
}
