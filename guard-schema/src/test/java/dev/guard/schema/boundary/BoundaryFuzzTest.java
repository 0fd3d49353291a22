package dev.guard.schema.boundary;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.guard.schema.Accepted;
import dev.guard.schema.Malformed;
import dev.guard.schema.Outcome;
import dev.guard.schema.SamplePayloads;
import dev.guard.schema.Schemas;
import dev.guard.schema.SourceInfo;
import dev.guard.schema.deadletter.DeadLetter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.core.config.Configurator;
import org.junit.jupiter.api.Test;

/**
 * 12,000 generated payloads through one {@link JobBoundary}. The generator knows, for each payload,
 * what the send-email schema makes of it: every payload starts from a valid job and is changed in a
 * way whose effect is known (a required key renamed or dropped, a value of a type the schema does not
 * allow, a structural character broken, nesting past the limit, ...). That expectation, not whether
 * the handler ran, is the oracle: valid => the handler runs and the job is PROCESSED (or FAILED when
 * the test's handler throws), invalid => REJECTED as invalid, malformed => REJECTED with that kind.
 * Every payload ends in exactly one outcome in the ledger and at most one dead letter, which keeps the
 * original bytes. Fixed seed (printed); rerun another with {@code -Dguard.fuzz.seed=N}.
 */
class BoundaryFuzzTest {

    static final int N = 12_000;
    static final String[] FIELDS = {"job_id", "type", "created_at", "attempt", "priority", "user_email", "template",
        "locale", "params", "attachments", "trace"};
    /** The send-email schema's required top-level keys (schemas/send-email.json), written out. */
    static final Set<String> REQUIRED = Set.of("job_id", "type", "created_at", "attempt", "user_email", "template", "params");
    /** The JSON type the schema allows for each top-level field. */
    static final Map<String, String> TYPE = Map.ofEntries(Map.entry("job_id", "string"), Map.entry("type", "string"),
            Map.entry("created_at", "string"), Map.entry("attempt", "integer"), Map.entry("priority", "string"),
            Map.entry("user_email", "string"), Map.entry("template", "string"), Map.entry("locale", "string"),
            Map.entry("params", "object"), Map.entry("attachments", "array"), Map.entry("trace", "object"));
    /** Literal values by JSON type. */
    static final String[][] VALUES_BY_TYPE = {{"string", "\"12345\""}, {"integer", "12345"}, {"number", "-0.5"},
        {"boolean", "true"}, {"null", "null"}, {"array", "[1,2]"}, {"object", "{\"x\":1}"}};

    /** What the schema makes of a payload. */
    enum Verdict { VALID, INVALID, MALFORMED, ANY_REJECTION }

    /** The expected verdict; {@code kind} only for MALFORMED. */
    record Expected(Verdict verdict, Malformed.Kind kind) {
        static final Expected VALID = new Expected(Verdict.VALID, null);
        static final Expected INVALID = new Expected(Verdict.INVALID, null);
        /** Random input: certainly not a valid send-email job, the reason unknown. */
        static final Expected ANY_REJECTION = new Expected(Verdict.ANY_REJECTION, null);

        static Expected malformed(Malformed.Kind kind) {
            return new Expected(Verdict.MALFORMED, kind);
        }

        /** The start of the dead letter's reason for a rejection. */
        String reasonPrefix() {
            return verdict == Verdict.INVALID ? "invalid" : "malformed (" + kind.name().toLowerCase(Locale.ROOT) + ")";
        }

        @Override
        public String toString() {
            return verdict == Verdict.MALFORMED ? reasonPrefix() : verdict.name().toLowerCase(Locale.ROOT);
        }
    }

    /** One generated payload and what it must come to. */
    record Case(byte[] payload, Expected expected) {}

    /** A generator of one kind: payload number i from random r. */
    interface Generator {
        Case generate(int i, Random r);
    }

    static final Schemas SCHEMAS = SamplePayloads.schemas();

