package dev.guard.init;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import dev.guard.config.ConfigGuard;
import dev.guard.config.ConfigReport;
import dev.guard.config.Violation;
import dev.guard.endpoint.HostVerdict;
import dev.guard.init.diagnose.Diagnoser;
import dev.guard.init.diagnose.Diagnosis;
import dev.guard.init.diagnose.HostErrors;
import dev.guard.ready.redis.RedisProbe;
import dev.guard.ready.Probe;
import dev.guard.ready.Probes;
import dev.guard.ready.ReadinessReport;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * One host, three readers, one answer: every spelling goes through the config guard (as
 * {@code REDIS_URL}), the probes ({@code Probes.forUrl} and the readiness report's note) and
 * diagnose (the report's own FAIL line, read back from a log), and each says the same thing:
 * loopback, a placeholder, or possibly the service. All three use guard's one endpoint parser
 * and one rule ({@link HostVerdict}).
 */
class HostSpellingsTest {

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', value = {
        "localhost              | LOOPBACK",
        "LOCALHOST.             | LOOPBACK",
        "localhost.localdomain  | LOOPBACK",
        "redis.localhost        | LOOPBACK",
        "ip6-localhost          | LOOPBACK",
        "ip6-loopback           | LOOPBACK",
        "127.0.0.1              | LOOPBACK",
        "127.0.0.53             | LOOPBACK",
        "127.1                  | LOOPBACK",
        "127.0.1                | LOOPBACK",
        "0x7f.0.0.1             | LOOPBACK",
        "0x7F000001             | LOOPBACK",
        "2130706433             | LOOPBACK",
        "0177.0.0.1             | LOOPBACK",
        "0.0.0.0                | LOOPBACK",
        "0                      | LOOPBACK",
        "[::1]                  | LOOPBACK",
        "[0:0:0:0:0:0:0:1]      | LOOPBACK",
        "[::ffff:127.0.0.1]     | LOOPBACK",
        "[::]                   | LOOPBACK",
        "None                   | PLACEHOLDER",
        "null                   | PLACEHOLDER",
        "changeme               | PLACEHOLDER",
        "your-redis-host        | PLACEHOLDER",
        "redis                  | SERVICE",
        "redis-master.cache.svc.cluster.local | SERVICE",
        "kafka_broker_1         | SERVICE",
        "localhostx             | SERVICE",
        "notlocalhost           | SERVICE",
        "10.0.0.5               | SERVICE",
        "128.0.0.1              | SERVICE",
        "126.255.255.255        | SERVICE",
        "[2001:db8::1]          | SERVICE",
        "[fe80::1]              | SERVICE",
    })
    void configGuardProbesAndDiagnoseAgree(String host, HostVerdict expected) {
        String url = "redis://" + host + ":6379";

        // the config guard, as a worker's boot check in a container
        // (nothing answers: the spelling is under test, not what listens on this machine)
        ConfigReport report = ConfigGuard.builder().environment(Map.of("REDIS_URL", url)).inContainer(true)
                .loopbackAnswers((h, p) -> false).requireEnv("REDIS_URL").build().check();
        HostVerdict config = report.violations().stream().anyMatch(v -> v.rule() == Violation.Rule.LOOPBACK) ? HostVerdict.LOOPBACK
                : report.violations().stream().anyMatch(v -> v.rule() == Violation.Rule.PLACEHOLDER) ? HostVerdict.PLACEHOLDER
                : HostVerdict.SERVICE;
        assertEquals(expected, config, "config guard on " + url + ":\n" + report.render());
        assertEquals(expected == HostVerdict.SERVICE, report.ok(), report.render());

        // the probes: the URL parses to a real probe, and the report's note says the same
        Probe probe = Probes.forUrl(url);
        assertInstanceOf(RedisProbe.class, probe, url + " did not parse as a Redis probe");
        assertEquals(expected, HostVerdict.ofValue(probe.target()), "probe target " + probe.target());
        assertEquals(expected != HostVerdict.SERVICE, ReadinessReport.hostNote(probe.target()) != null, probe.target());

        // diagnose, reading the readiness report's FAIL line back from a worker's log
        String line = "  FAIL redis " + probe.target() + ": refused, attempt 30, 60s\n";
        Diagnosis d = Diagnoser.builder().endpoint("redis:6379").build()
                .diagnoseTexts(Map.of("worker.log", line.repeat(5)));
        assertEquals(1, d.hosts().size(), "diagnose should find the one host of '" + line.trim() + "': " + d.hosts());
        HostErrors errors = d.hosts().get(0);
        assertEquals(expected != HostVerdict.SERVICE, errors.category().equals("loopback"),
                "diagnose put " + probe.target() + " in category " + errors.category());
    }
}
