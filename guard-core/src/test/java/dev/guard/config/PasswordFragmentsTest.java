package dev.guard.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.guard.endpoint.Endpoints;
import dev.guard.ready.Probe;
import dev.guard.ready.ProbeResult;
import dev.guard.ready.Probes;
import dev.guard.testing.FreePorts;
import dev.guard.testing.HardPasswords;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * No fragment of a password is ever printed (issue 39), whatever the password holds: for
 * generated passwords with every character that splits a URL written raw ({@link HardPasswords}),
 * in every way a value carries one (a URL's user info, a token alone, a Sentinel or Kafka host
 * list, Spring's {@code user:pass@host}), through every rule of the config guard (MALFORMED,
 * LOOPBACK, PLACEHOLDER, CONFLICT, NAME_DRIFT, DEFAULTED), its text, JSON, exception and log
 * lines, the URL parser's errors, the readiness probes' descriptions and results (against a closed
 * port), and free text that quotes the URL as a client logs it. No 4-character substring of the
 * password may appear. guard-init's CLI and diagnose, {@code Guard.boot} and Spring's failure
 * analyzer have tests of their own over the same passwords.
 */
class PasswordFragmentsTest {

    @RegisterExtension
    static final NoSecretOnConsole CONSOLE = new NoSecretOnConsole();

    static final long SEED = 39L;
    static final List<String> PASSWORDS = HardPasswords.generate(SEED, 120);

    /** The settings one password is put into: name, value, and what each exercises. */
    static Map<String, String> env(String pw, int closedPort) {
        Map<String, String> env = new LinkedHashMap<>();
        env.put("REDIS_URL", "redis://:" + pw + "@localhost:" + closedPort + "/0");        // loopback in a container
        env.put("CACHE_URL", "redis://worker:" + pw + "@redis-b:6379");                   // conflicts with REDIS_URL
        env.put("AMQP_URL", "amqp://worker:" + pw + "@rabbit:99999/jobs");                // a bad port after the user info
        env.put("DATABASE_URL", "postgres://app:" + pw + "@db:5432/app");                 // a password with '/' is MALFORMED
        env.put("NATS_URL", "nats://" + pw + "@your-nats-host:4222");                     // a token; a placeholder host
        env.put("SENTINEL_URL", "redis-sentinel://:" + pw + "@s1:26379,s2:26379#mymaster");
        env.put("KAFKA_URL", "kafka://app:" + pw + "@b1:9092,b2:9092");
        env.put("SPRING_RABBITMQ_ADDRESSES", "worker:" + pw + "@rabbit:5672");
        env.put("SPRING_DATA_REDIS_URL", "rediss://:" + pw + "@127.0.0.1:6380");
        env.put("BROKER_URL", "amqp://worker:" + pw + "@rabbit/jobs");                    // RABBITMQ_URL is required: drift
        return env;
    }

    static ConfigGuard guard(Map<String, String> env) {
        return ConfigGuard.builder().environment(env).inContainer(true)
                .requireEnv("REDIS_URL", SettingType.URL)
                .requireEnv("CACHE_URL", SettingType.URL)
                .requireEnv("AMQP_URL", SettingType.URL)
                .requireEnv("DATABASE_URL", SettingType.URL)
                .requireEnv("NATS_URL", SettingType.URL)
                .requireEnv("SENTINEL_URL", SettingType.URL)
                .requireEnv("KAFKA_URL", SettingType.URL)
                .requireEnv("SPRING_RABBITMQ_ADDRESSES", SettingType.HOST_LIST)
                .requireEnv("SPRING_DATA_REDIS_URL", SettingType.URL)
                .requireEnv("RABBITMQ_URL", SettingType.URL)
                .build();
    }

    @Test
    void noFragmentOfAnyPasswordInTheConfigGuardsOutput() {
        int closed = FreePorts.next();
        CONSOLE.selfCheck();
        for (String pw : PASSWORDS) {
            ConfigReport report = guard(env(pw, closed)).check();
            List<String> outputs = new ArrayList<>();
            outputs.add(report.render());
            outputs.add(report.toJson());
            for (Violation v : report.violations()) {
                outputs.add(v.toString());
            }
            for (Setting s : report.settings()) {
                outputs.add(s.toString());
            }
            try {
                guard(env(pw, closed)).verify();
                fail("the settings of password " + pw + " passed the config guard");
            } catch (ConfigViolationException e) {
                outputs.add(e.getMessage());
                StringWriter trace = new StringWriter();
                e.printStackTrace(new PrintWriter(trace));
                outputs.add(trace.toString());
            }
            assertNoFragment("config guard", pw, outputs);
            assertTrue(report.render().contains("REDIS_URL"), report.render()); // not masked away whole
        }
        assertNoFragment("log lines", PASSWORDS, CONSOLE.logged());
    }