    @Test
    void everyPayloadEndsInTheOutcomeItsConstructionDemands() {
        long seed = Long.getLong("guard.fuzz.seed", 20261130L);
        System.out.println("BoundaryFuzzTest seed=" + seed + " payloads=" + N + " (rerun: -Dguard.fuzz.seed=" + seed + ")");
        Random r = new Random(seed);
        Random handlerDice = new Random(seed ^ 0x5DEECE66DL);
        List<DeadLetter> letters = new ArrayList<>();
        JobBoundary<Accepted> boundary = JobBoundary.builder().schemas(SCHEMAS).jobType("send-email")
                .deadLetters(letters::add).consumer("fuzz").build();
        String[] names = GENERATORS.keySet().toArray(new String[0]);

        Map<String, Integer> generated = new TreeMap<>();
        Map<String, Integer> processedByKind = new TreeMap<>();
        EnumMap<Outcome, Integer> expectedOutcomes = new EnumMap<>(Outcome.class);
        List<String> wrong = new ArrayList<>();
        Set<String> reasons = new TreeSet<>();
        Configurator.setLevel(JobBoundary.class.getName(), Level.ERROR); // the WARN lines: BoundaryLogLinesTest
        try {
            for (int i = 0; i < N; i++) {
                String kind = names[r.nextInt(names.length)];
                Case c = GENERATORS.get(kind).generate(i, r);
                generated.merge(kind, 1, Integer::sum);
                int dice = handlerDice.nextInt(10); // the test decides up front whether its handler throws
                Outcome want = c.expected().verdict() != Verdict.VALID ? Outcome.REJECTED
                        : dice < 3 ? Outcome.FAILED : Outcome.PROCESSED;
                expectedOutcomes.merge(want, 1, Integer::sum);
                int lettersBefore = letters.size();
                boolean[] ran = {false};
                String what = "payload " + i + " (" + kind + ", expected " + c.expected() + ", " + want + ")";
                Outcome got;
                try {
                    got = boundary.handle(c.payload(), SourceInfo.kafka("fuzz", i % 3, i), job -> {
                        ran[0] = true;
                        job.string("job_id");
                        if (dice == 0) {
                            throw new IOException("downstream timeout for " + job.object().get("template"));
                        } else if (dice == 1) {
                            throw new IllegalStateException();
                        } else if (dice == 2) {
                            Object nothing = null;
                            nothing.hashCode();
                        }
                    });
                } catch (Throwable t) {
                    wrong.add(what + ": escaped the boundary: " + t);
                    continue;
                }
                String problem = check(c, want, got, ran[0], letters.subList(lettersBefore, letters.size()));
                if (problem != null) {
                    wrong.add(what + ": " + problem);
                }
                if (got == Outcome.PROCESSED) {
                    processedByKind.merge(kind, 1, Integer::sum);
                }
                if (letters.size() > lettersBefore) {
                    reasons.add(reasonClass(letters.get(letters.size() - 1).reason()));
                }
            }
        } finally {
            Configurator.setLevel(JobBoundary.class.getName(), Level.WARN);
        }
        Reconciliation rec = boundary.ledger().reconcile();
        System.out.println("BoundaryFuzzTest generated=" + generated + " expected=" + expectedOutcomes);
        System.out.println("BoundaryFuzzTest ledger: " + rec.summaryLine());

        assertTrue(wrong.isEmpty(), wrong.size() + " payload(s) did not end as their construction demands:\n"
                + String.join("\n", wrong.subList(0, Math.min(20, wrong.size()))));
        // every input ends in exactly one recorded outcome, the one expected
        assertEquals(N, rec.received(), "every payload is received once");
        assertTrue(rec.balanced(), rec.summaryLine());
        assertEquals(count(expectedOutcomes, Outcome.PROCESSED), rec.processed(), "processed: " + rec.summaryLine());
        assertEquals(count(expectedOutcomes, Outcome.FAILED), rec.failed(), "failed: " + rec.summaryLine());
        assertEquals(count(expectedOutcomes, Outcome.REJECTED), rec.rejected(), "rejected: " + rec.summaryLine());
        assertEquals(0, rec.handedBack(), rec.summaryLine());
        assertEquals(rec.rejected() + rec.failed(), letters.size(), "one dead letter per rejected or failed payload");

        // the generators really reached every kind, every valid kind was processed, every rejection reason was seen
        assertEquals(GENERATORS.keySet(), generated.keySet(), "kinds generated");
        Set<String> validKinds = new TreeSet<>(List.of("valid", "valid-variant", "valid-unicode", "letter-flips",
                "huge-string", "dropped-key"));
        assertTrue(processedByKind.keySet().containsAll(validKinds), "kinds with a PROCESSED payload: " + processedByKind);
        assertEquals(Set.of("invalid", "failed", "malformed (not_json)", "malformed (not_utf8)", "malformed (too_deep)",
                "malformed (too_large)", "malformed (duplicate_key)", "malformed (number_out_of_range)"), reasons);
        assertTrue(letters.stream().anyMatch(d -> d.hints().stream().anyMatch(h -> h.endsWith("renamed by the producer?"))),
                "a renamed key must get a rename hint");
        assertTrue(letters.stream().anyMatch(d -> d.hints().stream().anyMatch(h -> h.endsWith("type changed by the producer?"))),
                "a retyped value must get a type-change hint");
    }

