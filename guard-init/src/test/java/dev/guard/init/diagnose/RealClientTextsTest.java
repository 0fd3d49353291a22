package dev.guard.init.diagnose;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.guard.testing.NoLeakedProcesses;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real clients' texts, captured live (closed port, unknown host, wrong password, loading
 * Redis, a Redis killed mid-load): diagnose classifies the logs built from them, and the stored
 * {@code *-captured} scenarios still hold what the clients say today.
 */
@ExtendWith(NoLeakedProcesses.class)
class RealClientTextsTest {
    private static List<CapturedScenarios.Scenario> live;
    @TempDir
    static Path tmp;

    @BeforeAll
    static void capture() throws IOException {
        live = CapturedScenarios.build();
        CapturedScenarios.write(live, tmp);
    }

    private static CapturedScenarios.Scenario named(String prefix) {
        return live.stream().filter(s -> s.name().equals(prefix + CapturedScenarios.SUFFIX)).findFirst()
                .orElseThrow(() -> new AssertionError("no captured scenario " + prefix));
    }

    private static String text(CapturedScenarios.Scenario s, String file) {
        return String.join("\n", s.files().get(file));
    }

    /** The {@code *-captured} scenario directories stored under src/test/resources/diagnose. */
    private static Set<String> storedCaptures() throws IOException {
        try (Stream<Path> dirs = Files.list(DiagnoseScenariosTest.root())) {
            return dirs.filter(Files::isDirectory).map(d -> d.getFileName().toString())
                    .filter(n -> n.endsWith(CapturedScenarios.SUFFIX)).collect(Collectors.toCollection(TreeSet::new));
        }
    }

    @Test
    void theLiveCapturesAreExactlyTheStoredOnesAndCoverEveryCause() throws IOException {
        Set<String> stored = storedCaptures();
        assertFalse(stored.isEmpty(), "no *" + CapturedScenarios.SUFFIX + " scenario is stored under "
                + DiagnoseScenariosTest.root());
        Set<String> names = live.stream().map(CapturedScenarios.Scenario::name).collect(Collectors.toCollection(TreeSet::new));
        assertEquals(live.size(), names.size(), "every live capture must have its own name: " + names);
        assertEquals(stored, names, "the live captures must be exactly the stored *" + CapturedScenarios.SUFFIX + " scenarios");
        Set<String> causes = live.stream().map(CapturedScenarios.Scenario::expected).collect(Collectors.toCollection(TreeSet::new));
        assertEquals(Set.of("cause: env-drift", "cause: startup-race", "cause: dependency-down", "cause: redis-loading",
                "cause: oom-or-probe-kill"), causes, "the causes the real clients' texts are captured for");
    }

    @Test
    void everyLiveCaptureIsClassifiedAsExpected() throws IOException {
        assertEquals(storedCaptures(), live.stream().map(CapturedScenarios.Scenario::name)
                .collect(Collectors.toCollection(TreeSet::new)), "the captures to classify");
        List<String> wrong = new ArrayList<>();
        int classified = 0;
        for (CapturedScenarios.Scenario s : live) {
            String[] r = DiagnoseScenariosTest.run(tmp.resolve(s.name()));
            String first = r[1].lines().findFirst().orElse("");
            if (!first.equals(s.expected())) {
                wrong.add(s.name() + ": expected '" + s.expected() + "', got:\n" + r[1] + r[2]);
            }
            classified++;
        }
        assertTrue(wrong.isEmpty(), String.join("\n\n", wrong));
        assertEquals(storedCaptures().size(), classified, "every stored capture must have been classified");
    }

    @Test
    void theClientsSayWhatTheRunbookQuotes() {
        String lettuce = text(named("compose-lettuce-localhost-drift"), "worker.log");
        assertTrue(lettuce.contains("io.lettuce.core.RedisConnectionException: Unable to connect to localhost/<unresolved>:6379"), lettuce);
        assertTrue(lettuce.contains("Connection refused: localhost/127.0.0.1:6379"), lettuce);
        String amqp = text(named("compose-amqp-client-refused-boot-localhost"), "worker.log");
        assertTrue(amqp.contains("java.net.ConnectException: Connection refused"), amqp);
        String access = text(named("compose-amqp-client-access-refused"), "worker.log");
        assertTrue(access.contains("ACCESS_REFUSED"), access);
        String nats = text(named("k8s-jnats-localhost-drift"), "worker.log");
        assertTrue(nats.contains("Unable to connect to NATS servers: [nats://localhost:4222]"), nats);
        String kafka = text(named("k8s-kafka-clients-localhost-drift"), "worker.log");
        assertTrue(kafka.contains("Connection to node -1 (localhost/127.0.0.1:9092) could not be established. Node may not be available."), kafka);
        String loading = text(named("k8s-lettuce-loading-every-attempt"), "worker.log");
        assertTrue(loading.contains("LOADING Redis is loading the dataset in memory"), loading);
        String redisLog = text(named("compose-redis-killed-mid-load"), "redis.log");
        assertTrue(redisLog.contains("Redis is starting") && redisLog.contains("Ready to accept connections"), redisLog);
    }

