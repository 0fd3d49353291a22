package dev.guard.init.conformance;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.guard.init.GuardInit;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * Measures {@code guard-init validate} against the JSON Schema Test Suite (json-schema-org), the way a
 * user would run it: each test group's schema is written to a file, its test payloads to a JSON Lines
 * file, and the CLI runs in this JVM with {@code --json}; each payload's verdict is compared with the
 * suite's {@code valid}. The suite's remote schemas ({@code remotes/}, which the suite says are served
 * at {@code http://localhost:1234/}) are registered with {@code --ref URI=FILE}, never fetched: the
 * top-level ones for every draft, and those under {@code remotes/draft2019-09/} or {@code draft2020-12/}
 * for that draft's run only (their {@code $id}s repeat across the two).
 *
 * <p>Not a test: the suite is not part of this repository (we do not copy it). Get it with
 * {@code git clone https://github.com/json-schema-org/JSON-Schema-Test-Suite}, then
 * {@code java -cp guard-init/target/test-classes:guard-init/target/guard-init.jar
 * dev.guard.init.conformance.SchemaSuiteRun SUITE_DIR [draft4 draft6 draft7 draft2019-09 draft2020-12] [--optional]
 * [--list]} (all five when none is named; CONTRIBUTING.md, "The JSON Schema Test Suite").
 * Prints, per draft: tests, right verdicts, wrong ones (a valid payload rejected, an invalid one
 * accepted), schemas refused at boot (exit 78: a documented limit) and crashes (any other exit code).
 */
public final class SchemaSuiteRun {

    private static final ObjectMapper JSON = JsonMapper.builder()
            .nodeFactory(JsonNodeFactory.withExactBigDecimals(true))
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
            .build();

    /** Counts for one draft (or one file). */
    static final class Tally {
        int tests;
        int right;
        int falseReject;
        int falseAccept;
        int refused;
        int crashed;
        final List<String> notes = new ArrayList<>();

        void add(Tally o) {
            tests += o.tests;
            right += o.right;
            falseReject += o.falseReject;
            falseAccept += o.falseAccept;
            refused += o.refused;
            crashed += o.crashed;
            notes.addAll(o.notes);
        }

        String line() {
            return String.format(Locale.ROOT, "%5d tests  %5d right (%5.1f%%)  %3d valid rejected  %3d invalid accepted  %3d refused at boot  %3d crashed",
                    tests, right, tests == 0 ? 0.0 : 100.0 * right / tests, falseReject, falseAccept, refused, crashed);
        }
    }

    public static void main(String[] args) throws IOException {
        System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "error"); // the self-test's "no example" warnings
        if (args.length == 0) {
            System.err.println("usage: SchemaSuiteRun SUITE_DIR [draft4 draft6 draft7 draft2019-09 draft2020-12] [--optional] [--list] [--only FILE_SUBSTRING]");
            System.exit(64);
        }
        Path suite = Path.of(args[0]);
        List<String> drafts = new ArrayList<>();
        boolean optional = false;
        boolean list = false;
        String only = null;
        for (int i = 1; i < args.length; i++) {
            switch (args[i]) {
                case "--optional" -> optional = true;
                case "--list" -> list = true;
                case "--only" -> only = args[++i];
                default -> drafts.add(args[i]);
            }
        }
        if (drafts.isEmpty()) {
            drafts = List.of("draft4", "draft6", "draft7", "draft2019-09", "draft2020-12");
        }
        if (!Files.isDirectory(suite.resolve("tests")) || !Files.isDirectory(suite.resolve("remotes"))) {
            System.err.println(suite + " is not a JSON-Schema-Test-Suite checkout (no tests/ and remotes/). Action: "
                    + "git clone https://github.com/json-schema-org/JSON-Schema-Test-Suite and pass its directory");
            System.exit(66);
        }
        Path work = Files.createTempDirectory("guard-suite");
        for (String draft : drafts) {
            Path dir = suite.resolve("tests").resolve(draft);
            List<Path> files;
            try (Stream<Path> s = Files.walk(dir)) {
                boolean withOptional = optional;
                files = s.filter(p -> p.toString().endsWith(".json"))
                        .filter(p -> withOptional || !dir.relativize(p).toString().startsWith("optional"))
                        .sorted().toList();
            }
            List<String> refArgs = remotes(suite.resolve("remotes"), draft);
            Tally total = new Tally();
            Map<String, Tally> byFile = new TreeMap<>();
            for (Path f : files) {
                String name = dir.relativize(f).toString();
                if (only != null && !name.contains(only)) {
                    continue;
                }
                Tally t = runFile(f, name, draft.replace("draft", ""), refArgs, work);
                byFile.put(name, t);
                total.add(t);
            }
            System.out.println(draft + (optional ? " (with optional)" : " (core)") + ": " + total.line());
            if (list) {
                byFile.forEach((name, t) -> {
                    if (t.right != t.tests) {
                        System.out.println("  " + String.format(Locale.ROOT, "%-40s", name) + t.line());
                    }
                });
                total.notes.forEach(n -> System.out.println("    " + n));
            }
        }
    }

    /**
     * {@code --ref http://localhost:1234/<path>=<file>} for every file under remotes/ but the folders of
     * other drafts ({@code draft2019-09/} for the 2019-09 run only, {@code draft2020-12/} for 2020-12,
     * never {@code draft-next/} or {@code v1/}).
     */
    static List<String> remotes(Path remotes, String draft) throws IOException {
        List<String> out = new ArrayList<>();
        try (Stream<Path> s = Files.walk(remotes)) {
            for (Path p : s.filter(x -> x.toString().endsWith(".json"))
                    .filter(x -> {
                        String rel = remotes.relativize(x).toString().replace('\\', '/');
                        return rel.startsWith(draft + "/") || !rel.matches("(draft20|draft-next|v1/).*");
                    }).sorted().toList()) {
                out.add("--ref");
                out.add("http://localhost:1234/" + remotes.relativize(p).toString().replace('\\', '/') + "=" + p);
            }
        }
        return out;
    }

    static Tally runFile(Path file, String name, String draft, List<String> refArgs, Path work) throws IOException {
        Tally t = new Tally();
        JsonNode groups = JSON.readTree(file.toFile());
        int g = 0;
        for (JsonNode group : groups) {
            g++;
            Path schema = work.resolve("schema.json");
            Files.writeString(schema, JSON.writeValueAsString(group.get("schema")));
            Path payloads = work.resolve("payloads.jsonl");
            StringBuilder lines = new StringBuilder();
            List<JsonNode> tests = new ArrayList<>();
            group.get("tests").forEach(tests::add);
            for (JsonNode test : tests) {
                lines.append(JSON.writeValueAsString(test.get("data"))).append('\n');
            }
            Files.writeString(payloads, lines.toString());
            List<String> cli = new ArrayList<>(List.of("validate", "--json", "--draft", draft, "--schema", schema.toString()));
            cli.addAll(refArgs);
            cli.add(payloads.toString());
            StringWriter out = new StringWriter();
            StringWriter err = new StringWriter();
            int code;
            try {
                code = GuardInit.run(Map.of(), new ByteArrayInputStream(new byte[0]), new PrintWriter(out), new PrintWriter(err),
                        cli.toArray(String[]::new));
            } catch (RuntimeException | StackOverflowError e) {
                code = -1;
                err.write(e.toString());
            }
            String where = name + " #" + g + " \"" + group.path("description").asText() + "\"";
            t.tests += tests.size();
            if (code == 78) {
                t.refused += tests.size();
                t.notes.add("REFUSED " + where + ": " + firstLine(err.toString()));
                continue;
            }
            if (code != 0 && code != 65) {
                t.crashed += tests.size();
                t.notes.add("CRASH(" + code + ") " + where + ": " + firstLine(err.toString()));
                continue;
            }
            JsonNode report = JSON.readTree(out.toString());
            Iterator<JsonNode> verdicts = report.get("payloads").iterator();
            for (JsonNode test : tests) {
                JsonNode v = verdicts.next();
                boolean accepted = "valid".equals(v.get("verdict").asText());
                boolean expected = test.get("valid").asBoolean();
                if (accepted == expected) {
                    t.right++;
                } else if (expected) {
                    t.falseReject++;
                    t.notes.add("VALID REJECTED " + where + " / \"" + test.path("description").asText() + "\": "
                            + reason(v));
                } else {
                    t.falseAccept++;
                    t.notes.add("INVALID ACCEPTED " + where + " / \"" + test.path("description").asText() + "\"");
                }
            }
        }
        return t;
    }

    private static String reason(JsonNode v) {
        if (v.has("reason")) {
            return v.get("reason").asText();
        }
        JsonNode vs = v.path("violations");
        return vs.isEmpty() ? v.toString() : vs.get(0).path("message").asText();
    }

    private static String firstLine(String s) {
        String line = s.strip();
        int nl = line.indexOf('\n');
        line = nl < 0 ? line : line.substring(0, nl);
        line = line.replaceFirst("^.*? cannot be used: schema self-test failed \\(\\d+ problems?\\): ", "");
        return line.length() > 400 ? line.substring(0, 397) + "..." : line;
    }
}
