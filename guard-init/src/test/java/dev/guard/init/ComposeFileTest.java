package dev.guard.init;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.guard.testing.BoundedRun;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * compose/docker-compose.yml: valid for Compose itself (Debian's docker-compose 1.29 {@code config -q},
 * offline, no engine needed) and right in the ways that lose jobs when wrong.
 */
class ComposeFileTest {
    static final Path COMPOSE_DIR = Manifests.repoRoot().resolve("compose");
    static final Path FILE = COMPOSE_DIR.resolve("docker-compose.yml");
    /**
     * Hang guard for {@code docker-compose config -q}: offline it parses one file in about a
     * second (a cold Python start); minutes only if it hangs, and then the test fails with its output.
     */
    static final Duration COMPOSE_CONFIG_BOUND = Duration.ofSeconds(120);

    static Map<String, Object> services() throws IOException {
        return Manifests.map(Manifests.load(FILE), "services");
    }

    static Map<String, Object> service(String name) throws IOException {
        return Manifests.map(services(), name);
    }

    static String[] dockerComposeConfig(Path file) throws IOException, InterruptedException {
        Path bin = Path.of("/usr/bin/docker-compose");
        if (!Files.isExecutable(bin)) {
            throw new AssertionError("docker-compose is not installed: apt-get install -y docker-compose "
                    + "(.ci/run installs it); it validates Compose files offline");
        }
        BoundedRun.Result r = BoundedRun.run(List.of(bin.toString(), "-f", file.toString(), "config", "-q"), COMPOSE_CONFIG_BOUND);
        return new String[] {String.valueOf(r.exit()), r.output()};
    }

    @Test
    void composeItselfAcceptsTheFile() throws Exception {
        String[] r = dockerComposeConfig(FILE);
        assertEquals("0", r[0], "docker-compose config -q rejected " + FILE + ": " + r[1]);
    }

    @Test
    void composeRejectsABrokenCopy(@TempDir Path dir) throws Exception {
        // the validator can fail: a healthcheck with a misspelt key is rejected
        Path broken = dir.resolve("docker-compose.yml");
        Files.writeString(broken, Files.readString(FILE).replaceFirst("start_period:", "start_periode:"));
        Files.copy(COMPOSE_DIR.resolve("guard.conf"), dir.resolve("guard.conf"));
        String[] r = dockerComposeConfig(broken);
        assertNotEquals("0", r[0], "docker-compose config accepted a broken file: " + r[1]);
        assertTrue(r[1].contains("start_periode"), r[1]);
    }

    @Test
    void redisHealthcheckDoesNotPassWhileLoading() throws IOException {
        List<Object> test = Manifests.list(Manifests.map(service("redis"), "healthcheck").get("test"), "redis healthcheck test");
        String joined = String.join(" ", test.stream().map(String::valueOf).toList());
        // `redis-cli ping` exits 0 on "LOADING ..."; only a PONG match (or guard-init healthcheck) tells them apart
        boolean matchesPong = Pattern.compile("redis-cli( -\\S+)* ping \\| grep -q PONG").matcher(joined).find();
        boolean guardInit = joined.contains("healthcheck") && joined.contains("redis://");
        assertTrue(matchesPong || guardInit, "redis healthcheck must reject LOADING: " + joined);
    }

    @Test
    void everyBrokerHasAProtocolHealthcheckWithASizedStartPeriod() throws IOException {
        for (String name : List.of("redis", "rabbitmq", "nats", "kafka")) {
            Map<String, Object> hc = Manifests.map(service(name), "healthcheck");
            List<Object> test = Manifests.list(hc.get("test"), name + " healthcheck test");
            assertTrue(test.get(0).equals("CMD") || test.get(0).equals("CMD-SHELL"), name + ": " + test);
            long startPeriod = Manifests.composeSeconds(hc.get("start_period"));
            assertTrue(startPeriod >= 30, name + ": start_period " + startPeriod + " s is shorter than a cold start");
            long budget = Manifests.composeSeconds(hc.get("interval")) * ((Number) hc.get("retries")).longValue();
            assertTrue(budget >= 20, name + ": interval x retries = " + budget + " s after start_period");
        }
    }

    @Test
    void nothingSleepsAndEveryCommandIsExecForm() throws IOException {
        for (String s : Manifests.strings(Manifests.load(FILE))) {
            assertTrue(!Pattern.compile("\\bsleep\\b").matcher(s).find(), "a sleep in the compose file: " + s);
        }
        services().forEach((name, svc) -> {
            Map<String, Object> m = Manifests.map(svc, name);
            for (String key : List.of("command", "entrypoint")) {
                if (m.containsKey(key)) {
                    List<Object> cmd = Manifests.list(m.get(key), name + "." + key);
                    assertTrue(!List.of("sh", "/bin/sh", "bash", "/bin/bash").contains(String.valueOf(cmd.get(0))),
                            name + "." + key + " runs a shell as PID 1 (it ignores SIGTERM): " + cmd);
                }
            }
        });
    }

