package dev.guard.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import com.typesafe.config.ConfigParseOptions;
import dev.guard.testing.JavaMain;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Origins from typesafe-config: a worker's application.conf reads {@code redis.url = ${?REDIS_URL}}
 * over a default in reference.conf. The defaulted case (the CACHE_URL incident) fails naming
 * reference.conf and its line; the env case passes naming the variable.
 */
@ExtendWith(NoSecretOnConsole.class)
class ConfigOriginTest {

    static final String PW = NoSecretOnConsole.TEST_PASSWORD;

    static final String REFERENCE = "redis.url = \"redis://localhost:6379\"\nworker.threads = 4\n";
    static final String APPLICATION = "# the worker's application.conf\nredis.url = ${?REDIS_URL}\n";

    static Config parse(String text, String file) {
        return ConfigFactory.parseString(text, ConfigParseOptions.defaults().setOriginDescription(file));
    }

    /** application.conf over reference.conf, unresolved: what ConfigFactory.load() merges before resolving. */
    static Config workerConfig(String application) {
        return parse(application, "application.conf").withFallback(parse(REFERENCE, "reference.conf"));
    }

    static ConfigReport check(Config config, Map<String, String> env) {
        // the seeds' container: nothing listens on its loopback, whatever this machine runs
        return ConfigGuard.builder().environment(env).config(config).inContainer(true).loopbackAnswers((host, port) -> false)
                .requirePath("redis.url", SettingType.URL).mustComeFromEnv("redis.url").build().check();
    }

    static Violation only(ConfigReport report, String setting, Violation.Rule rule) {
        List<Violation> found = report.violations().stream().filter(v -> v.setting().equals(setting) && v.rule() == rule).toList();
        assertEquals(1, found.size(), setting + " " + rule + " in:\n" + report.render());
        return found.get(0);
    }

    @Test
    void defaultedFromReferenceConfFailsNamingFileAndLine() {
        ConfigReport report = check(workerConfig(APPLICATION), Map.of("CACHE_URL", "redis://redis:6379"));

        assertFalse(report.ok());
        Setting s = report.settings().get(0);
        assertEquals(new Setting("redis.url", "default (reference.conf:1)", "redis://localhost:6379", SettingType.URL,
                Setting.Source.DEFAULT), s);
        assertEquals("redis.url fell back to its default from reference.conf:1 instead of from the environment (REDIS_URL is not set) "
                        + "(origin: default (reference.conf:1); found: redis://localhost:6379). Action: set REDIS_URL in this worker's "
                        + "environment (e.g. redis://redis:6379); the config reads it as ${?REDIS_URL}",
                only(report, "redis.url", Violation.Rule.DEFAULTED).message());
        assertEquals("REDIS_URL is not set (read by redis.url); CACHE_URL is set (redis://redis:6379): the backend and this worker "
                        + "disagree on the name (origin: env REDIS_URL (unset); found: unset). Action: set REDIS_URL where this worker's "
                        + "environment is defined, to the same value as CACHE_URL, or make both sides use one name",
                only(report, "REDIS_URL", Violation.Rule.NAME_DRIFT).message());
        assertTrue(only(report, "redis.url", Violation.Rule.LOOPBACK).message().contains(
                "redis.url points at the loopback address localhost:6379 inside a container (declared so in its settings), where"
                        + " loopback is this container itself, and nothing answers there: localhost is not the Redis service there"));
        assertEquals(3, report.violations().size(), report.render());
    }

    /** The sample in guard-core/README.md's "Config guard" section is exactly what verify() throws for the incident. */
    @Test
    void theReadmeSampleIsWhatVerifyThrows() throws Exception {
        ConfigViolationException e = org.junit.jupiter.api.Assertions.assertThrows(ConfigViolationException.class, () ->
                ConfigGuard.builder().environment(Map.of("CACHE_URL", "redis://redis:6379")).config(workerConfig(APPLICATION))
                        .inContainer(true).loopbackAnswers((host, port) -> false).requirePath("redis.url", SettingType.URL).mustComeFromEnv("redis.url").build().verify());
        Path readme = Path.of(System.getProperty("user.dir")).resolve("README.md");
        assertTrue(Files.exists(readme), "run from the guard-core module directory: " + readme + " not found");
        String text = Files.readString(readme);
        int start = text.indexOf("config guard found 3 errors");
        assertTrue(start > 0, readme + " has no config guard sample");
        assertEquals(text.substring(start, text.indexOf("\n```", start)), e.getMessage());
    }

