package dev.guard.schema.boundary;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.guard.schema.Accepted;
import dev.guard.schema.Jobs;
import dev.guard.schema.deadletter.DeadLetter;
import dev.guard.schema.deadletter.InMemoryDeadLetters;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.core.config.Configurator;
import org.junit.jupiter.api.Test;

/**
 * 12,000 generated and mutated payloads through one {@link JobBoundary} with an in-memory sink and a
 * handler that sometimes throws: every payload ends in exactly one outcome, nothing escapes, the
 * ledger balances, every dead letter carries the original bytes. Fixed seed (printed); rerun another
 * with {@code -Dguard.fuzz.seed=N}.
 */
class BoundaryFuzzTest {

    static final int N = 12_000;
    static final String[] FIELDS = {"job_id", "type", "created_at", "attempt", "priority", "user_email", "template",
        "locale", "params", "attachments", "trace"};

    @Test
    void everyPayloadEndsInExactlyOneOutcomeAndTheCountsBalance() {
        long seed = Long.getLong("guard.fuzz.seed", 20261130L);
        System.out.println("BoundaryFuzzTest seed=" + seed + " payloads=" + N + " (rerun: -Dguard.fuzz.seed=" + seed + ")");
        Random r = new Random(seed);
        Random handlerDice = new Random(seed ^ 0x5DEECE66DL);
        InMemoryDeadLetters sink = new InMemoryDeadLetters();
        JobBoundary<Accepted> boundary = JobBoundary.builder().schemas(Jobs.schemas()).jobType("send-email")
                .deadLetters(sink).consumer("fuzz").build();

        Map<String, Integer> generated = new TreeMap<>();
        Map<String, Double> millis = new TreeMap<>();
        EnumMap<Outcome, Integer> outcomes = new EnumMap<>(Outcome.class);
        List<byte[]> expectedLetters = new ArrayList<>();
        int[] counters = new int[3];
        List<String> escapes = new ArrayList<>();
        long t0 = System.nanoTime();
        // 10,000 WARN lines would only slow the run down; the lines themselves are asserted in BoundaryLogLinesTest
        Configurator.setLevel(JobBoundary.class.getName(), Level.ERROR);
        try {
            fuzz(boundary, r, handlerDice, generated, millis, outcomes, expectedLetters, escapes, counters);
        } finally {
            Configurator.setLevel(JobBoundary.class.getName(), Level.WARN);
        }
        int escaped = counters[0];
        int handlerRan = counters[1];
        int handlerThrew = counters[2];
        long ms = (System.nanoTime() - t0) / 1_000_000;
        Reconciliation rec = boundary.ledger().reconcile();
        System.out.println("BoundaryFuzzTest generated=" + generated + " outcomes=" + outcomes + " in " + ms + " ms");
        System.out.println("BoundaryFuzzTest ms by kind: " + millis);
        System.out.println("BoundaryFuzzTest ledger: " + rec.summaryLine());

        assertEquals(0, escaped, "exceptions escaped the boundary: " + escapes);
        assertEquals(N, rec.received());
        assertTrue(rec.balanced(), rec.summaryLine());
        assertEquals(rec.received(), rec.processed() + rec.rejected() + rec.failed() + rec.handedBack());
        assertEquals(handlerRan - handlerThrew, rec.processed());
        assertEquals(handlerThrew, rec.failed());
        List<DeadLetter> letters = sink.letters();
        assertEquals(rec.rejected() + rec.failed(), letters.size());
        for (int i = 0; i < letters.size(); i++) {
            assertArrayEquals(expectedLetters.get(i), letters.get(i).originalPayload(), "dead letter " + i + " keeps the original bytes");
        }
        // the generators really reached every kind of rejection
        Set<String> reasons = new TreeSet<>();
        for (DeadLetter d : letters) {
            String reason = d.reason();
            reasons.add(reason.startsWith("invalid") ? "invalid" : reason.startsWith("handler threw") ? "failed"
                    : reason.substring(0, reason.indexOf(')') + 1));
        }
        assertEquals(Set.of("invalid", "failed", "malformed (not_json)", "malformed (not_utf8)", "malformed (too_deep)",
                "malformed (too_large)", "malformed (duplicate_key)", "malformed (number_out_of_range)"), reasons);
        assertTrue(rec.processed() > N / 20, "enough valid payloads were processed: " + rec.summaryLine());
        assertTrue(letters.stream().anyMatch(d -> d.hints().stream().anyMatch(h -> h.endsWith("renamed by the producer?"))));
        assertTrue(letters.stream().anyMatch(d -> d.hints().stream().anyMatch(h -> h.endsWith("type changed by the producer?"))));
    }