    /** Null when the payload ended as expected, else what went wrong. */
    private static String check(Case c, Outcome want, Outcome got, boolean ran, List<DeadLetter> newLetters) {
        if (got != want) {
            return "ended " + got + (newLetters.isEmpty() ? "" : " (" + newLetters.get(0).reason() + ")");
        }
        boolean valid = c.expected().verdict() == Verdict.VALID;
        if (ran != valid) {
            return valid ? "the handler did not run on a valid job" : "the handler ran on a rejected job";
        }
        if (want == Outcome.PROCESSED) {
            return newLetters.isEmpty() ? null : "a processed job was dead-lettered: " + newLetters;
        }
        if (newLetters.size() != 1) {
            return newLetters.size() + " dead letters instead of 1";
        }
        DeadLetter letter = newLetters.get(0);
        if (!java.util.Arrays.equals(c.payload(), letter.originalPayload())) {
            return "the dead letter does not keep the original bytes";
        }
        if (letter.outcome() != want) {
            return "the dead letter says " + letter.outcome();
        }
        String reason = letter.reason();
        if (want == Outcome.FAILED) {
            return reason.startsWith("handler threw") ? null : "failed, but the reason is: " + reason;
        }
        if (c.expected().verdict() == Verdict.ANY_REJECTION) {
            return null;
        }
        return reason.startsWith(c.expected().reasonPrefix()) ? null : "rejected for another reason: " + reason;
    }

    private static String reasonClass(String reason) {
        return reason.startsWith("invalid") ? "invalid" : reason.startsWith("handler threw") ? "failed"
                : reason.substring(0, reason.indexOf(')') + 1);
    }

    private static int count(Map<Outcome, Integer> counts, Outcome o) {
        return counts.getOrDefault(o, 0);
    }

    // ---- the generators: a valid job, changed in ways whose effect on validity is known ----

    static final Map<String, Generator> GENERATORS = new TreeMap<>(Map.ofEntries(
            Map.entry("valid", (i, r) -> new Case(utf8(valid(i)), Expected.VALID)),
            Map.entry("valid-variant", BoundaryFuzzTest::validVariant),
            Map.entry("valid-unicode", (i, r) -> new Case(utf8(valid(i).replace("Ada", "\u00c5da \u6f22\u5b57 \ud83d\ude00")),
                    Expected.VALID)),
            Map.entry("letter-flips", BoundaryFuzzTest::letterFlips),
            Map.entry("huge-string", BoundaryFuzzTest::hugeString),
            Map.entry("dropped-key", BoundaryFuzzTest::droppedKey),
            Map.entry("renamed-key", BoundaryFuzzTest::renamedKey),
            Map.entry("wrong-type", BoundaryFuzzTest::wrongType),
            Map.entry("attempt-out-of-range", (i, r) -> new Case(utf8(replaceValue(valid(i), "attempt",
                    Integer.toString(r.nextBoolean() ? -1 - r.nextInt(1000) : 101 + r.nextInt(1_000_000)))), Expected.INVALID)),
            Map.entry("huge-number", BoundaryFuzzTest::hugeNumber),
            Map.entry("truncated", (i, r) -> {
                byte[] b = utf8(valid(i));
                byte[] t = new byte[r.nextInt(b.length)]; // any proper prefix of an object is unfinished JSON
                System.arraycopy(b, 0, t, 0, t.length);
                return new Case(t, Expected.malformed(Malformed.Kind.NOT_JSON));
            }),
            Map.entry("structural-break", BoundaryFuzzTest::structuralBreak),
            Map.entry("deep-nesting", BoundaryFuzzTest::deepNesting),
            Map.entry("extra-nesting", (i, r) -> new Case(utf8(SamplePayloads.nested("fz-" + i)), Expected.INVALID)),
            Map.entry("hostile-token", BoundaryFuzzTest::hostileToken),
            Map.entry("random-json", (i, r) -> {
                boolean[] duplicate = {false};
                String json = randomJson(r, 0, duplicate);
                return new Case(utf8(json), duplicate[0] ? Expected.malformed(Malformed.Kind.DUPLICATE_KEY) : Expected.INVALID);
            }),
            Map.entry("random-bytes", (i, r) -> {
                byte[] b = new byte[r.nextInt(2000)];
                r.nextBytes(b);
                return new Case(b, Expected.ANY_REJECTION);
            })));