    @Test
    void setFromTheEnvironmentPassesNamingTheVariable() {
        ConfigReport report = check(workerConfig(APPLICATION), Map.of("REDIS_URL", "redis://:" + PW + "@redis:6379/0"));

        assertTrue(report.violations().isEmpty(), report.render());
        assertEquals(new Setting("redis.url", "env REDIS_URL", "redis://:****@redis:6379/0", SettingType.URL, Setting.Source.ENV),
                report.settings().get(0));
    }

    @Test
    void aLiteralInApplicationConfIsNotFromTheEnvironment() {
        String application = "redis.url = \"redis://redis-dev:6379\"\nredis.url = ${?REDIS_URL}\n";
        ConfigReport report = check(workerConfig(application), Map.of());

        Violation v = only(report, "redis.url", Violation.Rule.DEFAULTED);
        assertEquals("application.conf:1", v.origin());
        assertEquals("redis.url came from application.conf:1, a value written in the config, instead of from the environment "
                + "(REDIS_URL is not set) (origin: application.conf:1; found: redis://redis-dev:6379). Action: set REDIS_URL in this "
                + "worker's environment (e.g. redis://redis:6379); the config reads it as ${?REDIS_URL}", v.message());
        assertEquals(Setting.Source.FILE, report.settings().get(0).source());
    }

    @Test
    void aRequiredSubstitutionLeftUnresolvedIsReportedNotThrown() {
        Config config = parse("redis.url = ${REDIS_URL}\nother = ${?NOT_SET_EITHER}\n", "application.conf");
        ConfigReport report = check(config, Map.of("CACHE_URL", "redis://redis:6379"));

        assertEquals("redis.url is an unresolved substitution ${REDIS_URL}: REDIS_URL is not set (origin: config redis.url via "
                + "${REDIS_URL} (unresolved); found: an unresolved substitution). Action: set REDIS_URL in this worker's environment, "
                + "or make the substitution optional (${?VAR}) over a default", only(report, "redis.url", Violation.Rule.PLACEHOLDER).message());
        only(report, "REDIS_URL", Violation.Rule.NAME_DRIFT);
        assertEquals(2, report.violations().size(), report.render());
    }

    @Test
    void anUnresolvedSubstitutionElsewhereInTheConfigIsReportedToo() {
        Config config = parse("redis.url = ${?REDIS_URL}\nmetrics.host = ${METRICS_HOST}\n", "application.conf");
        ConfigReport report = check(config, Map.of("REDIS_URL", "redis://redis:6379"));

        Violation v = only(report, "config", Violation.Rule.PLACEHOLDER);
        assertTrue(v.message().startsWith("the config has an unresolved substitution: application.conf: 2: "
                + "Could not resolve substitution to a value: ${METRICS_HOST}"), v.message());
        assertEquals("application.conf:2", v.origin());
    }

    @Test
    void missingWithoutADefaultNamesTheVariableTheConfigReads() {
        ConfigReport report = check(parse(APPLICATION, "application.conf"), Map.of());

        assertEquals("redis.url is not set: the config reads it from ${?REDIS_URL} and REDIS_URL is not set (origin: config "
                + "redis.url via ${?REDIS_URL} (unset); found: unset). Action: set REDIS_URL in this worker's environment "
                + "(e.g. redis://redis:6379)", only(report, "redis.url", Violation.Rule.MISSING).message());
        assertEquals(1, report.violations().size(), report.render());
    }

    @Test
    void aResolvedConfigWithEnvOriginNamesTheVariableByItsValue() {
        // a fake environment as typesafe-config builds it: origin "env variables"
        Config env = ConfigFactory.parseMap(Map.of("redis.url", "redis://redis:6379"), "env variables");
        Config resolved = env.withFallback(parse(REFERENCE, "reference.conf")).resolve();
        ConfigReport report = ConfigGuard.builder().environment(Map.of("REDIS_URL", "redis://redis:6379")).config(resolved)
                .inContainer(true).requirePath("redis.url", SettingType.URL).requirePath("worker.threads", SettingType.INT)
                .mustComeFromEnv("redis.url", "REDIS_URL").build().check();

        assertTrue(report.ok(), report.render());
        assertEquals("env REDIS_URL", report.settings().get(0).origin());
        assertEquals("default (reference.conf:2)", report.settings().get(1).origin());
    }

