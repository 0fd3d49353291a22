package dev.guard.init.diagnose;

import dev.guard.ExitCodes;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.guard.init.GuardInit;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code guard-init diagnose} through {@link GuardInit#run}: stdout, stderr, exit code, JSON. */
class DiagnoseCommandTest {
    @TempDir
    Path tmp;

    private record Run(int code, String out, String err) {}

    private static Run run(String... args) {
        StringWriter o = new StringWriter();
        StringWriter e = new StringWriter();
        int code = GuardInit.run(new PrintWriter(o), new PrintWriter(e), args);
        return new Run(code, o.toString(), e.toString());
    }

    private static String[] scenarioArgs(String scenario, String... extra) throws IOException {
        Path dir = DiagnoseScenariosTest.root().resolve(scenario);
        List<String> args = new ArrayList<>(List.of("diagnose"));
        args.addAll(List.of(extra));
        try (var files = Files.list(dir)) {
            files.filter(f -> !List.of("expected", "args", "SOURCES.md").contains(f.getFileName().toString())).sorted()
                    .forEach(f -> args.add(f.toString()));
        }
        return args.toArray(String[]::new);
    }

    @Test
    void mixedWorkerTypesNameBothCausesInFixOrderWithEvidenceAndNextSteps() throws IOException {
        Run r = run(scenarioArgs("compose-mixed-race-and-drift-same-wording"));
        assertEquals(0, r.code, r.err);
        List<String> lines = r.out.lines().toList();
        assertEquals("cause: startup-race, env-drift", lines.get(0));
        assertEquals("fix order: startup-race (worker-a), then env-drift (worker-b)", lines.get(1));
        assertTrue(r.out.contains("- env-drift: 30 connection error lines name a host that is not a known endpoint "
                + "(cache:6379) instead of the service"), r.out);
        assertTrue(r.out.contains("- startup-race: 5 error lines name the service (redis:6379) and stop: then a job "
                + "received at "), r.out);
        assertTrue(r.out.contains("compose.log:10  2026-11-30 02:00:00,300 ERROR worker: redis.exceptions.ConnectionError: "
                + "Error 111 connecting to redis:6379. Connection refused."), r.out);
        assertTrue(r.out.contains("  worker-b  cache:6379  30 lines  [not-an-endpoint]  first 2026-11-30T02:00:00.400000123Z"),
                r.out);
        int race = r.out.indexOf("  1. startup-race [connectivity] (worker-a): ");
        int drift = r.out.indexOf("  2. env-drift [config] (worker-b): ");
        assertTrue(race > 0 && drift > race, r.out);
    }

    @Test
    void jsonParsesBackWithTheSameCausesCountsAndEvidence() throws IOException {
        Run r = run(scenarioArgs("compose-redis-schema-skew", "--json"));
        assertEquals(0, r.code, r.err);
        JsonNode j = new ObjectMapper().readTree(r.out);
        assertEquals("cause: schema-skew", j.get("cause").asText());
        assertEquals("schema-skew", j.get("causes").get(0).asText());
        assertEquals(12, j.get("jobs").get("received").asInt());
        assertEquals(9, j.get("jobs").get("processed").asInt());
        assertEquals("per-job lines", j.get("jobs").get("source").asText());
        JsonNode worker = j.get("groups").get(1);
        assertEquals("worker", worker.get("group").asText());
        assertTrue(worker.get("evidence").get(0).get("at").asText().endsWith("worker.log:2"), worker.toString());
        assertEquals("contract", j.get("next").get(0).get("stage").asText());
        // the summary line "received 12 jobs ... processed 9" is not counted as a per-job line
        assertEquals(12, j.get("groups").get(1).get("jobs").get("received").asInt());
    }

    @Test
    void jsonCarriesErrorsPerHostWithFirstAndLastTime() throws IOException {
        Run r = run(scenarioArgs("compose-redis-py-race", "--json", "--endpoint", "redis:6379"));
        JsonNode h = new ObjectMapper().readTree(r.out).get("hosts").get(0);
        assertEquals("redis:6379", h.get("target").asText());
        assertEquals("service", h.get("category").asText());
        assertEquals(6, h.get("lines").asInt());
        assertEquals("2026-11-30T02:00:00.300000123Z", h.get("first").asText());
        assertEquals("2026-11-30T02:00:03.300000123Z", h.get("last").asText());
        assertTrue(h.get("stopped").asBoolean());
    }

    @Test
    void anErrorNamingAHostThatIsNotAnEndpointIsDriftOnlyWhenEndpointsAreKnown() throws IOException {
        Path log = tmp.resolve("worker.log");
        Files.writeString(log, "Error 111 connecting to cache:6379. Connection refused.\n".repeat(5));
        assertTrue(run("diagnose", log.toString()).out.startsWith("cause: dependency-down\n"));
        Run r = run("diagnose", "--endpoint", "redis:6379", log.toString());
        assertTrue(r.out.startsWith("cause: env-drift\n"), r.out);
        assertTrue(r.out.contains("endpoints checked against: redis:6379 (--endpoint)"), r.out);
    }

    @Test
    void secretsInCapturedLinesAreMasked() throws IOException {
        Path log = tmp.resolve("worker.log");
        Files.writeString(log, "connecting to redis://:s3cr3t-pass@localhost:6379/0\n"
                + "Error 111 connecting to localhost:6379. Connection refused.\n".repeat(3));
        Run r = run("diagnose", log.toString());
        assertTrue(r.out.startsWith("cause: env-drift\n"), r.out);
        assertFalse(r.out.contains("s3cr3t"), r.out);
        Run j = run("diagnose", "--json", log.toString());
        assertFalse(j.out.contains("s3cr3t"), j.out);
    }

    @Test
    void exitCodesForNoFilesMissingFilesBinaryFilesAndUndecided() throws IOException {
        Run none = run("diagnose");
        assertEquals(64, none.code);
        assertTrue(none.err.contains("no files given. Capture them first"), none.err);

        Run missing = run("diagnose", tmp.resolve("nope.log").toString());
        assertEquals(65, missing.code);
        assertTrue(missing.err.startsWith("guard-init diagnose: cannot read " + tmp.resolve("nope.log")), missing.err);

        Path bin = tmp.resolve("core.bin");
        Files.write(bin, new byte[] {0x7f, 'E', 'L', 'F', 0, 0, 1});
        Run binary = run("diagnose", bin.toString());
        assertEquals(65, binary.code);
        assertTrue(binary.err.contains("is not a text log (NUL byte at offset 4)"), binary.err);

        Path empty = tmp.resolve("worker-previous.log");
        Files.writeString(empty, "");
        Run undecided = run("diagnose", empty.toString());
        assertEquals(1, undecided.code, undecided.out);
        assertTrue(undecided.out.startsWith("cause: unknown\n"), undecided.out);
        assertTrue(undecided.out.contains("worker-previous.log: empty, 0 lines"), undecided.out);
    }

    @Test
    void helpListsTheCausesAndExitCodes() {
        Run r = run("diagnose", "--help");
        assertEquals(0, r.code);
        for (String s : List.of("oom-or-probe-kill", "schema-skew", "Exit codes:", "a cause was determined (healthy included)",
                "read the files, but no rule decided (cause: unknown)", "a file cannot be read as a text log")) {
            assertTrue(r.out.contains(s), s + " missing in:\n" + r.out);
        }
        assertTrue(r.out.matches("(?s).*\\n\\s+65\\s+a file cannot be read.*"), r.out);
    }
}
