package dev.guard.schema.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.guard.schema.Accepted;
import dev.guard.schema.Draft;
import dev.guard.schema.Invalid;
import dev.guard.schema.Malformed;
import dev.guard.schema.SamplePayloads;
import dev.guard.schema.SchemaViolation;
import dev.guard.schema.Schemas;
import dev.guard.schema.Verdict;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.everit.json.schema.Schema;
import org.everit.json.schema.ValidationException;
import org.everit.json.schema.Validator;
import org.json.JSONArray;
import org.json.JSONObject;
import org.junit.jupiter.api.Test;

/**
 * {@link ValidFastPath} (which {@link EveritCompiled} asks first) against everit on generated inputs: random mutations of valid payloads of the
 * test schemas and of schemas written here to use every keyword the fast path repeats (and several it
 * does not). For every input: when the fast path says "valid", everit accepts the same value; and
 * {@link Schemas#validate} gives the verdict and the violations everit alone gives.
 */
class ValidFastPathTest {

    private static final Validator EVERIT = Validator.builder().build();
    private static final Json JSON = new Json(1 << 20, 64);

    /** A schema, the draft it is read with, and valid payloads to mutate. */
    private record Case(String name, Draft draft, String schema, List<String> seeds) {}

    private static List<Case> cases() {
        List<Case> out = new ArrayList<>();
        out.add(new Case("send-email", Draft.DRAFT_7, null, List.of(SamplePayloads.valid("j-1"))));
        out.add(new Case("resize-image", Draft.DRAFT_7, null,
                List.of("{\"job_id\":\"r-1\",\"image_url\":\"s3://img/1.png\",\"width\":640,\"height\":1}")));
        out.add(new Case("objects", Draft.DRAFT_7, """
                {"type":"object","required":["id"],"minProperties":1,"maxProperties":6,
                 "properties":{"id":{"type":"string","minLength":2,"maxLength":4},
                   "n":{"type":["integer","null"],"exclusiveMinimum":0,"exclusiveMaximum":10,"multipleOf":2},
                   "d":{"type":"number","minimum":-1.5,"maximum":2.25,"multipleOf":0.25},
                   "k":{"const":"x"}, "e":{"enum":["a",1,true,null,[1],{"a":1}]}},
                 "patternProperties":{"^x-":{"type":"string","pattern":"^[a-z]+$"},"^x-n":{"maxLength":3}},
                 "propertyNames":{"maxLength":5},
                 "additionalProperties":false,
                 "dependencies":{"n":["d"],"d":{"required":["id"],"properties":{"id":{"pattern":"^a"}}}}}
                """, List.of("{\"id\":\"ab\",\"n\":4,\"d\":1.75,\"k\":\"x\",\"x-ab\":\"q\"}", "{\"id\":\"ab\",\"e\":\"a\"}",
                "{\"id\":\"a😀\",\"e\":true,\"x-no\":\"abc\"}")));
        out.add(new Case("arrays", Draft.DRAFT_7, """
                {"type":"array","minItems":1,"maxItems":5,
                 "items":[{"type":"string","format":"date-time"},{"type":"integer","minimum":0},{"format":"email"}],
                 "additionalItems":{"type":"boolean"},
                 "contains":{"type":"integer","maximum":3}}
                """, List.of("[\"2026-11-30T09:15:02Z\",2,\"a@b.example\",true]", "[\"2026-02-28T00:00:00+01:00\",0]")));
        out.add(new Case("arrays-all", Draft.DRAFT_6, """
                {"items":{"type":"object","properties":{"v":{"type":"number","exclusiveMaximum":5}}},"uniqueItems":true,
                 "additionalItems":false}
                """, List.of("[{\"v\":1}]", "[{\"v\":4.99}]", "[]", "[{}]")));
        out.add(new Case("combinators", Draft.DRAFT_7, """
                {"definitions":{"node":{"type":"object","required":["v"],"properties":{"v":{"type":"integer"},
                   "next":{"$ref":"#/definitions/node"}}}},
                 "allOf":[{"$ref":"#/definitions/node"},{"properties":{"v":{"maximum":100}}}],
                 "anyOf":[{"required":["a"]},{"required":["b"],"properties":{"b":{"type":"string"}}},{"not":{"required":["c"]}}],
                 "properties":{"o":{"oneOf":[{"type":"string"},{"type":"integer"}]},
                   "i":{"if":{"type":"string"},"then":{"minLength":2},"else":{"type":"integer"}},
                   "f":false,"t":true}}
                """, List.of("{\"v\":1,\"a\":0}", "{\"v\":1,\"b\":\"x\",\"next\":{\"v\":2,\"next\":{\"v\":3}}}", "{\"v\":5,\"t\":[1],\"b\":\"zz\"}")));
        out.add(new Case("draft4", Draft.DRAFT_4, """
                {"type":"object","properties":{"n":{"type":"number","minimum":0,"exclusiveMinimum":true,"maximum":1,
                   "exclusiveMaximum":true},"i":{"type":"integer","maximum":9007199254740992},
                   "s":{"type":"string","enum":["low","high"]}},"additionalProperties":{"type":["string","boolean"]}}
                """, List.of("{\"n\":0.5,\"i\":9007199254740992,\"s\":\"low\",\"z\":true}", "{\"n\":0.999,\"x\":\"y\"}")));
        out.add(new Case("types", Draft.DRAFT_7, """
                {"type":["object","array","string","number","boolean","null"],"minLength":1,"minimum":0,"maxItems":2,
                 "required":["a"]}
                """, List.of("{\"a\":1}", "[1,2]", "\"s\"", "0", "true", "null", "1.5")));
        return out;
    }