    @Test
    void oneNamePerSettingOnEverySide() throws IOException {
        Map<String, Object> backend = Manifests.map(service("backend"), "environment");
        Map<String, Object> worker = Manifests.map(service("worker"), "environment");
        Map<String, Object> guard = Manifests.map(service("guard-init"), "environment");
        assertTrue(backend.containsKey("REDIS_URL"), "backend reads REDIS_URL: " + backend);
        assertEquals(backend.get("REDIS_URL"), worker.get("REDIS_URL"), "worker and backend: same name, same Redis");
        assertEquals(worker.get("REDIS_URL"), guard.get("REDIS_URL"), "guard-init checks what the worker reads");
        // no drifted second name for the same thing on either side (CACHE_URL, REDIS_HOST, ...)
        Map<String, Object> connectionVars = new TreeMap<>();
        for (Map<String, Object> env : List.of(backend, worker, guard)) {
            env.forEach((k, v) -> {
                if (k.matches(".*(_URL|_HOST|_BOOTSTRAP|_ADDR)$")) {
                    Object previous = connectionVars.putIfAbsent(String.valueOf(v), k);
                    assertTrue(previous == null || previous.equals(k),
                            "the value " + v + " appears under two names: " + previous + " and " + k);
                }
            });
        }
    }

    @Test
    void workerWaitsForGuardInitToCompleteSuccessfully() throws IOException {
        Map<String, Object> dependsOn = Manifests.map(service("worker"), "depends_on");
        assertEquals("service_completed_successfully", Manifests.map(dependsOn, "guard-init").get("condition"));
        Map<String, Object> guard = service("guard-init");
        assertEquals("guard-init:0.1.0", guard.get("image"));
        assertEquals(List.of("wait"), Manifests.list(guard.get("command"), "guard-init.command"));
        assertEquals("no", guard.get("restart"), "a one-shot must not restart");
        assertEquals("service_completed_successfully",
                Manifests.map(Manifests.map(guard, "depends_on"), "guard-check-env").get("condition"));
        assertEquals(List.of("check-env"), Manifests.list(service("guard-check-env").get("command"), "check-env command"));
        long grace = Manifests.composeSeconds(service("worker").get("stop_grace_period"));
        assertTrue(grace >= 90, "worker stop_grace_period " + grace + " s is shorter than its longest job (90 s)");
    }

    @Test
    void guardConfAcceptsTheStackEnvironment() throws IOException {
        // the HOCON file the one-shots mount, run through the real CLI with the worker's environment
        Map<String, String> env = new TreeMap<>();
        Manifests.map(service("guard-check-env"), "environment").forEach((k, v) -> env.put(k, String.valueOf(v)));
        env.put("GUARD_CONFIG", COMPOSE_DIR.resolve("guard.conf").toString());
        Cli.Result r = Cli.run(env, "check-env");
        assertEquals(0, r.code(), r.toString());
        for (String name : List.of("REDIS_URL", "AMQP_URL", "NATS_URL", "KAFKA_BOOTSTRAP")) {
            assertTrue(r.out().contains(name), name + " checked: " + r);
        }
        assertTrue(!r.both().contains("guest:guest"), "AMQP password masked: " + r);
        // and without the worker's variables it lists every one of them, exit 78
        Cli.Result empty = Cli.run(Map.of("GUARD_CONFIG", COMPOSE_DIR.resolve("guard.conf").toString()), "check-env");
        assertEquals(ExitCodes.CONFIG, empty.code(), empty.toString());
        for (String name : List.of("REDIS_URL", "AMQP_URL", "NATS_URL", "KAFKA_BOOTSTRAP")) {
            assertTrue(empty.err().contains("MISSING: " + name + " is not set"), name + " reported missing: " + empty);
        }
        // wait reads guard.wait, which substitutes them: it names the problem instead of a parse error
        Cli.Result wait = Cli.run(Map.of("GUARD_CONFIG", COMPOSE_DIR.resolve("guard.conf").toString()), "wait");
        assertEquals(ExitCodes.CONFIG, wait.code(), wait.toString());
        assertTrue(wait.err().contains("guard.wait in ") && wait.err().contains("substitutes a variable that is not set"), wait.toString());
    }
}