    private static void fuzz(JobBoundary<Accepted> boundary, Random r, Random handlerDice, Map<String, Integer> generated,
                             Map<String, Double> millis, EnumMap<Outcome, Integer> outcomes, List<byte[]> expectedLetters,
                             List<String> escapes, int[] counters) {
        for (int i = 0; i < N; i++) {
            int kind = r.nextInt(14);
            byte[] payload = generate(kind, i, r);
            generated.merge(NAMES[kind], 1, Integer::sum);
            boolean[] threw = {false};
            boolean[] ran = {false};
            Outcome o;
            long k0 = System.nanoTime();
            try {
                o = boundary.handle(payload, SourceInfo.kafka("fuzz", i % 3, i), job -> {
                    ran[0] = true;
                    job.object().getString("job_id");
                    int dice = handlerDice.nextInt(10);
                    if (dice == 0) {
                        threw[0] = true;
                        throw new IOException("downstream timeout for " + job.object().optString("template"));
                    } else if (dice == 1) {
                        threw[0] = true;
                        throw new IllegalStateException();
                    } else if (dice == 2) {
                        threw[0] = true;
                        Object nothing = null;
                        nothing.hashCode();
                    }
                });
            } catch (Throwable t) {
                counters[0]++;
                if (escapes.size() < 5) {
                    escapes.add(NAMES[kind] + " #" + i + ": " + t);
                }
                continue;
            }
            millis.merge(NAMES[kind], (System.nanoTime() - k0) / 1e6, Double::sum);
            assertNotNull(o, "payload " + i + " (" + NAMES[kind] + ") ended without an outcome");
            outcomes.merge(o, 1, Integer::sum);
            counters[1] += ran[0] ? 1 : 0;
            counters[2] += threw[0] ? 1 : 0;
            if (o != Outcome.PROCESSED) {
                expectedLetters.add(payload);
            }
            assertEquals(threw[0] ? Outcome.FAILED : ran[0] ? Outcome.PROCESSED : Outcome.REJECTED, o,
                    "payload " + i + " (" + NAMES[kind] + ")");
        }
    }

    static final String[] NAMES = {"valid", "renamed-key", "wrong-type", "byte-flips", "truncated", "deep-nesting",
        "huge-number", "random-json", "random-bytes", "hostile-token", "huge-string", "extra-nesting", "dropped-key", "valid-unicode"};

