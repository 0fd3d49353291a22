package dev.guard.spring;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The config check over Spring's Environment, in real Spring Boot applications started in this
 * JVM: it runs before any bean exists, names Spring's own origins (the file and line, the
 * environment variable), and its FailureAnalyzer text says what to do.
 */
class SpringConfigCheckTest {

    /** Counts the beans created: the check must stop the start before the first. */
    static final AtomicInteger BEANS = new AtomicInteger();

    @Configuration(proxyBeanMethods = false)
    static class CountsBeans {
        @Bean
        Object workerBean() {
            return BEANS.incrementAndGet();
        }
    }

    private static final String DRIFTED_YAML = """
            spring:
              data:
                redis:
                  url: ${CACHE_URL:redis://localhost:6379}
            guard:
              brokers: redis
              wait:
                enabled: false
            """;

    @BeforeEach
    void reset() {
        BEANS.set(0);
    }

    @Test
    void theBootVersionIsTheOneThisBuildTests() {
        SpringApps.assertBootUnderTest();
    }

    @Test
    void aDriftedRedisUrlStopsTheStartBeforeAnyBeanAndSaysWhichNameIsSet() {
        Map<String, String> env = Map.of("REDIS_URL", "redis://redis:6379", "KUBERNETES_SERVICE_HOST", "10.0.0.1");
        GuardStartupException e = assertThrows(GuardStartupException.class,
                () -> SpringApps.run(env, DRIFTED_YAML, List.of(CountsBeans.class)).close());
        assertEquals(0, BEANS.get(), "a bean was created before the config check stopped the start");
        assertEquals(78, e.getExitCode());
        FailureAnalysis analysis = new GuardFailureAnalyzer().analyze(e);
        assertNotNull(analysis, "the FailureAnalyzer did not take guard's exception");
        String d = analysis.getDescription();
        assertTrue(d.contains("NAME_DRIFT CACHE_URL: CACHE_URL is not set (read by spring.data.redis.url); REDIS_URL is set"
                + " (redis://redis:6379)"), d);
        assertTrue(d.contains("LOOPBACK spring.data.redis.url"), d);
        assertTrue(d.contains("(in a container)"), d);
        // Spring's own origin: the file, line and column of the value, and that it was the placeholder's default
        assertTrue(Pattern.compile("application\\.yml] - 4:\\d+ \\(the default of \\$\\{CACHE_URL:\\.\\.\\.}: CACHE_URL is not set\\)")
                .matcher(d).find(), d);
        String a = analysis.getAction();
        assertTrue(a.contains("- CACHE_URL: set CACHE_URL where this worker's environment is defined, to the same value as REDIS_URL"), a);
    }

    @Test
    void outsideAContainerTheSameDriftStillStopsTheStart() {
        Map<String, String> env = Map.of("REDIS_URL", "redis://127.0.0.1:6379");
        GuardStartupException e = assertThrows(GuardStartupException.class,
                () -> SpringApps.run(env, DRIFTED_YAML, List.of()).close());
        assertTrue(e.description().contains("NAME_DRIFT CACHE_URL"), e.description());
        assertFalse(e.description().contains("LOOPBACK"), "localhost is allowed outside a container: " + e.description());
    }

    @Test
    void springBootsOwnDefaultIsLocalhostAndThatIsAnErrorInAContainer() {
        GuardStartupException e = assertThrows(GuardStartupException.class, () -> SpringApps.run(
                Map.of("KUBERNETES_SERVICE_HOST", "10.0.0.1"), "guard:\n  brokers: redis, rabbitmq\n", List.of()).close());
        String d = e.description();
        assertTrue(d.contains("LOOPBACK spring.data.redis:"), d);
        assertTrue(d.contains("Spring Boot's default (no spring.data.redis.* property is set)"), d);
        assertTrue(d.contains("LOOPBACK spring.rabbitmq:"), d);
        assertTrue(d.contains("spring.rabbitmq = amqp://guest:****@localhost:5672"), "the default guest password is masked: " + d);
        assertTrue(e.action().contains("guard.config.allow-loopback=spring.data.redis"), "names the Spring property that allows it: "
                + e.action());
    }