    @Test
    void lettuceOnLocalhostCountsAsDriftAndNamesTheHost() {
        Diagnosis d = Diagnoser.builder().endpoint("redis:6379").build()
                .diagnoseTexts(Map.of("worker.log", text(named("compose-lettuce-localhost-drift"), "worker.log")));
        assertEquals(List.of("env-drift"), d.causes());
        HostErrors h = d.hosts().get(0);
        assertEquals("localhost:6379", h.target());
        assertEquals("loopback", h.category());
        assertFalse(h.stopped());
        // "Caused by: java.net.ConnectException: Connection refused" is part of the same attempt, not a host-less error
        assertEquals(1, d.hosts().size(), d.hosts().toString());
    }

    @Test
    void unknownHostIsNotAnEndpoint() {
        Diagnosis d = Diagnoser.builder().endpoint("redis:6379").build()
                .diagnoseTexts(Map.of("worker.log", text(named("k8s-lettuce-unknown-host-drift"), "worker.log")));
        assertEquals(List.of("env-drift"), d.causes());
        assertTrue(d.hosts().stream().allMatch(h -> h.target().startsWith(RealClientTexts.UNKNOWN_HOST)
                && h.category().equals("not-an-endpoint")), d.hosts().toString());
    }

    @Test
    void amqpRefusalNamesNoHostSoTheBootUrlDecidesAndItsPasswordIsMasked() throws IOException {
        String[] r = DiagnoseScenariosTest.run(tmp.resolve("compose-amqp-client-refused-boot-localhost" + CapturedScenarios.SUFFIX));
        assertTrue(r[1].startsWith("cause: env-drift\n"), r[1]);
        assertTrue(r[1].contains("localhost:5672 (from boot line)"), r[1]);
        assertTrue(r[1].contains("amqp://guest:****@localhost:5672"), r[1]);
        assertFalse(r[1].contains("guest:guest"), "password printed:\n" + r[1]);
    }

    @Test
    void accessRefusedIsReportedAsCredentials() throws IOException {
        String[] r = DiagnoseScenariosTest.run(tmp.resolve("compose-amqp-client-access-refused" + CapturedScenarios.SUFFIX));
        assertTrue(r[1].startsWith("cause: env-drift\n"), r[1]);
        assertTrue(r[1].contains("refused the credentials"), r[1]);
    }

    @Test
    void storedCapturedScenariosMatchTheLiveClients() throws IOException {
        assertFalse(live.isEmpty(), "no live capture to compare with the stored ones");
        Path stored = DiagnoseScenariosTest.root();
        List<String> drift = new ArrayList<>();
        for (CapturedScenarios.Scenario s : live) {
            Path dir = stored.resolve(s.name());
            if (!Files.isDirectory(dir)) {
                drift.add(s.name() + " is not stored");
                continue;
            }
            assertEquals(s.expected(), Files.readString(dir.resolve("expected")).strip(), s.name());
            for (Map.Entry<String, List<String>> f : s.files().entrySet()) {
                if (f.getKey().equals("redis.log")) {
                    continue; // a real server's log: times and pids differ on every run
                }
                Set<String> want = comparable(f.getValue());
                Set<String> have = comparable(Files.readAllLines(dir.resolve(f.getKey()), StandardCharsets.UTF_8));
                if (!want.equals(have)) {
                    Set<String> missing = new TreeSet<>(want);
                    missing.removeAll(have);
                    drift.add(s.name() + "/" + f.getKey() + ": the client now says\n  "
                            + String.join("\n  ", missing));
                }
            }
        }
        if (!drift.isEmpty()) {
            fail("stored captured scenarios differ from what the real clients say now; regenerate them with "
                    + "CapturedScenarios.main (from the repository root):\n" + String.join("\n", drift));
        }
    }

    /** Distinct lines without the timestamp; resolver retry counts vary by machine. */
    private static Set<String> comparable(List<String> lines) {
        return lines.stream().map(l -> l.replaceFirst("^\\S+Z ", "").replaceAll("after \\d+ queries", "after N queries")
                .strip()).collect(Collectors.toCollection(TreeSet::new));
    }
}