    @Test
    void fastPathAcceptsOnlyWhatEveritAcceptsAndVerdictsAreEverits() throws Exception {
        Random random = new Random(45);
        int inputs = 0;
        int everitValid = 0;
        int fastValid = 0;
        for (Case c : cases()) {
            Schemas schemas;
            String jobType = c.name();
            Schema schema;
            if (c.schema() == null) {
                schemas = SamplePayloads.schemas();
                schema = everit(resource("schemas/" + c.name() + ".json"), c.draft());
            } else {
                schemas = Schemas.builder().defaultDraft(c.draft()).fromJson(c.name(), c.schema()).build();
                schema = everit(c.schema(), c.draft());
            }
            ValidFastPath fast = ValidFastPath.compile(schema);
            assertNotNull(fast, c.name());
            for (String seed : c.seeds()) {
                assertTrue(fast.certainlyValid(parse(seed)), c.name() + ": the seed " + seed + " must take the fast path");
                List<String> texts = substitutions(seed);
                for (int i = 0; i < 1500; i++) {
                    Object value = parse(seed);
                    int mutations = 1 + random.nextInt(3);
                    for (int m = 0; m < mutations; m++) {
                        value = mutate(value, random, 0);
                    }
                    texts.add(value instanceof String s ? JSONObject.quote(s) : String.valueOf(value));
                }
                for (String text : texts) {
                    inputs++;
                    Object forEverit = parse(text);
                    String before = String.valueOf(forEverit);
                    ValidationException failure = null;
                    try {
                        EVERIT.performValidation(schema, forEverit);
                    } catch (ValidationException e) {
                        failure = e;
                    } catch (RuntimeException e) {
                        failure = new ValidationException(schema, "everit failed: " + e, "schema", "#");
                    }
                    assertEquals(before, String.valueOf(forEverit), "everit changed the value: " + text);
                    boolean fastSays = fast.certainlyValid(parse(text));
                    if (failure == null) {
                        everitValid++;
                    }
                    if (fastSays) {
                        fastValid++;
                        if (failure != null) {
                            fail(c.name() + ": the fast path accepts what everit rejects (" + failure.getAllMessages() + "): " + text);
                        }
                    }
                    Verdict v = schemas.validate(jobType, text);
                    if (failure == null) {
                        assertInstanceOf(Accepted.class, v, text);
                    } else if (v instanceof Invalid inv) {
                        // as a multiset: this schema instance is compiled apart from the registry's, and everit's order
                        // of patternProperties follows the identity hash codes of its Regexp handlers
                        assertEquals(sorted(violations(failure)), sorted(inv.violations()), text);
                    } else {
                        assertInstanceOf(Malformed.class, v, text);
                        assertEquals(Malformed.Kind.VALIDATOR_FAILED, ((Malformed) v).kind(), text);
                    }
                }
            }
        }
        // the generated inputs are meaningful: many valid ones, and most of those take the fast path
        assertTrue(everitValid > inputs / 10, everitValid + " of " + inputs + " valid");
        assertTrue(fastValid > everitValid / 2, fastValid + " of " + everitValid + " valid inputs took the fast path");
        System.out.println("ValidFastPathTest: " + inputs + " inputs, " + everitValid + " valid (everit), " + fastValid
                + " of them accepted by the fast path");
    }

    @Test
    void notCoveredRootsHaveNoFastPath() {
        assertNull(ValidFastPath.compile(everit("{\"oneOf\":[{\"type\":\"string\"},{\"type\":\"integer\"}]}", Draft.DRAFT_7)));
        assertNull(ValidFastPath.compile(everit("{\"not\":{\"type\":\"string\"}}", Draft.DRAFT_7)));
    }

