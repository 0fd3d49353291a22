package dev.guard.init;

import dev.guard.ExitCodes;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class CheckEnvCommandTest {

    @Test
    void allRequiredVariablesUsableExitsZeroAndListsThemMasked() {
        Cli.Result r = Cli.run(Map.of("REDIS_URL", "redis://:s3cret-pw@redis:6379", "WORKERS", "4"),
                "check-env", "--require", "REDIS_URL:url", "--require", "WORKERS:int");
        assertEquals(0, r.code(), r.toString());
        assertTrue(r.out().contains("REDIS_URL"), r.toString());
        assertTrue(r.out().contains("redis://:****@redis:6379"), r.toString());
        assertFalse(r.both().contains("s3cret-pw"), "the password is never printed: " + r);
        assertEquals("", r.err());
    }

    /** A loopback port where nothing listens: the seeds' worker that fell back to localhost in its container. */
    static final int CLOSED = 1;

    @Test
    void everyViolationIsListedWithOriginAndActionAndExits78() {
        Cli.Result r = Cli.run(Map.of("REDIS_URL", "redis://:hunter2@localhost:" + CLOSED, "API_URL", "changeme"),
                "check-env", "--require", "REDIS_URL:url,API_URL", "--require", "NATS_URL");
        assertEquals(ExitCodes.CONFIG, r.code(), r.toString());
        assertTrue(r.err().contains("LOOPBACK"), r.toString());
        assertTrue(r.err().contains("PLACEHOLDER"), r.toString());
        assertTrue(r.err().contains("MISSING"), r.toString());
        assertTrue(r.err().contains("env REDIS_URL"), "names the origin: " + r);
        assertTrue(r.err().contains("Action:"), "says what to do: " + r);
        assertTrue(r.err().contains("3 violations"), r.toString());
        assertFalse(r.both().contains("hunter2"), "the password is never printed: " + r);
    }

    /**
     * The simplest call, {@code check-env --require NAME} with no type, on the values a new user
     * writes: each bad one exits 78 naming the variable, the rule and what to do, and never prints
     * the password; each good one exits 0.
     */
    @ParameterizedTest(name = "{0}={1} -> {2}")
    @CsvSource(delimiter = '|', value = {
        "REDIS_URL       | localhost:1                                       | 78 | LOOPBACK",
        "REDIS_URL       | redis://:s3cret-pw@redis:99999                    | 78 | MALFORMED",
        "REDIS_URL       | htp://redis:6379                                  | 78 | MALFORMED",
        "REDIS_URL       | redis://:changeme@redis:6379                      | 78 | PLACEHOLDER",
        "KAFKA_BROKERS   | kafka-0:9092,localhost:1                          | 78 | LOOPBACK",
        "KAFKA_BROKERS   | 127.0.0.1:1                                       | 78 | LOOPBACK",
        "AMQP_URL        | amqp://worker:change-me-in-cluster@rabbitmq:5672/jobs | 78 | PLACEHOLDER",
        "DATABASE_URL    | postgres://app:s3cret-pw@127.0.0.1:1/app          | 78 | LOOPBACK",
        "REDIS_URL       | redis://redis:6379/0                              | 0  | ",
        "KAFKA_BROKERS   | kafka-0.kafka:9092,kafka-1.kafka:9092             | 0  | ",
        "REDIS_URL       | redis://localhost-proxy:6379                      | 0  | ",
        "REDIS_URL       | rediss://:s3cret-pw@redis-master.cache.svc.cluster.local:6380 | 0 | ",
        "REDIS_URL       | redis://[2001:db8::7]:6379                        | 0  | ",
        "KAFKA_BROKERS   | [2001:db8::7]:9092,[2001:db8::8]:9092             | 0  | ",
    })
    void anUntypedNameIsCheckedAsWhatItIs(String name, String value, int exit, String rule) {
        Cli.Result r = Cli.run(Map.of(name, value), "check-env", "--require", name);
        assertEquals(exit, r.code(), r.toString());
        if (exit != 0) {
            assertTrue(r.err().contains("ERROR " + rule + ": " + name), r.toString());
            assertTrue(r.err().contains("Action: "), r.toString());
        } else {
            assertTrue(r.out().contains("(checked as "), "the report says what was inferred: " + r);
        }
        assertFalse(r.both().contains("s3cret-pw") || r.both().contains("changeme") || r.both().contains("change-me-in-cluster"),
                "a password is printed: " + r);
    }

    @Test
    void allowLoopbackAcceptsLocalhostForEverySettingOrForOne() {
        Map<String, String> env = Map.of("REDIS_URL", "redis://localhost:" + CLOSED, "NATS_URL", "nats://127.0.0.1:" + CLOSED);
        Cli.Result refused = Cli.run(env, "check-env", "--require", "REDIS_URL:url,NATS_URL");
        assertEquals(ExitCodes.CONFIG, refused.code(), refused.toString());
        assertTrue(refused.err().contains("allow loopback for it: --allow-loopback=REDIS_URL (or GUARD_ALLOW_LOOPBACK=REDIS_URL,"
                + " or guard.allow-loopback = [REDIS_URL] in the GUARD_CONFIG file; true allows every setting)"), refused.toString());
        Cli.Result r = Cli.run(env, "check-env", "--require", "REDIS_URL:url,NATS_URL", "--allow-loopback");
        assertEquals(0, r.code(), r.toString());
        assertTrue(r.out().contains("loopback allowed"), r.toString());
        Cli.Result one = Cli.run(env, "check-env", "--require", "REDIS_URL:url,NATS_URL", "--allow-loopback=REDIS_URL");
        assertEquals(ExitCodes.CONFIG, one.code(), one.toString());
        assertTrue(one.err().contains("ERROR LOOPBACK: NATS_URL") && !one.err().contains("ERROR LOOPBACK: REDIS_URL"), one.toString());
        assertTrue(one.err().contains("loopback allowed for REDIS_URL"), one.toString());
    }

    @Test
    void somethingAnsweringOnLoopbackIsAWarningThatNamesTheFlag() throws Exception {
        try (java.net.ServerSocket sidecar = new java.net.ServerSocket(0, 50, java.net.InetAddress.getLoopbackAddress())) {
            Cli.Result r = Cli.run(Map.of("REDIS_URL", "redis://127.0.0.1:" + sidecar.getLocalPort()), "check-env",
                    "--require", "REDIS_URL");
            assertEquals(0, r.code(), r.toString());
            assertTrue(r.out().contains("WARNING LOOPBACK: REDIS_URL") && r.out().contains("something answers there"), r.toString());
            assertTrue(r.out().contains("say so and this warning goes: --allow-loopback=REDIS_URL"), r.toString());
        }
    }

    @Test
    void namesAndLoopbackComeFromGuardRequireAndGuardAllowLoopback() {
        Cli.Result r = Cli.run(Map.of("GUARD_REQUIRE", "REDIS_URL:url, NATS_URL", "GUARD_ALLOW_LOOPBACK", "true",
                "REDIS_URL", "redis://127.0.0.1:" + CLOSED), "check-env");
        assertEquals(ExitCodes.CONFIG, r.code(), r.toString());
        assertTrue(r.err().contains("NATS_URL"), r.toString());
        assertFalse(r.err().contains("ERROR LOOPBACK"), "loopback allowed by GUARD_ALLOW_LOOPBACK (at most a warning): " + r);
        Cli.Result bad = Cli.run(Map.of("GUARD_REQUIRE", "X", "GUARD_ALLOW_LOOPBACK", "maybe"), "check-env");
        assertEquals(ExitCodes.CONFIG, bad.code(), bad.toString());
        assertTrue(bad.err().contains("loopback is allowed for 'maybe', which is not a setting this check reads (X), so it"
                + " allows nothing"), bad.toString());
    }

    @Test
    void namesComeFromTheHoconFile(@TempDir Path dir) throws Exception {
        Path conf = dir.resolve("guard.conf");
        Files.writeString(conf, "guard {\n  require = [REDIS_URL, \"WORKERS:int\"]\n}\n");
        Cli.Result r = Cli.run(Map.of("REDIS_URL", "redis://redis:6379", "WORKERS", "many"), "check-env", "--config", conf.toString());
        assertEquals(ExitCodes.CONFIG, r.code(), r.toString());
        assertTrue(r.err().contains("WORKERS") && r.err().contains("MALFORMED"), r.toString());
        // GUARD_CONFIG names the file too; the flag wins over GUARD_REQUIRE, env over the file
        Cli.Result viaEnv = Cli.run(Map.of("GUARD_CONFIG", conf.toString(), "REDIS_URL", "redis://redis:6379", "WORKERS", "3"), "check-env");
        assertEquals(0, viaEnv.code(), viaEnv.toString());
        Cli.Result missing = Cli.run(Map.of("GUARD_CONFIG", dir.resolve("nope.conf").toString()), "check-env");
        assertEquals(ExitCodes.CONFIG, missing.code(), missing.toString());
        assertTrue(missing.err().contains("nope.conf (from env GUARD_CONFIG) does not exist"), missing.toString());
    }

    @Test
    void jsonReportIsOneDocumentWithTheViolations() throws Exception {
        Cli.Result r = Cli.run(Map.of("REDIS_URL", "redis://:pw123456@localhost:" + CLOSED), "check-env", "--require", "REDIS_URL:url",
                "--json");
        assertEquals(ExitCodes.CONFIG, r.code(), r.toString());
        JsonNode json = new ObjectMapper().readTree(r.out());
        assertFalse(json.path("ok").asBoolean());
        assertEquals("LOOPBACK", json.path("violations").path(0).path("rule").asText());
        assertFalse(r.both().contains("pw123456"), r.toString());
    }

    @Test
    void noNameOrUnknownTypeIsAUsageError() {
        Cli.Result none = Cli.run(Map.of(), "check-env");
        assertEquals(ExitCodes.USAGE, none.code(), none.toString());
        assertTrue(none.err().contains("no variable to check"), none.toString());
        Cli.Result type = Cli.run(Map.of("X", "1"), "check-env", "--require", "X:number");
        assertEquals(ExitCodes.USAGE, type.code(), type.toString());
        assertTrue(type.err().contains("unknown type 'number'") && type.err().contains("int"), type.toString());
    }

    @Test
    void helpListsTheExitCodes() {
        Cli.Result r = Cli.run("check-env", "--help");
        assertEquals(0, r.code(), r.toString());
        assertTrue(r.out().contains("Exit codes:") && r.out().contains("78") && r.out().contains("--allow-loopback"), r.toString());
    }
}