    @Test
    void noFragmentInTheUrlParsersErrorsOrTheReadinessProbes() {
        int closed = FreePorts.next();
        for (String pw : PASSWORDS) {
            List<String> outputs = new ArrayList<>();
            for (String url : env(pw, closed).values()) {
                outputs.add(Redaction.maskSettingValue(url));
                if (url.contains("://")) {
                    // free text: a URL as a client logs it. A bare user:pass@host in free text is masked only when the
                    // password has no '/', ',' or space (Redaction's BARE_USERINFO); as a setting's value it always is
                    outputs.add(Redaction.maskText("connecting to " + url + " failed: Connection refused"));
                    outputs.add(Redaction.maskText("[main] INFO worker - broker=" + url + ", attempt 3"));
                }
                try {
                    outputs.add(Endpoints.parse(url).toString());
                } catch (IllegalArgumentException e) {
                    outputs.add(e.getMessage());
                }
                try (Probe probe = Probes.forUrl(url.startsWith("worker:") ? "amqp://" + url : url)) {
                    outputs.add(probe.target());
                    outputs.add(probe.toString()); // a probe of a URL that does not parse says why
                    if (url.contains("@localhost:")) { // a closed port on this machine: refused at once
                        ProbeResult r = probe.check(Duration.ofSeconds(5));
                        outputs.add(r.toString());
                        outputs.add(r.summary());
                        outputs.add(r.stateLine());
                    }
                }
            }
            assertNoFragment("parser and probes", pw, outputs);
        }
    }

    /** The leak the issue found: a raw '/' in a Postgres password was quoted as a "port". */
    @Test
    void aRawSlashInAPasswordIsNamedNotQuoted() {
        String pw = "h8Kq2/xZ9pLm/4Tw";
        ConfigReport report = ConfigGuard.builder().environment(Map.of("DATABASE_URL", "postgres://app:" + pw + "@db.prod.internal:5432/app"))
                .requireEnv("DATABASE_URL", SettingType.URL).build().check();
        assertEquals(1, report.violations().size(), report.render());
        Violation v = report.violations().get(0);
        assertEquals(Violation.Rule.MALFORMED, v.rule());
        assertTrue(v.problem().contains("holds a raw '/', '?' or '#' (in the password?)"), v.problem());
        assertEquals("postgres://app:****@db.prod.internal:5432/app", v.found());
        assertNull(HardPasswords.leak(report.render() + report.toJson(), pw), report.render());
        assertFalse(report.render().contains("h8Kq"), report.render());
    }

    /** The masks leave what is not secret readable: a host after the user info, a port in free text. */
    @Test
    void whatIsNotSecretStaysReadable() {
        assertEquals("redis://app:****@redis:6379", Redaction.maskSettingValue("redis://app:pa ss,w\"d@redis:6379"));
        assertEquals("kafka://u:****@b1:9092,b2:9092", Redaction.maskSettingValue("kafka://u:p,w@b1:9092,b2:9092"));
        assertEquals("nats://****@nats:4222,nats://****@nats-b:4222",
                Redaction.maskSettingValue("nats://t@k/en@nats:4222,nats://t ok@nats-b:4222"));
        assertEquals("guest:****@a:5672,guest:****@b:5672", Redaction.maskSettingValue("guest:p1@a:5672,guest:p2@b:5672"));
        assertEquals("guest:****@a:5672", Redaction.maskSettingValue("guest:p,1@a:5672"));
        assertEquals("ops@example.com", Redaction.maskSettingValue("ops@example.com"));
        assertEquals("redis://redis:6379 is down; mail ops@example.com",
                Redaction.maskText("redis://redis:6379 is down; mail ops@example.com"));
        assertEquals("could not reach redis://app:****@redis:6379 (refused)",
                Redaction.maskText("could not reach redis://app:pa ss@redis:6379 (refused)"));
    }

    private static void assertNoFragment(String where, String pw, List<String> outputs) {
        for (String out : outputs) {
            if (HardPasswords.leak(out, pw) != null) {
                fail(HardPasswords.describe(where + " (seed " + SEED + ")", pw, out));
            }
        }
    }

    private static void assertNoFragment(String where, List<String> passwords, String output) {
        for (String pw : passwords) {
            if (HardPasswords.leak(output, pw) != null) {
                fail(HardPasswords.describe(where + " (seed " + SEED + ")", pw, output));
            }
        }
    }
}
