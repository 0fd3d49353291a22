package dev.guard.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.typesafe.config.ConfigFactory;
import com.typesafe.config.ConfigParseOptions;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Secrets never leave the process: a report full of settings that carry the test password (in
 * URL user-info, in secret-named variables, in malformed and drifted values) is rendered as text,
 * JSON, exception message, stack trace and log lines, and the password appears in none of them.
 * The extension also fails the class if anything printed to stdout/stderr or logged carries it.
 */
class ConfigSecretsTest {

    @RegisterExtension
    static final NoSecretOnConsole CONSOLE = new NoSecretOnConsole();

    static final String PW = NoSecretOnConsole.TEST_PASSWORD;

    static final Map<String, String> ENV = Map.of(
            "REDIS_URL", "redis://:" + PW + "@localhost:6379/0",          // loopback with a password
            "CACHE_URL", "redis://worker:" + PW + "@redis-b:6379",       // conflict with REDIS_URL
            "AMQP_URL", "amqp://worker:" + PW + "@rabbit:99999/jobs",   // malformed port
            "REDIS_PASSWORD", PW,                                        // secret by name, fine
            "API_TOKEN", PW,                                             // secret by name, declared URL: malformed
            "NATS_TOKEN", "changeme",                                    // secret placeholder
            "KAFKA_SASL_JAAS_CONFIG", "org.apache.kafka.common.security.plain.PlainLoginModule required password=\"" + PW + "\";",
            "SPRING_DATA_REDIS_URL", "rediss://:" + PW + "@redis-c:6380",
            "DB_CREDENTIAL", "redis://" + PW + "@localhost");

    static ConfigGuard guard() {
        var config = ConfigFactory.parseString("redis.password = ${?REDIS_PASSWORD}\nrabbit.url = ${?AMQP_URL}\n",
                ConfigParseOptions.defaults().setOriginDescription("application.conf"));
        return ConfigGuard.builder().environment(ENV).config(config).inContainer(true).loopbackAnswers((host, port) -> false)
                .requireEnv("REDIS_URL", SettingType.URL)
                .requireEnv("AMQP_URL", SettingType.URL)
                .requireEnv("REDIS_PASSWORD")
                .requireEnv("API_TOKEN", SettingType.URL)
                .requireEnv("NATS_TOKEN")
                .requireEnv("KAFKA_SASL_JAAS_CONFIG")
                .requireEnv("DB_CREDENTIAL", SettingType.URL)
                .requireEnv("NATS_URL", SettingType.URL)   // unset; NATS_TOKEN is not a near name
                .requirePath("redis.password", SettingType.STRING)
                .requirePath("rabbit.url", SettingType.URL).mustComeFromEnv("rabbit.url")
                .build();
    }

    @Test
    void thePasswordAppearsInNoOutput() throws Exception {
        CONSOLE.selfCheck();
        ConfigViolationException e = assertThrows(ConfigViolationException.class, () -> guard().verify());
        ConfigReport report = e.report();

        List<String> outputs = new ArrayList<>();
        outputs.add(report.render());
        outputs.add(report.toJson());
        outputs.add(e.getMessage());
        outputs.add(e.toString());
        StringWriter trace = new StringWriter();
        e.printStackTrace(new PrintWriter(trace));
        outputs.add(trace.toString());
        for (Violation v : report.violations()) {
            outputs.add(v.message());
            outputs.add(v.toString());
        }
        for (Setting s : report.settings()) {
            outputs.add(s.toString());
        }
        outputs.add(CONSOLE.logged());
        for (String out : outputs) {
            assertFalse(out.contains(PW), "the test password leaked into:\n" + out);
        }

        // printed on purpose, as a worker would: the extension checks stdout afterwards
        System.out.println(report.render());

        // and the outputs are not empty or trivially masked away: the settings and masks are there
        String render = report.render();
        assertTrue(render.contains("REDIS_URL") && render.contains("redis://:****@localhost:6379/0"), render);
        assertTrue(render.contains("REDIS_PASSWORD") && render.contains("****"), render);
        assertTrue(e.getMessage().contains("amqp://worker:****@rabbit:99999/jobs"), e.getMessage());
        String logged = CONSOLE.logged();
        assertTrue(logged.contains("INFO dev.guard.config.ConfigGuard config REDIS_URL = redis://:****@localhost:6379/0 (from env REDIS_URL)"),
                logged);
        assertTrue(logged.contains("INFO dev.guard.config.ConfigGuard config redis.password = **** (from env REDIS_PASSWORD)"), logged);
        assertTrue(logged.contains("ERROR dev.guard.config.ConfigGuard config ERROR LOOPBACK: REDIS_URL points at"), logged);
        assertTrue(logged.contains("WARN dev.guard.config.ConfigGuard config WARNING CONFLICT"), logged);
    }

