package dev.guard.init;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code guard-init validate}: payloads inline, from files, JSON Lines files and stdin. */
class ValidateCommandTest {

    static String schema() {
        try {
            return Path.of(ValidateCommandTest.class.getResource("/schemas/send-email.schema.json").toURI()).toString();
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void validInlinePayloadsExitZero() {
        Cli.Result r = Cli.run(Map.of(), "validate", "--schema", schema(),
                "{\"job_id\":\"j-1\",\"to\":\"a@example.com\"}", "{\"job_id\":\"j-2\",\"to\":\"b@example.com\",\"attempt\":1}");
        assertEquals(0, r.code(), r.toString());
        assertTrue(r.out().contains("valid     argument 1") && r.out().contains("valid     argument 2"), r.toString());
        assertTrue(r.out().contains("2 payloads against schema send-email") && r.out().contains("2 valid, 0 invalid, 0 malformed"), r.toString());
    }

    @Test
    void eachInvalidPayloadIsReportedWithItsViolationsAndExits65() {
        Cli.Result r = Cli.run(Map.of(), "validate", "--schema", schema(),
                "{\"job_id\":\"j-1\",\"to\":\"a@example.com\"}",
                "{\"id\":\"j-2\",\"to\":7}",
                "{not json");
        assertEquals(ExitCodes.DATA_ERROR, r.code(), r.toString());
        assertTrue(r.err().contains("INVALID   argument 2"), r.toString());
        assertTrue(r.err().contains("#/to: "), "JSON pointer of the wrong type: " + r);
        assertTrue(r.err().contains("job_id") && r.err().contains("(required)"), r.toString());
        assertTrue(r.err().contains("MALFORMED argument 3"), r.toString());
        assertTrue(r.err().contains("1 valid, 1 invalid, 1 malformed") && r.err().contains("Action:"), r.toString());
    }

    @Test
    void jsonLinesFromStdinAndFromAJsonlFileAndAPlainFile(@TempDir Path dir) throws Exception {
        String lines = "{\"job_id\":\"a\",\"to\":\"x\"}\n\n{\"job_id\":\"\",\"to\":\"x\"}\n";
        Cli.Result stdin = Cli.withStdin(Map.of(), lines, "validate", "--schema", schema(), "-");
        assertEquals(ExitCodes.DATA_ERROR, stdin.code(), stdin.toString());
        assertTrue(stdin.out().contains("valid     stdin line 1"), stdin.toString());
        assertTrue(stdin.err().contains("INVALID   stdin line 3") && stdin.err().contains("#/job_id"), stdin.toString());

        Path jsonl = Files.writeString(dir.resolve("jobs.jsonl"), "{\"job_id\":\"a\",\"to\":\"x\"}\n{\"job_id\":\"b\",\"to\":\"y\"}\n");
        Path one = Files.writeString(dir.resolve("job.json"), "{\n  \"job_id\": \"c\",\n  \"to\": \"z\"\n}\n");
        Cli.Result files = Cli.run(Map.of(), "validate", "--schema", schema(), jsonl.toString(), one.toString());
        assertEquals(0, files.code(), files.toString());
        assertTrue(files.out().contains("file " + jsonl + " line 2") && files.out().contains("valid     file " + one), files.toString());
    }

    @Test
    void missingPayloadFileIs66BadSchemaIs78NoSchemaIs64(@TempDir Path dir) throws Exception {
        Cli.Result missing = Cli.run(Map.of(), "validate", "--schema", schema(), dir.resolve("nope.json").toString());
        assertEquals(ExitCodes.NO_INPUT, missing.code(), missing.toString());
        assertTrue(missing.err().contains("nope.json (argument 1) does not exist"), missing.toString());

        Path bad = Files.writeString(dir.resolve("bad.schema.json"), "{\"type\": \"objekt\"}");
        Cli.Result badSchema = Cli.run(Map.of(), "validate", "--schema", bad.toString(), "{}");
        assertEquals(ExitCodes.CONFIG, badSchema.code(), badSchema.toString());
        assertTrue(badSchema.err().contains("bad.schema.json (from --schema) cannot be used"), badSchema.toString());

        Cli.Result noSchema = Cli.run(Map.of(), "validate", "{}");
        assertEquals(ExitCodes.USAGE, noSchema.code(), noSchema.toString());
        Cli.Result fromEnv = Cli.run(Map.of("GUARD_SCHEMA", schema()), "validate", "{\"job_id\":\"a\",\"to\":\"b\"}");
        assertEquals(0, fromEnv.code(), fromEnv.toString());
    }

    @Test
    void jsonReportAndSecretsMasked() throws Exception {
        Cli.Result r = Cli.run(Map.of(), "validate", "--schema", schema(), "--json",
                "{\"job_id\":\"a\",\"to\":\"b\",\"password\":\"hunter2-secret\"}");
        assertEquals(ExitCodes.DATA_ERROR, r.code(), r.toString());
        JsonNode json = new ObjectMapper().readTree(r.out());
        assertEquals("invalid", json.path("payloads").path(0).path("verdict").asText());
        assertEquals("additionalProperties", json.path("payloads").path(0).path("violations").path(0).path("keyword").asText());
        assertFalse(r.both().contains("hunter2-secret"), r.toString());
    }

    @Test
    void helpListsTheExitCodes() {
        Cli.Result r = Cli.run("validate", "--help");
        assertEquals(0, r.code(), r.toString());
        assertTrue(r.out().contains("65") && r.out().contains("JSON Lines"), r.toString());
    }
}