    static String valid(int i) {
        return SamplePayloads.valid("fz-" + i);
    }

    /** Another value the schema allows, per field. */
    static Case validVariant(int i, Random r) {
        String field = FIELDS[r.nextInt(FIELDS.length)];
        String value = switch (field) {
            case "job_id" -> "\"alt-" + i + "\"";
            case "type" -> "\"send-email\"";
            case "created_at" -> "\"2027-02-03T04:05:06Z\"";
            case "attempt" -> Integer.toString(r.nextInt(101));
            case "priority" -> r.nextBoolean() ? "\"low\"" : "\"high\"";
            case "user_email" -> "\"bo@example.org\"";
            case "template" -> "\"welcome-2\"";
            case "locale" -> r.nextBoolean() ? "\"fr\"" : "\"de-DE\"";
            case "params" -> "{\"first_name\":\"Bo\",\"n\":3,\"ok\":true}";
            case "attachments" -> r.nextBoolean() ? "[]" : "[{\"name\":\"a.pdf\",\"url\":\"u\"}]";
            default -> "{}"; // trace
        };
        return new Case(utf8(replaceValue(valid(i), field, value)), Expected.VALID);
    }

    /** 1-5 letters of the free-text notes replaced by other letters: still valid. */
    static Case letterFlips(int i, Random r) {
        String v = valid(i);
        int from = v.indexOf("\"notes\":\"") + "\"notes\":\"".length();
        int to = v.lastIndexOf('"');
        char[] c = v.toCharArray();
        for (int f = 1 + r.nextInt(5); f > 0; f--) {
            c[from + r.nextInt(to - from)] = (char) ('a' + r.nextInt(26));
        }
        return new Case(utf8(new String(c)), Expected.VALID);
    }

    /** The notes grown: valid up to the size limit, too large beyond it. */
    static Case hugeString(int i, Random r) {
        int size = r.nextInt(20) == 0 ? (1 << 20) + r.nextInt(1000) : 1000 + r.nextInt(200_000);
        byte[] b = utf8(valid(i).replace("\"notes\":\"", "\"notes\":\"" + "x".repeat(size)));
        return new Case(b, b.length > SCHEMAS.maxBytes() ? Expected.malformed(Malformed.Kind.TOO_LARGE) : Expected.VALID);
    }

    /** A top-level key removed: invalid when the schema requires it. */
    static Case droppedKey(int i, Random r) {
        String field = FIELDS[r.nextInt(FIELDS.length)];
        String json = replaceValue(valid(i), field, "0").replace("\"" + field + "\":0,", "");
        return new Case(utf8(json), REQUIRED.contains(field) ? Expected.INVALID : Expected.VALID);
    }

    /** A required key renamed the way producers do. */
    static Case renamedKey(int i, Random r) {
        String[][] renames = {{"job_id", "id"}, {"job_id", "jobId"}, {"user_email", "email"}, {"created_at", "createdAt"},
            {"template", "template_name"}, {"job_id", "uuid"}};
        String[] ren = renames[r.nextInt(renames.length)];
        return new Case(utf8(valid(i).replace("\"" + ren[0] + "\":", "\"" + ren[1] + "\":")), Expected.INVALID);
    }

    /** A value of a JSON type the schema does not allow for that field. */
    static Case wrongType(int i, Random r) {
        String field = FIELDS[r.nextInt(FIELDS.length)];
        List<String> wrong = new ArrayList<>();
        for (String[] tv : VALUES_BY_TYPE) {
            if (!tv[0].equals(TYPE.get(field))) {
                wrong.add(tv[1]);
            }
        }
        return new Case(utf8(replaceValue(valid(i), field, wrong.get(r.nextInt(wrong.size())))), Expected.INVALID);
    }