    @Test
    void typesOfConfigValuesAreCheckedWithTheirFileAndLine() {
        Config config = parse("worker.threads = many\ndrain.timeout = 10 parsecs\nkafka.brokers = [\"b1:9092\", \"localhost:9092\"]\n"
                + "redis = { host = redis }\n", "application.conf");
        ConfigReport report = ConfigGuard.builder().environment(Map.of()).config(config).inContainer(false)
                .loopbackAnswers((host, port) -> false).requirePath("worker.threads", SettingType.INT).requirePath("drain.timeout", SettingType.DURATION)
                .requirePath("kafka.brokers", SettingType.HOST_LIST).requirePath("redis", SettingType.URL).build().check();

        assertEquals("worker.threads is not a valid integer: 'many' is not a whole number (origin: application.conf:1; found: many). "
                + "Action: fix worker.threads (e.g. 4)", only(report, "worker.threads", Violation.Rule.MALFORMED).message());
        assertTrue(only(report, "drain.timeout", Violation.Rule.MALFORMED).message().startsWith(
                "drain.timeout is not a valid duration: '10 parsecs' is not a duration: write seconds (30), a number with a unit "
                        + "(500ms, 30s, 2m, 1h) or ISO-8601 (PT30S) (origin: application.conf:2;"));
        assertTrue(only(report, "kafka.brokers", Violation.Rule.LOOPBACK).message().startsWith(
                "kafka.brokers points at the loopback address localhost:9092 on this machine, and nothing answers there: the"
                        + " worker would only ever reach a server on this machine (origin: application.conf:3; found: b1:9092,localhost:9092)"));
        assertTrue(only(report, "redis", Violation.Rule.MALFORMED).message().startsWith("redis is an object, not a URL (origin: application.conf:4;"));
        assertEquals(4, report.violations().size(), report.render());
    }

    @Test
    void aSystemPropertyCountsAsSetExplicitly() {
        String key = "guardtest" + ProcessHandle.current().pid() + ".redis.url";
        System.setProperty(key, "redis://redis:6379");
        try {
            ConfigFactory.invalidateCaches();
            Config config = ConfigFactory.systemProperties().withFallback(parse(key + " = \"redis://localhost:6379\"", "reference.conf"));
            ConfigReport report = ConfigGuard.builder().environment(Map.of()).config(config).inContainer(true)
                    .requirePath(key, SettingType.URL).mustComeFromEnv(key).build().check();
            assertTrue(report.ok(), report.render());
            assertEquals("system property " + key, report.settings().get(0).origin());
        } finally {
            System.clearProperty(key);
            ConfigFactory.invalidateCaches();
        }
    }

    /**
     * What a real worker sees: a child JVM with application.conf and reference.conf on its
     * classpath, the real process environment and the guard's defaults (ConfigFactory.load()
     * semantics). The origin the guard reports is checked against ConfigFactory.load()'s own.
     */
    @Test
    void aRealWorkerProcessReportsTheOriginConfigFactoryLoadSees(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("reference.conf"), "guardchild.redis.url = \"redis://localhost:6379\"\n");
        Files.writeString(dir.resolve("application.conf"), "# worker\n\nguardchild.redis.url = ${?GUARDCHILD_REDIS_URL}\n");
        String cp = dir + java.io.File.pathSeparator + System.getProperty("java.class.path");
        ObjectMapper json = new ObjectMapper();

        Map<String, String> unset = new HashMap<>();
        unset.put("GUARDCHILD_REDIS_URL", null);
        unset.put("KUBERNETES_SERVICE_HOST", null);
        JsonNode defaulted = json.readTree(JavaMain.run(List.of(), cp, unset, RealWorkerMain.class.getName()));
        assertTrue(defaulted.get("loadOrigin").asText().startsWith("reference.conf @ file:"), defaulted.toString());
        assertTrue(defaulted.get("loadOrigin").asText().endsWith("reference.conf: 1"), defaulted.toString());
        JsonNode report = defaulted.get("report");
        assertFalse(report.get("ok").asBoolean());
        assertEquals("default (reference.conf:1)", report.get("settings").get(0).get("origin").asText());
        assertEquals("DEFAULTED", report.get("violations").get(0).get("rule").asText());
        assertTrue(report.get("violations").get(0).get("message").asText().startsWith(
                "guardchild.redis.url fell back to its default from reference.conf:1 instead of from the environment "
                        + "(GUARDCHILD_REDIS_URL is not set)"), report.toString());

        Map<String, String> set = new HashMap<>(unset);
        set.put("GUARDCHILD_REDIS_URL", "redis://:" + PW + "@redis:6379");
        String out = JavaMain.run(List.of(), cp, set, RealWorkerMain.class.getName());
        assertFalse(out.contains(PW), "the child printed the password");
        JsonNode fromEnv = json.readTree(out);
        assertEquals("env variables", fromEnv.get("loadOrigin").asText());
        assertTrue(fromEnv.get("report").get("ok").asBoolean(), out);
        assertEquals("env GUARDCHILD_REDIS_URL", fromEnv.get("report").get("settings").get(0).get("origin").asText());
        assertEquals("redis://:****@redis:6379", fromEnv.get("report").get("settings").get(0).get("value").asText());
    }
}
