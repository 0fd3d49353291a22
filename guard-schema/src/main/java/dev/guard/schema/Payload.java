package dev.guard.schema;

import dev.guard.schema.internal.Json;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.json.JSONArray;
import org.json.JSONObject;

/**
 * One parsed JSON payload, read-only, in plain Java types: an object is a {@code Map<String, Object>},
 * an array a {@code List<Object>}, a string a String, {@code true}/{@code false} a Boolean, {@code null}
 * Java's null, and a number canonical as JSON Schema compares numbers (integers, also {@code 1.0} or
 * {@code 1e2}, as Integer, Long or BigInteger; other decimals as an exact BigDecimal without trailing
 * zeros). Maps and lists are unmodifiable; key order is not kept (JSON objects have none).
 *
 * <p>Guard's own type: the JSON library guard validates with stays inside guard. To bind a payload to a
 * class of yours, give {@link #json()} to your JSON mapper, or map by hand from {@link #object()},
 * {@link #string(String)} and {@link #integer(String)}.
 */
public final class Payload implements Parsed {

    /** The validator's tree (org.json); never handed out. */
    private final Object tree;
    /** Stands for "not converted yet" in {@link #plain} (null is a converted JSON null). */
    private static final Object UNSET = new Object();
    /**
     * {@link #value()}, made at its first use. One field read once, and an immutable value: a race
     * only makes it twice, and no thread can see a half-made one.
     */
    private Object plain = UNSET;

    Payload(Object tree) {
        this.tree = tree;
    }

    /** The validator's tree, for {@link Schemas#validateParsed}. */
    Object tree() {
        return tree;
    }

    /** True when the payload is a JSON object. */
    public boolean isObject() {
        return tree instanceof JSONObject;
    }

    /** The payload as plain Java values (see the class comment). */
    public Object value() {
        Object p = plain;
        if (p == UNSET) {
            p = plain(tree);
            plain = p;
        }
        return p;
    }

    /**
     * The payload as a map of its top-level fields.
     *
     * @throws IllegalStateException when the payload is not a JSON object, naming what it is
     */
    @SuppressWarnings("unchecked")
    public Map<String, Object> object() {
        requireObject("the payload as an object");
        return (Map<String, Object>) value();
    }

    /** True when the payload is an object with this top-level field (also when its value is null). */
    public boolean has(String field) {
        return tree instanceof JSONObject o && o.has(field);
    }

    /** The plain Java value of a top-level field; null when it is JSON null, absent, or the payload is not an object. */
    public Object get(String field) {
        return tree instanceof JSONObject o ? plain(o.opt(field)) : null;
    }

    /**
     * The string in a top-level field.
     *
     * @throws IllegalStateException when the payload is not an object, or the field is absent or not a
     *                               string, naming the field and what was found
     */
    public String string(String field) {
        Object v = field(field, "a string");
        if (v instanceof String s) {
            return s;
        }
        throw wrongType(field, "a string", v);
    }

    /**
     * The integer in a top-level field ({@code 3}, {@code 3.0} and {@code 3e0} are all 3).
     *
     * @throws IllegalStateException when the payload is not an object, or the field is absent, not an
     *                               integer, or outside the range of a long
     */
    public long integer(String field) {
        Object v = field(field, "an integer");
        if (v instanceof Integer || v instanceof Long) {
            return ((Number) v).longValue();
        }
        if (v instanceof BigInteger b && b.bitLength() < 64) {
            return b.longValue();
        }
        throw wrongType(field, v instanceof BigInteger ? "an integer within the range of a long" : "an integer", v);
    }

    /** The payload as compact JSON text (for a JSON mapper of your own). */
    public String json() {
        return tree instanceof JSONObject || tree instanceof JSONArray ? tree.toString() : JSONObject.valueToString(tree);
    }

    @Override
    public String toString() {
        return json();
    }

    private Object field(String field, String wanted) {
        requireObject("field '" + field + "' as " + wanted);
        JSONObject o = (JSONObject) tree;
        if (!o.has(field)) {
            throw new IllegalStateException("the payload has no field '" + field + "' (fields: "
                    + String.join(", ", new java.util.TreeSet<>(o.keySet())) + "); expected " + wanted);
        }
        return o.opt(field);
    }

    private void requireObject(String what) {
        if (!(tree instanceof JSONObject)) {
            throw new IllegalStateException("cannot read " + what + ": the payload is a JSON " + Json.typeName(tree)
                    + ", not an object");
        }
    }

    private static IllegalStateException wrongType(String field, String wanted, Object found) {
        String shown = found == JSONObject.NULL ? "null" : "a JSON " + Json.typeName(found);
        return new IllegalStateException("field '" + field + "' is " + shown + ", expected " + wanted);
    }

    private static Object plain(Object v) {
        if (v == null || v == JSONObject.NULL) {
            return null;
        }
        if (v instanceof JSONObject o) {
            Map<String, Object> m = new LinkedHashMap<>();
            for (String k : o.keySet()) {
                m.put(k, plain(o.opt(k)));
            }
            return Collections.unmodifiableMap(m);
        }
        if (v instanceof JSONArray a) {
            List<Object> l = new ArrayList<>(a.length());
            for (int i = 0; i < a.length(); i++) {
                l.add(plain(a.opt(i)));
            }
            return Collections.unmodifiableList(l);
        }
        if (v instanceof BigDecimal || v instanceof Number || v instanceof String || v instanceof Boolean) {
            return v;
        }
        return v.toString();
    }
}