    @Test
    void aSpringAppInAContainerWhoseRedisIsASidecarOnLocalhostStartsAndTheWarningNamesTheProperty() throws Exception {
        try (java.net.ServerSocket sidecar = new java.net.ServerSocket(0, 50, java.net.InetAddress.getLoopbackAddress())) {
            String url = "redis://127.0.0.1:" + sidecar.getLocalPort();
            Map<String, String> env = Map.of("KUBERNETES_SERVICE_HOST", "10.0.0.1", "SPRING_DATA_REDIS_URL", url);
            String allowedName;
            try (ConfigurableApplicationContext ctx = SpringApps.run(env, "guard:\n  brokers: redis\n  wait:\n    enabled: false\n", List.of())) {
                var report = GuardConfigCheck.check(ctx.getEnvironment(), GuardConfigCheck.bind(ctx.getEnvironment()),
                        getClass().getClassLoader());
                assertTrue(report.ok(), report.render());
                String w = report.warnings().get(0).message();
                assertTrue(w.contains("and something answers there: a sidecar in the same pod"), w);
                java.util.regex.Matcher named = java.util.regex.Pattern.compile("guard\\.config\\.allow-loopback=([^ ;)]+)").matcher(w);
                assertTrue(named.find(), w);
                allowedName = named.group(1);
            }
            // the name the warning tells the user to allow is one the check accepts: the warning goes
            Map<String, String> allowed = Map.of("KUBERNETES_SERVICE_HOST", "10.0.0.1", "SPRING_DATA_REDIS_URL", url,
                    "GUARD_CONFIG_ALLOW_LOOPBACK", allowedName);
            try (ConfigurableApplicationContext ctx = SpringApps.run(allowed, "guard:\n  brokers: redis\n  wait:\n    enabled: false\n", List.of())) {
                var report = GuardConfigCheck.check(ctx.getEnvironment(), GuardConfigCheck.bind(ctx.getEnvironment()),
                        getClass().getClassLoader());
                assertTrue(report.violations().isEmpty(), "allowed for its setting: " + report.render());
            }
        }
    }

    @Test
    void aValueReadFromTheEnvironmentNamesTheVariableAndTheLineThatReadsIt() {
        try (ConfigurableApplicationContext ctx = SpringApps.run(Map.of("CACHE_URL", "redis://127.0.0.1:6379"), DRIFTED_YAML,
                List.of(CountsBeans.class))) {
            assertEquals(1, BEANS.get());
            var report = GuardConfigCheck.check(ctx.getEnvironment(), GuardConfigCheck.bind(ctx.getEnvironment()),
                    getClass().getClassLoader());
            var setting = report.settings().get(0);
            assertEquals("spring.data.redis.url", setting.name());
            assertTrue(setting.origin().startsWith("System Environment Property \"CACHE_URL\" (read by "), setting.origin());
            assertTrue(setting.origin().contains("application.yml] - 4:"), setting.origin());
            assertEquals(dev.guard.config.Setting.Source.ENV, setting.source());
        }
    }

    @Test
    void requiredSettingsSecretsAndValuesThatMustComeFromTheEnvironment() {
        String yaml = """
                app:
                  queue-url: changeme
                spring:
                  data:
                    redis:
                      host: 127.0.0.1
                      password: hunter2-very-secret
                guard:
                  brokers: redis
                  wait:
                    enabled: false
                  config:
                    require: WORKER_QUEUE, app.queue-url, app.batch-size
                    from-env: spring.data.redis.password
                """;
        Map<String, String> env = Map.of("WORKER_QUEU", "jobs");
        GuardStartupException e = assertThrows(GuardStartupException.class, () -> SpringApps.run(env, yaml, List.of()).close());
        String d = e.description() + "\n" + e.action();
        assertFalse(d.contains("hunter2"), "a password was printed: " + d);
        assertTrue(d.contains("NAME_DRIFT WORKER_QUEUE"), d);
        assertTrue(d.contains("PLACEHOLDER app.queue-url"), d);
        assertTrue(d.contains("MISSING app.batch-size: app.batch-size is not set in any property source"), d);
        assertTrue(d.contains("- app.batch-size: set app.batch-size in application.yml or application.properties, or set APP_BATCH_SIZE"), d);
        assertTrue(d.contains("DEFAULTED spring.data.redis.password"), d);
        assertTrue(d.contains("spring.data.redis = redis://:****@127.0.0.1:6379"), d);
    }

    @Test
    void guardEnabledFalseTurnsEverythingOff() {
        Map<String, String> env = Map.of("REDIS_URL", "redis://redis:6379", "KUBERNETES_SERVICE_HOST", "10.0.0.1");
        try (ConfigurableApplicationContext ctx = SpringApps.run(env, DRIFTED_YAML, List.of(CountsBeans.class),
                "--guard.enabled=false")) {
            assertEquals(1, BEANS.get());
            assertTrue(ctx.getBeansOfType(GuardBrokers.class).isEmpty());
            assertTrue(ctx.getBeansOfType(ReadinessGateLifecycle.class).isEmpty());
        }
    }

    @Test
    void anUnknownBrokerNameIsAnErrorThatListsTheKnownOnes() {
        var ex = assertThrows(GuardStartupException.class, () -> SpringApps.run(Map.of(), "guard:\n  brokers: redis, rabit\n",
                List.of()).close());
        assertTrue(ex.getMessage().contains("guard.brokers names 'rabit': expected redis, rabbitmq, kafka, nats or none"), ex.getMessage());
        assertTrue(ex.description().contains("application.yml] - 2:"), ex.description());
        assertTrue(ex.description().contains("found:  redis, rabit"), ex.description());
        assertTrue(ex.action().startsWith("- guard.brokers: name only the brokers"), ex.action());
        assertEquals(78, ex.getExitCode());
    }
}