    /** Numbers beyond a double: out of range anywhere; extreme finite ones: invalid wherever they go. */
    static Case hugeNumber(int i, Random r) {
        String[] beyondDouble = {"1e400", "-1e400", "1.7976931348623157e309"};
        if (r.nextBoolean()) {
            String field = FIELDS[r.nextInt(FIELDS.length)];
            return new Case(utf8(replaceValue(valid(i), field, beyondDouble[r.nextInt(beyondDouble.length)])),
                    Expected.malformed(Malformed.Kind.NUMBER_OUT_OF_RANGE));
        }
        // integers outside attempt's 0..100, or any number where the schema wants no number at all
        String[] outOfAttemptRange = {"1" + "0".repeat(300), "123456789012345678901234567890", "-9223372036854775809"};
        String[] anyNumber = {"1" + "0".repeat(300), "123456789012345678901234567890", "-9223372036854775809", "1e-400",
            "0." + "9".repeat(500)};
        boolean attempt = r.nextBoolean();
        String field = attempt ? "attempt" : FIELDS[r.nextInt(FIELDS.length)];
        String[] pool = field.equals("attempt") ? outOfAttemptRange : anyNumber;
        return new Case(utf8(replaceValue(valid(i), field, pool[r.nextInt(pool.length)])), Expected.INVALID);
    }

    /** One structural character (outside strings) or quote replaced by '#': not JSON any more. */
    static Case structuralBreak(int i, Random r) {
        String v = valid(i);
        List<Integer> structural = new ArrayList<>();
        boolean inString = false;
        for (int k = 0; k < v.length(); k++) {
            char ch = v.charAt(k);
            if (inString) {
                if (ch == '\\') {
                    k++;
                } else if (ch == '"') {
                    inString = false;
                    structural.add(k);
                }
            } else {
                if (ch == '"') {
                    inString = true;
                }
                if ("{}[]:,\"".indexOf(ch) >= 0) {
                    structural.add(k);
                }
            }
        }
        char[] c = v.toCharArray();
        c[structural.get(r.nextInt(structural.size()))] = '#';
        return new Case(utf8(new String(c)), Expected.malformed(Malformed.Kind.NOT_JSON));
    }

    /** Nested objects or arrays: too large, too deep, unfinished or (as a job) invalid, from the size and depth. */
    static Case deepNesting(int i, Random r) {
        int depth = r.nextBoolean() ? 1 + r.nextInt(200) : 1 + r.nextInt(200_000);
        boolean objects = r.nextBoolean();
        String open = objects ? "{\"a\":" : "[";
        String close = objects ? "}" : "]";
        boolean innerJob = r.nextBoolean();
        String inner = innerJob ? valid(i) : "1";
        boolean closed = r.nextBoolean();
        byte[] b = utf8(open.repeat(depth) + inner + (closed ? close.repeat(depth) : ""));
        int totalDepth = depth + (innerJob ? 3 : 0); // a valid job nests 3 levels: itself, attachments, an attachment
        Expected e = b.length > SCHEMAS.maxBytes() ? Expected.malformed(Malformed.Kind.TOO_LARGE)
                : totalDepth > SCHEMAS.maxDepth() ? Expected.malformed(Malformed.Kind.TOO_DEEP)
                : !closed ? Expected.malformed(Malformed.Kind.NOT_JSON)
                : Expected.INVALID; // the outermost value is not a send-email job
        return new Case(b, e);
    }