    @Test
    void theExceptionCarriesEveryViolationAndItsMessageListsThemAll() {
        ConfigViolationException e = assertThrows(ConfigViolationException.class, () -> guard().verify());
        List<String> rules = e.violations().stream().map(v -> v.setting() + " " + v.rule() + " " + v.severity()).sorted().toList();
        assertEquals(List.of(
                "AMQP_URL MALFORMED ERROR",
                "API_TOKEN MALFORMED ERROR",
                "DB_CREDENTIAL LOOPBACK ERROR",
                "NATS_TOKEN PLACEHOLDER ERROR",
                "NATS_URL MISSING ERROR",
                "REDIS_URL CONFLICT WARNING",
                "REDIS_URL LOOPBACK ERROR",
                "rabbit.url MALFORMED ERROR"), rules, e.getMessage());
        assertSame(e.report().violations(), e.violations());
        assertTrue(e.getMessage().startsWith("config guard found 7 errors and 1 warning before connecting to anything:\n"), e.getMessage());
        for (Violation v : e.violations()) {
            assertTrue(e.getMessage().contains(v.severity() + " " + v.rule() + ": " + v.message()), v.toString());
        }
        Violation apiToken = e.violations().stream().filter(v -> v.setting().equals("API_TOKEN")).findFirst().orElseThrow();
        assertEquals("API_TOKEN is not a valid URL: the value does not parse (not shown: it is a secret) (origin: env API_TOKEN; "
                + "found: ****). Action: fix API_TOKEN", apiToken.message());
        Violation db = e.violations().stream().filter(v -> v.setting().equals("DB_CREDENTIAL")).findFirst().orElseThrow();
        assertTrue(db.message().startsWith("DB_CREDENTIAL points at a loopback address inside a container"), db.message());
    }

    @Test
    void theJsonReportIsStructured() throws Exception {
        JsonNode json = new ObjectMapper().readTree(guard().check().toJson());
        assertFalse(json.get("ok").asBoolean());
        assertTrue(json.get("inContainer").asBoolean());
        assertEquals(7, json.get("errors").asInt());
        assertEquals(1, json.get("warnings").asInt());
        JsonNode first = json.get("settings").get(0);
        assertEquals("REDIS_URL", first.get("name").asText());
        assertEquals("env REDIS_URL", first.get("origin").asText());
        assertEquals("ENV", first.get("source").asText());
        assertEquals("URL", first.get("type").asText());
        assertEquals("redis://:****@localhost:6379/0", first.get("value").asText());
        JsonNode v = json.get("violations").get(0);
        for (String field : List.of("setting", "rule", "severity", "origin", "found", "problem", "action", "message")) {
            assertTrue(v.hasNonNull(field), field + " in " + v);
        }
    }

    /** The default loading path (ConfigFactory.load() semantics) with a config.file that does not parse. */
    @Test
    void aConfigFileThatDoesNotParseIsAViolationWithoutQuotingIt(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
            throws Exception {
        java.nio.file.Path file = dir.resolve("worker.conf");
        java.nio.file.Files.writeString(file, "redis.url = ${?REDIS_URL}\nredis.password = \"" + PW + "\n");
        System.setProperty("config.file", file.toString());
        ConfigFactory.invalidateCaches();
        try {
            ConfigReport report = ConfigGuard.builder().environment(Map.of("REDIS_URL", "redis://redis:6379")).inContainer(false)
                    .requirePath("redis.url", SettingType.URL).build().check();
            assertFalse(report.ok());
            Violation v = report.violations().get(0);
            assertEquals("config MALFORMED", v.setting() + " " + v.rule(), report.render());
            assertEquals(file + ":2", v.origin());
            assertTrue(v.message().startsWith("the config does not load: " + file + ": 2: "), v.message());
            assertTrue(v.action().startsWith("fix the config file at " + file + ":2"), v.action());
            assertEquals(new Setting("redis.url", "config (did not load)", null, SettingType.URL, Setting.Source.UNSET),
                    report.settings().get(0));
            assertFalse(report.render().contains(PW), report.render());
            assertFalse(report.toJson().contains(PW));
        } finally {
            System.clearProperty("config.file");
            ConfigFactory.invalidateCaches();
        }
    }

    @Test
    void verifyReturnsTheReportWhenThereAreOnlyWarnings() {
        ConfigReport report = ConfigGuard.builder()
                .environment(Map.of("REDIS_URL", "redis://redis-a:6379", "CACHE_URL", "redis://redis-b:6379"))
                .inContainer(false).requireEnv("REDIS_URL", SettingType.URL).build().verify();
        assertTrue(report.ok());
        assertEquals(1, report.warnings().size());
        assertEquals(Violation.Rule.CONFLICT, report.warnings().get(0).rule());
    }

    @Test
    void containerDetectionUsesTheKubernetesVariableOfTheInjectedEnvironment() {
        ConfigReport inPod = ConfigGuard.builder()
                .environment(Map.of("KUBERNETES_SERVICE_HOST", "10.96.0.1", "REDIS_URL", "redis://localhost:6379"))
                .loopbackAnswers((host, port) -> false).requireEnv("REDIS_URL", SettingType.URL).build().check();
        assertTrue(inPod.inContainer());
        assertEquals(java.util.Optional.of("KUBERNETES_SERVICE_HOST is set"), inPod.containerEvidence());
        assertTrue(inPod.violations().get(0).message().contains(
                "inside a container (KUBERNETES_SERVICE_HOST is set), where loopback is this container itself"));

        ConfigReport detector = ConfigGuard.builder().environment(Map.of("REDIS_URL", "redis://redis:6379"))
                .containerDetector(() -> false).requireEnv("REDIS_URL", SettingType.URL).build().check();
        assertFalse(detector.inContainer());
    }

    @Test
    void aBuiltGuardIsImmutable() {
        ConfigGuard.Builder b = ConfigGuard.builder().environment(Map.of()).inContainer(false).requireEnv("REDIS_URL");
        ConfigGuard guard = b.build();
        b.requireEnv("KAFKA_BROKERS");
        assertEquals(1, guard.check().settings().size());
        assertThrows(UnsupportedOperationException.class, () -> guard.check().violations().clear());
    }
}