    @Test
    void valuesBeyondTheFastPathStillGetEveritsVerdict() {
        Schemas s = Schemas.builder().fromJson("t", """
                {"type":"object","properties":{"u":{"type":"array","uniqueItems":true},
                 "o":{"oneOf":[{"type":"string"},{"type":"integer"}]}}}
                """).build();
        assertInstanceOf(Accepted.class, s.validate("t", "{\"u\":[1,2],\"o\":1}"));
        Invalid dup = assertInstanceOf(Invalid.class, s.validate("t", "{\"u\":[1,1.0]}"));
        assertEquals("uniqueItems", dup.violations().get(0).keyword());
        Invalid neither = assertInstanceOf(Invalid.class, s.validate("t", "{\"o\":[]}"));
        assertEquals("#/o", neither.violations().get(0).pointer());
    }

    /**
     * Every single change of the seed: each member (at any depth) replaced by each value of the pool or
     * removed, and each key of the list added to each object with each value of the pool.
     */
    private static List<String> substitutions(String seed) {
        List<String> out = new ArrayList<>();
        for (List<Object> path : paths(parse(seed), new ArrayList<>(), new ArrayList<>())) {
            for (Object v : POOL) {
                out.add(replaced(seed, path, v));
            }
            out.add(replaced(seed, path, REMOVE));
            if (path.isEmpty() || !(at(parse(seed), path) instanceof JSONObject)) {
                continue;
            }
            for (String k : KEYS) {
                for (Object v : new Object[] {"a", 1, JSONObject.NULL, new JSONObject(), new JSONArray()}) {
                    Object root = parse(seed);
                    ((JSONObject) at(root, path)).put(k, v);
                    out.add(String.valueOf(root));
                }
            }
        }
        return out;
    }

    private static final Object REMOVE = new Object();

    private static List<List<Object>> paths(Object v, List<Object> prefix, List<List<Object>> out) {
        out.add(new ArrayList<>(prefix));
        if (v instanceof JSONObject o) {
            for (String k : o.keySet()) {
                prefix.add(k);
                paths(o.get(k), prefix, out);
                prefix.remove(prefix.size() - 1);
            }
        } else if (v instanceof JSONArray a) {
            for (int i = 0; i < a.length(); i++) {
                prefix.add(i);
                paths(a.get(i), prefix, out);
                prefix.remove(prefix.size() - 1);
            }
        }
        return out;
    }

    private static Object at(Object root, List<Object> path) {
        Object cur = root;
        for (Object step : path) {
            cur = step instanceof String k ? ((JSONObject) cur).get(k) : ((JSONArray) cur).get((Integer) step);
        }
        return cur;
    }

    private static String replaced(String seed, List<Object> path, Object value) {
        if (path.isEmpty()) {
            return value == REMOVE ? "{}" : value instanceof String s ? JSONObject.quote(s) : String.valueOf(value);
        }
        Object root = parse(seed);
        Object parent = at(root, path.subList(0, path.size() - 1));
        Object last = path.get(path.size() - 1);
        if (parent instanceof JSONObject o) {
            if (value == REMOVE) {
                o.remove((String) last);
            } else {
                o.put((String) last, value);
            }
        } else if (value == REMOVE) {
            ((JSONArray) parent).remove((Integer) last);
        } else {
            ((JSONArray) parent).put((Integer) last, value);
        }
        return String.valueOf(root);
    }

    /**
     * everit runs out of stack on deeply nested values (VALIDATOR_FAILED, at a depth that depends on the
     * stack size): the fast path leaves values nested deeper than 32 levels, and reference cycles that
     * do not descend, to everit, so the verdict stays everit's.
     */
    @Test
    void deepValuesAndReferenceCyclesAreLeftToEverit() {
        ValidFastPath fast = ValidFastPath.compile(everit("{\"definitions\":{\"n\":{\"type\":\"array\","
                + "\"items\":{\"$ref\":\"#/definitions/n\"}}},\"$ref\":\"#/definitions/n\"}", Draft.DRAFT_7));
        assertTrue(fast.certainlyValid(parse("[".repeat(10) + "]".repeat(10))));
        assertEquals(false, fast.certainlyValid(parse("[".repeat(40) + "]".repeat(40))));
        ValidFastPath cycle = ValidFastPath.compile(everit("{\"allOf\":[{\"$ref\":\"#\"}],\"type\":\"object\"}", Draft.DRAFT_7));
        assertEquals(false, cycle.certainlyValid(parse("{}")));
    }

    /** everit's schema for a document, compiled as the registry compiles it (guard's formats and regexes). */
    private static Schema everit(String schemaJson, Draft draft) {
        Object json = parse(schemaJson);
        SchemaCompiler.Result r = new SchemaCompiler(Map.of(), false, Formats.validators()).compile(json, draft, null);
        assertTrue(r.problems().isEmpty(), r.problems().toString());
        return ((EveritCompiled) r.schema()).schema();
    }

