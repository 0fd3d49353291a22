package dev.guard.init;

import dev.guard.ExitCodes;
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

    @Test
    void anInlineScalarIsAUsageErrorUnlessSuchAFileExists(@TempDir Path dir) throws Exception {
        for (String scalar : new String[] {"42", "-1.5e3", "true", "null", "\"text\""}) {
            Cli.Result r = Cli.run(Map.of(), "validate", "--schema", schema(), scalar);
            assertEquals(ExitCodes.USAGE, r.code(), scalar + ": " + r);
            assertTrue(r.err().contains("looks like an inline JSON scalar") && r.err().contains("| guard-init validate --schema FILE -"),
                    r.toString());
        }
        Path named42 = Files.writeString(dir.resolve("42"), "{\"job_id\":\"a\",\"to\":\"b\"}");
        Cli.Result file = Cli.run(Map.of(), "validate", "--schema", schema(), named42.toString());
        assertEquals(0, file.code(), "an existing file is read even when its name is a number: " + file);
        Cli.Result viaStdin = Cli.withStdin(Map.of(), "42\n", "validate", "--schema", schema(), "-");
        assertEquals(ExitCodes.DATA_ERROR, viaStdin.code(), "a scalar on stdin is checked (and is not an object): " + viaStdin);
    }

    @Test
    void anEmptyInputIsAUsageErrorNotSuccess(@TempDir Path dir) throws Exception {
        Cli.Result blank = Cli.withStdin(Map.of(), " \n\n\t\n", "validate", "--schema", schema(), "-");
        assertEquals(ExitCodes.USAGE, blank.code(), blank.toString());
        assertTrue(blank.err().contains("no payload found in -") && blank.err().contains("not taken for success"), blank.toString());
        Path empty = Files.writeString(dir.resolve("jobs.jsonl"), "\n\n");
        Cli.Result file = Cli.run(Map.of(), "validate", "--schema", schema(), empty.toString());
        assertEquals(ExitCodes.USAGE, file.code(), file.toString());
    }

    @Test
    void refsResolveFromFilesDirectoriesAndUriEqualsFileAndNeverFromTheNetworkByDefault(@TempDir Path dir) throws Exception {
        Path defs = Files.createDirectories(dir.resolve("defs"));
        Files.writeString(defs.resolve("common.json"), "{\"$id\": \"https://schemas.example/common.json\", "
                + "\"definitions\": {\"id\": {\"type\": \"string\", \"pattern\": \"^j-\"}}}");
        Path copy = Files.writeString(dir.resolve("user-copy.json"), "{\"required\": [\"name\"]}");
        Path schema = Files.writeString(dir.resolve("job.schema.json"), "{\"properties\": {"
                + "\"job_id\": {\"$ref\": \"https://schemas.example/common.json#/definitions/id\"}, "
                + "\"user\": {\"$ref\": \"https://users.example/user.json\"}}}");
        String good = "{\"job_id\": \"j-1\", \"user\": {\"name\": \"n\"}}";
        String bad = "{\"job_id\": \"x\", \"user\": {}}";
        Cli.Result ok = Cli.run(Map.of(), "validate", "--schema", schema.toString(), "--ref", defs.toString(),
                "--ref", "https://users.example/user.json=" + copy, good, bad);
        assertEquals(ExitCodes.DATA_ERROR, ok.code(), ok.toString());
        assertTrue(ok.out().contains("valid     argument 1") && ok.err().contains("INVALID   argument 2"), ok.toString());

        Cli.Result env = Cli.run(Map.of("GUARD_SCHEMA_REFS", defs + "," + "https://users.example/user.json=" + copy),
                "validate", "--schema", schema.toString(), good);
        assertEquals(0, env.code(), env.toString());

        Cli.Result missing = Cli.run(Map.of(), "validate", "--schema", schema.toString(), "--ref", defs.toString(), good);
        assertEquals(ExitCodes.CONFIG, missing.code(), missing.toString());
        assertTrue(missing.err().contains("$ref \"https://users.example/user.json\" at #/properties/user/$ref refers to "
                + "https://users.example/user.json, which is neither this schema nor a registered one (network references are off)"),
                missing.toString());
        assertTrue(missing.err().contains("--allow-network-refs"), missing.toString());
        assertFalse(missing.err().contains("\tat "), "no stack trace: " + missing);

        Cli.Result noFile = Cli.run(Map.of(), "validate", "--schema", schema.toString(), "--ref", dir.resolve("nope.json").toString(), good);
        assertEquals(ExitCodes.CONFIG, noFile.code(), noFile.toString());
        assertTrue(noFile.err().contains("--ref " + dir.resolve("nope.json") + " (from --ref) does not exist"), noFile.toString());
    }

    @Test
    void draftOptionAndBooleanSchemas(@TempDir Path dir) throws Exception {
        Path d4 = Files.writeString(dir.resolve("max.json"), "{\"maximum\": 5, \"exclusiveMaximum\": true}");
        assertEquals(ExitCodes.DATA_ERROR, Cli.withStdin(Map.of(), "5\n", "validate", "--draft", "4", "--schema", d4.toString(), "-").code());
        assertEquals(ExitCodes.CONFIG, Cli.withStdin(Map.of(), "5\n", "validate", "--schema", d4.toString(), "-").code(),
                "in draft 7 exclusiveMaximum must be a number: the schema is refused");
        Cli.Result nine = Cli.run(Map.of(), "validate", "--draft", "9", "--schema", d4.toString(), "{}");
        assertEquals(ExitCodes.USAGE, nine.code(), nine.toString());
        assertTrue(nine.err().contains("2019-09 or 2020-12"), nine.toString());

        // --draft 2020-12: prefixItems, unevaluatedProperties and dependentRequired apply to a schema without $schema
        Path tuple = Files.writeString(dir.resolve("tuple.json"), "{\"type\": \"object\", \"properties\": {\"t\": {\"prefixItems\": "
                + "[{\"type\": \"string\"}], \"items\": false}, \"a\": {}}, \"dependentRequired\": {\"a\": [\"t\"]}, "
                + "\"unevaluatedProperties\": false}");
        String good = "{\"t\": [\"x\"], \"a\": 1}";
        assertEquals(0, Cli.run(Map.of(), "validate", "--draft", "2020-12", "--schema", tuple.toString(), good).code());
        for (String bad : new String[] {"{\"t\": [\"x\", 1]}", "{\"a\": 1}", "{\"t\": [\"x\"], \"b\": 1}"}) {
            Cli.Result r = Cli.run(Map.of(), "validate", "--draft", "2020-12", "--schema", tuple.toString(), bad);
            assertEquals(ExitCodes.DATA_ERROR, r.code(), bad + ": " + r);
        }
        Path mail = Files.writeString(dir.resolve("mail.json"), "{\"$schema\": \"https://json-schema.org/draft/2020-12/schema\", "
                + "\"properties\": {\"to\": {\"format\": \"email\"}}}");
        assertEquals(0, Cli.run(Map.of(), "validate", "--schema", mail.toString(), "{\"to\": \"not an address\"}").code(), "an annotation");
        assertEquals(ExitCodes.DATA_ERROR, Cli.run(Map.of(), "validate", "--format-assertion", "--schema", mail.toString(),
                "{\"to\": \"not an address\"}").code());
        assertEquals(ExitCodes.DATA_ERROR, Cli.run(Map.of("GUARD_SCHEMA_FORMAT_ASSERTION", "true"), "validate", "--schema", mail.toString(),
                "{\"to\": \"not an address\"}").code(), "the same from the environment");
        String extra = "{\"t\": [], \"b\": 1}";
        assertEquals(ExitCodes.DATA_ERROR, Cli.run(Map.of(), "validate", "--draft", "2020-12", "--schema", tuple.toString(), extra).code());
        Cli.Result asDraft7 = Cli.run(Map.of(), "validate", "--schema", tuple.toString(), extra);
        assertEquals(0, asDraft7.code(), "draft-07 knows no unevaluatedProperties: " + asDraft7);
        Path yes = Files.writeString(dir.resolve("anything.json"), "true");
        Path no = Files.writeString(dir.resolve("nothing.json"), " false ");
        assertEquals(0, Cli.run(Map.of(), "validate", "--schema", yes.toString(), "{\"a\": 1}", "[]").code());
        Cli.Result rejected = Cli.run(Map.of(), "validate", "--schema", no.toString(), "{}");
        assertEquals(ExitCodes.DATA_ERROR, rejected.code(), rejected.toString());
        assertTrue(rejected.err().contains("against schema nothing"), rejected.toString());
    }

    /** Schemas written here to break a loader: each must give 0, 65 or 78 with a message, never 70 or a stack trace. */
    @Test
    void noSchemaMakesValidateCrash(@TempDir Path dir) throws Exception {
        String deep = "{\"items\": ".repeat(300) + "{}" + "}".repeat(300);
        String[] schemas = {
            "{\"$ref\": 5}", "{\"$id\": 5}", "{\"$id\": \"::not a uri\"}", "{\"$ref\": \"::not a uri\"}",
            "{\"$ref\": \"#/definitions/a\", \"definitions\": {\"a\": {\"$ref\": \"#/definitions/a\"}}}",
            "{\"$ref\": \"#\"}", "{\"type\": 5}", "{\"type\": [\"string\", \"strin\"]}", "{\"pattern\": \"[\"}",
            "{\"minimum\": \"x\"}", "{\"enum\": 5}", "{\"items\": \"string\"}", "{\"$schema\": 7}",
            "{\"$schema\": \"http://json-schema.org/draft-03/schema#\"}", "{\"required\": \"a\"}", "{\"properties\": []}",
            "{\"allOf\": []}", "{\"allOf\": {}}", "{\"dependencies\": {\"a\": 5}}", "{\"format\": 5}", "{\"multipleOf\": 0}",
            "{\"$id\": \"urn:x:y\", \"$ref\": \"z.json\"}", "{\"$ref\": \"file:///etc/passwd\"}",
            "{\"$ref\": \"http://127.0.0.1:1/x.json\"}", "{\"$ref\": \"jar:file:/x.jar!/y.json\"}", "[]", "5", "\"s\"", "null", deep,
        };
        for (String text : schemas) {
            Path f = Files.writeString(dir.resolve("s.json"), text);
            Cli.Result r = Cli.withStdin(Map.of(), "{}\n1\n\"x\"\n[[[]]]\n", "validate", "--schema", f.toString(), "-");
            assertTrue(r.code() == 0 || r.code() == ExitCodes.DATA_ERROR || r.code() == ExitCodes.CONFIG,
                    text.substring(0, Math.min(80, text.length())) + " -> " + r);
            assertFalse(r.err().contains("\tat ") || r.err().contains("Exception in"), "no stack trace for " + text + ": " + r);
            if (r.code() == ExitCodes.CONFIG) {
                assertTrue(r.err().contains("cannot be used: schema self-test failed"), r.toString());
            }
        }
    }

    @Test
    void jsonLinesAreReadAsBytesSoBadUtf8CrlfAndHugeLinesGetTheirOwnVerdict(@TempDir Path dir) throws Exception {
        java.io.ByteArrayOutputStream b = new java.io.ByteArrayOutputStream();
        b.writeBytes("{\"job_id\":\"a\",\"to\":\"x\"}\r\n".getBytes(java.nio.charset.StandardCharsets.UTF_8));
        b.writeBytes(new byte[] {'{', '"', 'j', 'o', 'b', '_', 'i', 'd', '"', ':', '"', (byte) 0xC3, (byte) 0x28, '"', '}', '\n'});
        b.writeBytes(("{\"job_id\":\"" + "x".repeat(2 << 20) + "\"}\n").getBytes(java.nio.charset.StandardCharsets.UTF_8));
        b.writeBytes("{\"job_id\":\"d\",\"to\":\"y\"}".getBytes(java.nio.charset.StandardCharsets.UTF_8)); // no final newline
        Path jsonl = Files.write(dir.resolve("mixed.jsonl"), b.toByteArray());
        Cli.Result r = Cli.run(Map.of(), "validate", "--json", "--schema", schema(), jsonl.toString());
        assertEquals(ExitCodes.DATA_ERROR, r.code(), r.toString());
        JsonNode p = new ObjectMapper().readTree(r.out()).path("payloads");
        assertEquals(4, p.size(), r.out());
        assertEquals("valid", p.path(0).path("verdict").asText(), "a CRLF line is the same payload");
        assertEquals("not_utf8", p.path(1).path("kind").asText(), "invalid UTF-8 is reported, not replaced by U+FFFD");
        assertEquals("too_large", p.path(2).path("kind").asText());
        assertEquals("valid", p.path(3).path("verdict").asText());
        assertEquals("file " + jsonl + " line 4", p.path(3).path("source").asText());

        Path big = Files.writeString(dir.resolve("big.json"), "[" + "1,".repeat(3 << 20) + "1]");
        Cli.Result large = Cli.run(Map.of(), "validate", "--json", "--schema", schema(), big.toString());
        assertEquals("too_large", new ObjectMapper().readTree(large.out()).path("payloads").path(0).path("kind").asText(), large.toString());
    }
}