    static byte[] generate(int kind, int i, Random r) {
        String valid = Jobs.valid("fz-" + i);
        switch (kind) {
            case 0:
                return utf8(valid);
            case 1: {
                String[][] renames = {{"job_id", "id"}, {"job_id", "jobId"}, {"user_email", "email"}, {"created_at", "createdAt"},
                    {"template", "template_name"}, {"job_id", "uuid"}};
                String[] ren = renames[r.nextInt(renames.length)];
                return utf8(valid.replace("\"" + ren[0] + "\":", "\"" + ren[1] + "\":"));
            }
            case 2: {
                String field = FIELDS[r.nextInt(FIELDS.length)];
                String[] values = {"12345", "\"12345\"", "true", "null", "[1,2]", "{\"x\":1}", "-0.5"};
                return utf8(replaceValue(valid, field, values[r.nextInt(values.length)]));
            }
            case 3: {
                byte[] b = utf8(valid);
                int flips = 1 + r.nextInt(5);
                for (int f = 0; f < flips; f++) {
                    b[r.nextInt(b.length)] = (byte) r.nextInt(256);
                }
                return b;
            }
            case 4: {
                byte[] b = utf8(valid);
                byte[] t = new byte[r.nextInt(b.length)];
                System.arraycopy(b, 0, t, 0, t.length);
                return t;
            }
            case 5: {
                int depth = r.nextBoolean() ? 1 + r.nextInt(200) : 1 + r.nextInt(200_000);
                boolean objects = r.nextBoolean();
                String open = objects ? "{\"a\":" : "[";
                String close = objects ? "}" : "]";
                String inner = r.nextBoolean() ? "1" : valid;
                return utf8(open.repeat(depth) + inner + (r.nextBoolean() ? close.repeat(depth) : ""));
            }
            case 6: {
                String[] numbers = {"1e400", "-1e400", "1" + "0".repeat(300), "1.7976931348623157e309", "1e-400",
                    "123456789012345678901234567890", "-9223372036854775809", "0." + "9".repeat(500)};
                String field = r.nextBoolean() ? "attempt" : FIELDS[r.nextInt(FIELDS.length)];
                return utf8(replaceValue(valid, field, numbers[r.nextInt(numbers.length)]));
            }
            case 7:
                return utf8(randomJson(r, 0));
            case 8: {
                byte[] b = new byte[r.nextInt(2000)];
                r.nextBytes(b);
                return b;
            }
            case 9: {
                String[] hostile = {
                    valid.replace("\"attempt\":0", "\"attempt\":NaN"),
                    valid.replace("\"attempt\":0", "\"attempt\":Infinity"),
                    valid.replace("\"attempt\":0,", "\"attempt\":0,\"attempt\":1,"),
                    valid.replace("\"job_id\":", "'job_id':"),
                    valid.replace("\"priority\":\"normal\"", "\"priority\":normal"),
                    valid + "garbage",
                    "\uFEFF" + valid,
                    valid.replace("\"attempt\":0", "\"attempt\":0 /* comment */"),
                };
                if (r.nextInt(3) == 0) {
                    byte[] b = utf8(valid);
                    byte[][] bad = {{(byte) 0xC3, (byte) 0x28}, {(byte) 0xE2, (byte) 0x82}, {(byte) 0xF0, (byte) 0x28, (byte) 0x8C, (byte) 0x28},
                        {(byte) 0xED, (byte) 0xA0, (byte) 0x80}, {(byte) 0xFF}};
                    byte[] ins = bad[r.nextInt(bad.length)];
                    int at = valid.indexOf("Ada") ;
                    System.arraycopy(ins, 0, b, at, ins.length);
                    return b;
                }
                return utf8(hostile[r.nextInt(hostile.length)]);
            }
            case 10: {
                int size = r.nextInt(20) == 0 ? (1 << 20) + r.nextInt(1000) : 1000 + r.nextInt(200_000);
                return utf8(valid.replace("\"notes\":\"", "\"notes\":\"" + "x".repeat(size)));
            }
            case 11:
                return utf8(Jobs.nested("fz-" + i));
            case 12: {
                String field = FIELDS[r.nextInt(FIELDS.length)];
                return utf8(replaceValue(valid, field, "0").replace("\"" + field + "\":0,", "").replace(",\"" + field + "\":0", ""));
            }
            default:
                return utf8(valid.replace("Ada", "\u00c5da \u6f22\u5b57 \ud83d\ude00"));
        }
    }

    /** Replaces the value of a top-level field (the first occurrence of "field":value up to the next top-level comma). */
    static String replaceValue(String json, String field, String value) {
        String key = "\"" + field + "\":";
        int start = json.indexOf(key);
        if (start < 0) {
            return json;
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

    static String randomJson(Random r, int depth) {
        int k = depth > 6 ? 3 + r.nextInt(5) : r.nextInt(8);
        switch (k) {
            case 0: {
                StringBuilder sb = new StringBuilder("{");
                int n = r.nextInt(6);
                for (int j = 0; j < n; j++) {
                    sb.append(j == 0 ? "" : ",").append('"').append(r.nextBoolean() ? FIELDS[r.nextInt(FIELDS.length)] : "k" + r.nextInt(50))
                            .append("\":").append(randomJson(r, depth + 1));
                }
                return sb.append('}').toString();
            }
            case 1: {
                StringBuilder sb = new StringBuilder("[");
                int n = r.nextInt(5);
                for (int j = 0; j < n; j++) {
                    sb.append(j == 0 ? "" : ",").append(randomJson(r, depth + 1));
                }
                return sb.append(']').toString();
            }
            case 2:
                return "{\"job_id\":\"r\",\"type\":\"send-email\",\"created_at\":\"2026-01-01T00:00:00Z\",\"attempt\":" + r.nextInt(200)
                        + ",\"user_email\":\"" + (r.nextBoolean() ? "a@example.com" : "not-an-email") + "\",\"template\":\"t\",\"params\":"
                        + randomJson(r, depth + 1) + "}";
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