    private static String resource(String path) {
        try (InputStream in = ValidFastPathTest.class.getClassLoader().getResourceAsStream(path)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static List<String> sorted(List<SchemaViolation> violations) {
        return violations.stream().map(String::valueOf).sorted().toList();
    }

    private static List<SchemaViolation> violations(ValidationException ve) {
        List<SchemaViolation> out = new ArrayList<>();
        collect(ve, out);
        return out;
    }

    private static void collect(ValidationException ve, List<SchemaViolation> out) {
        if (ve.getCausingExceptions().isEmpty()) {
            out.add(new SchemaViolation(ve.getPointerToViolation(), ve.getKeyword() == null ? "schema" : ve.getKeyword(),
                    ve.getErrorMessage()));
            return;
        }
        for (ValidationException cause : ve.getCausingExceptions()) {
            collect(cause, out);
        }
    }

    private static Object parse(String text) {
        Json.Read r = JSON.read(text);
        if (r instanceof Json.Value v) {
            return v.value();
        }
        throw new IllegalStateException(text + ": " + r);
    }

    private static final Object[] POOL = {
        "", "a", "ab", "abc", "x", "q", "low", "high", "send-email", "en-GB", "EN", "order-confirmation", "Ada",
        "2026-11-30T09:15:02.123Z", "2026-02-30T00:00:00Z", "2026-11-30 09:15:02Z", "ada.lovelace@example.com",
        "not an email", "a@b", "😀", "😀😀😀", "a😀", "x".repeat(129), "s3://img/1.png",
        0, -1, 1, 2, 3, 4, 5, 9, 10, 100, 101, 640, Integer.MAX_VALUE, 2147483648L, 9007199254740993L, -9007199254740993L,
        new BigInteger("1180591620717411303424"), new BigDecimal("0.5"), new BigDecimal("1.75"), new BigDecimal("2.25"),
        new BigDecimal("2.3"), new BigDecimal("-1.5"), new BigDecimal("4.99"), new BigDecimal("0.999"), new BigDecimal("1e-400"),
        Boolean.TRUE, Boolean.FALSE, JSONObject.NULL,
    };

    private static final String[] KEYS = {"job_id", "id", "type", "attempt", "params", "first_name", "amount_cents",
        "attachments", "name", "url", "size_bytes", "trace", "locale", "priority", "n", "d", "k", "e", "x-ab", "x-no",
        "x-n", "longkey", "v", "next", "a", "b", "c", "o", "i", "f", "t", "s", "z", "width", "height", "u"};

    private static Object randomValue(Random r, int depth) {
        int k = r.nextInt(10);
        if (k == 0 && depth < 4) {
            JSONObject o = new JSONObject();
            int n = r.nextInt(3);
            for (int i = 0; i < n; i++) {
                o.put(KEYS[r.nextInt(KEYS.length)], randomValue(r, depth + 1));
            }
            return o;
        }
        if (k == 1 && depth < 4) {
            JSONArray a = new JSONArray();
            int n = r.nextInt(4);
            for (int i = 0; i < n; i++) {
                a.put(randomValue(r, depth + 1));
            }
            return a;
        }
        return POOL[r.nextInt(POOL.length)];
    }

    /** One random change somewhere in the value: remove, add, replace or rename a member, or tweak a leaf. */
    private static Object mutate(Object value, Random r, int depth) {
        if (value instanceof JSONObject o && o.length() > 0 && r.nextInt(3) > 0) {
            List<String> keys = new ArrayList<>(o.keySet());
            String key = keys.get(r.nextInt(keys.size()));
            switch (r.nextInt(6)) {
                case 0 -> o.remove(key);
                case 1 -> o.put(KEYS[r.nextInt(KEYS.length)], randomValue(r, depth));
                case 2 -> {
                    Object v = o.remove(key);
                    o.put(key.substring(0, key.length() - 1) + "_", v);
                }
                default -> o.put(key, mutate(o.get(key), r, depth + 1));
            }
            return o;
        }
        if (value instanceof JSONArray a && a.length() > 0 && r.nextInt(3) > 0) {
            int i = r.nextInt(a.length());
            switch (r.nextInt(5)) {
                case 0 -> a.remove(i);
                case 1 -> a.put(randomValue(r, depth));
                default -> a.put(i, mutate(a.get(i), r, depth + 1));
            }
            return a;
        }
        if (value instanceof String s && r.nextBoolean()) {
            return switch (r.nextInt(4)) {
                case 0 -> s.isEmpty() ? "x" : s.substring(0, s.length() - 1);
                case 1 -> s + "A";
                case 2 -> "😀" + s;
                default -> s.toUpperCase(java.util.Locale.ROOT);
            };
        }
        if ((value instanceof Integer || value instanceof Long) && r.nextBoolean()) {
            long l = ((Number) value).longValue() + (r.nextBoolean() ? 1 : -1);
            return l == (int) l ? (Object) (int) l : (Object) l;
        }
        return randomValue(r, depth);
    }
}