    /** Tokens JSON does not have, a duplicate key, bytes that are not UTF-8. */
    static Case hostileToken(int i, Random r) {
        String valid = valid(i);
        if (r.nextInt(3) == 0) {
            byte[] b = utf8(valid);
            // a lead byte without its continuation bytes, or a byte UTF-8 never uses. (Not here: an encoded
            // surrogate ED A0 80 and the overlong C0 80 are not UTF-8 either, but the boundary accepts them
            // today, and F4 90 80 80 comes out as not_json: a known gap, reported with issue 12.)
            byte[][] bad = {{(byte) 0xC3, (byte) 0x28}, {(byte) 0xE2, (byte) 0x82}, {(byte) 0xF0, (byte) 0x28, (byte) 0x8C, (byte) 0x28},
                {(byte) 0xFF}, {(byte) 0xFE}};
            byte[] ins = bad[r.nextInt(bad.length)];
            System.arraycopy(ins, 0, b, valid.indexOf("Ada"), ins.length);
            return new Case(b, Expected.malformed(Malformed.Kind.NOT_UTF8));
        }
        Object[][] hostile = {
            {valid.replace("\"attempt\":0", "\"attempt\":NaN"), Malformed.Kind.NOT_JSON},
            {valid.replace("\"attempt\":0", "\"attempt\":Infinity"), Malformed.Kind.NOT_JSON},
            {valid.replace("\"attempt\":0,", "\"attempt\":0,\"attempt\":1,"), Malformed.Kind.DUPLICATE_KEY},
            {valid.replace("\"job_id\":", "'job_id':"), Malformed.Kind.NOT_JSON},
            {valid.replace("\"priority\":\"normal\"", "\"priority\":normal"), Malformed.Kind.NOT_JSON},
            {valid + "garbage", Malformed.Kind.NOT_JSON},
            {valid.replace("\"attempt\":0", "\"attempt\":0 /* comment */"), Malformed.Kind.NOT_JSON},
        };
        Object[] h = hostile[r.nextInt(hostile.length)];
        return new Case(utf8((String) h[0]), Expected.malformed((Malformed.Kind) h[1]));
    }

    /** Replaces the value of a top-level field (the first occurrence of "field":value up to the next top-level comma). */
    static String replaceValue(String json, String field, String value) {
        String key = "\"" + field + "\":";
        int start = json.indexOf(key);
        if (start < 0) {
            throw new IllegalArgumentException("no field " + field + " in the template");
        }
        int v = start + key.length();
        int depth = 0;
        boolean inString = false;
        int end = v;
        for (; end < json.length(); end++) {
            char c = json.charAt(end);
            if (inString) {
                if (c == '\\') {
                    end++;
                } else if (c == '"') {
                    inString = false;
                }
            } else if (c == '"') {
                inString = true;
            } else if (c == '{' || c == '[') {
                depth++;
            } else if (c == '}' || c == ']') {
                if (depth == 0) {
                    break;
                }
                depth--;
            } else if (c == ',' && depth == 0) {
                break;
            }
        }
        return json.substring(0, v) + value + json.substring(end);
    }

    /**
     * Random JSON that is never a valid send-email job (objects only ever get keys from FIELDS or
     * k0..k49, never params' required first_name); sets {@code duplicate[0]} when an object got a key
     * twice. Nesting stays far below the depth limit.
     */
    static String randomJson(Random r, int depth, boolean[] duplicate) {
        int k = depth > 6 ? 3 + r.nextInt(5) : r.nextInt(8);
        switch (k) {
            case 0: {
                StringBuilder sb = new StringBuilder("{");
                Set<String> keys = new HashSet<>();
                int n = r.nextInt(6);
                for (int j = 0; j < n; j++) {
                    String key = r.nextBoolean() ? FIELDS[r.nextInt(FIELDS.length)] : "k" + r.nextInt(50);
                    if (!keys.add(key)) {
                        duplicate[0] = true;
                    }
                    sb.append(j == 0 ? "" : ",").append('"').append(key).append("\":").append(randomJson(r, depth + 1, duplicate));
                }
                return sb.append('}').toString();
            }
            case 1: {
                StringBuilder sb = new StringBuilder("[");
                int n = r.nextInt(5);
                for (int j = 0; j < n; j++) {
                    sb.append(j == 0 ? "" : ",").append(randomJson(r, depth + 1, duplicate));
                }
                return sb.append(']').toString();
            }
            case 2:
                return "{\"job_id\":\"r\",\"type\":\"send-email\",\"created_at\":\"2026-01-01T00:00:00Z\",\"attempt\":" + r.nextInt(200)
                        + ",\"user_email\":\"" + (r.nextBoolean() ? "a@example.com" : "not-an-email") + "\",\"template\":\"t\",\"params\":"
                        + randomJson(r, depth + 1, duplicate) + "}";
            case 3:
                return Long.toString(r.nextLong());
            case 4:
                return Double.toString(r.nextGaussian() * 1e6);
            case 5:
                return "\"s" + r.nextInt(1000) + "\\u00e9\\n\"";
            case 6:
                return r.nextBoolean() ? "true" : "null";
            default:
                return "\"" + "y".repeat(r.nextInt(100)) + "\"";
        }
    }

    static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
