package dev.guard.init;

import dev.guard.ExitCodes;
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
    static final Path COMPOSE_DIR = dev.guard.testing.Checkout.root().resolve("compose");
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
        for (String name : List.of("redis", "rabbitmq")) {
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

    /** The stack's workers and the one-shot guard-init service each depends on. */
    static final Map<String, String> WORKER_GATES = Map.of("worker", "guard-init", "worker-amqp", "guard-init-amqp");

    @Test
    void oneNamePerSettingOnEverySide() throws IOException {
        List<String> sides = List.of("backend", "backend-amqp", "worker", "worker-amqp", "guard-check-env",
                "guard-init", "guard-init-amqp", "naive-worker");
        Map<String, Object> backend = Manifests.map(service("backend"), "environment");
        assertTrue(backend.containsKey("REDIS_URL"), "backend reads REDIS_URL: " + backend);
        // no drifted second name for the same thing on any side (CACHE_URL, REDIS_HOST, ...), and
        // one value per name: every side reads the Redis the backend fills
        Map<String, Object> namesByValue = new TreeMap<>();
        Map<String, Object> valuesByName = new TreeMap<>();
        for (String side : sides) {
            Manifests.map(service(side), "environment").forEach((k, v) -> {
                if (k.matches(".*(_URL|_HOST|_BOOTSTRAP|_ADDR)$")) {
                    Object previous = namesByValue.putIfAbsent(String.valueOf(v), k);
                    assertTrue(previous == null || previous.equals(k),
                            side + ": the value " + v + " appears under two names: " + previous + " and " + k);
                    Object before = valuesByName.putIfAbsent(k, v);
                    assertTrue(before == null || before.equals(v), side + ": " + k + " is " + v + " here, " + before + " elsewhere");
                }
            });
        }
    }

    @Test
    void eachWorkerWaitsForItsGuardInitToCompleteSuccessfully() throws IOException {
        assertEquals(List.of("check-env"), Manifests.list(service("guard-check-env").get("command"), "check-env command"));
        WORKER_GATES.forEach((workerName, gateName) -> {
            try {
                Map<String, Object> worker = service(workerName);
                Map<String, Object> dependsOn = Manifests.map(worker, "depends_on");
                assertEquals("service_completed_successfully", Manifests.map(dependsOn, gateName).get("condition"), workerName);
                Map<String, Object> gate = service(gateName);
                assertEquals("guard-init:0.1.0", gate.get("image"));
                assertEquals(List.of("wait"), Manifests.list(gate.get("command"), gateName + ".command"));
                assertEquals("no", gate.get("restart"), gateName + ": a one-shot must not restart");
                assertEquals("service_completed_successfully",
                        Manifests.map(Manifests.map(gate, "depends_on"), "guard-check-env").get("condition"), gateName);
                long grace = Manifests.composeSeconds(worker.get("stop_grace_period"));
                assertTrue(grace >= 90, workerName + ": stop_grace_period " + grace + " s is shorter than its longest job (90 s)");
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
    }

    @Test
    void eachGuardInitWaitsForWhatItsWorkerUsesAndNothingElse() throws Exception {
        // the real CLI reads the one-shot's config with the stack's environment; all targets are
        // pointed at a closed port, so it gives up after --timeout and lists what it waited for
        for (Map.Entry<String, String> e : WORKER_GATES.entrySet()) {
            Map<String, Object> worker = Manifests.map(service(e.getKey()), "environment");
            Map<String, Object> gate = Manifests.map(service(e.getValue()), "environment");
            List<String> uses = "amqp".equals(worker.get("JOB_BROKER")) ? List.of("amqp", "redis") : List.of("redis");
            String conf = String.valueOf(gate.get("GUARD_CONFIG")).replace("/etc/guard/", "");
            Map<String, String> env = new TreeMap<>();
            env.put("GUARD_CONFIG", COMPOSE_DIR.resolve(conf).toString());
            env.put("REDIS_URL", "redis://127.0.0.1:1");
            env.put("AMQP_URL", "amqp://guest:guest@127.0.0.1:1");
            Cli.Result r = Cli.run(env, "wait", "--json", "--timeout", "1s");
            assertEquals(ExitCodes.UNAVAILABLE, r.code(), r.toString());
            com.fasterxml.jackson.databind.JsonNode json = new com.fasterxml.jackson.databind.ObjectMapper().readTree(r.out());
            List<String> kinds = new java.util.ArrayList<>();
            json.get("targets").forEach(t -> kinds.add(t.get("kind").asText()));
            java.util.Collections.sort(kinds);
            assertEquals(uses, kinds, e.getValue() + " waits for " + kinds + ", its worker uses " + uses + ": " + r.out());
            // a value from the included guard.conf is named by guard.conf (line 15: attempt-timeout)
            assertTrue(json.get("settings").get("attemptTimeoutFrom").asText().matches("guard\\.attempt-timeout in .*/guard\\.conf:\\d+"),
                    json.get("settings").toString());
            assertTrue(json.get("settings").get("targetsFrom").asText().contains(conf), json.get("settings").toString());
        }
    }

    @Test
    void noCredentialInAnyCommandLine() throws IOException {
        // a password in command or entrypoint is visible in ps, /proc/*/cmdline and inspect output;
        // the environment (or a mounted file) is where it belongs
        services().forEach((name, svc) -> {
            Map<String, Object> m = Manifests.map(svc, name);
            for (String key : List.of("command", "entrypoint", "healthcheck")) {
                if (m.containsKey(key)) {
                    String text = String.valueOf(m.get(key));
                    assertTrue(!Pattern.compile("://[^/@\\s]+:[^/@\\s]+@").matcher(text).find(),
                            name + "." + key + " carries a credential: " + text);
                    assertTrue(!text.contains("${") && !text.contains("$("), name + "." + key + " expands a variable: " + text);
                }
            }
        });
    }

    @Test
    void guardConfAcceptsTheStackEnvironment() throws IOException {
        // the HOCON file the one-shots mount, run through the real CLI with the worker's environment
        Map<String, String> env = new TreeMap<>();
        Manifests.map(service("guard-check-env"), "environment").forEach((k, v) -> env.put(k, String.valueOf(v)));
        env.put("GUARD_CONFIG", COMPOSE_DIR.resolve("guard.conf").toString());
        Cli.Result r = Cli.run(env, "check-env");
        assertEquals(0, r.code(), r.toString());
        for (String name : List.of("REDIS_URL", "AMQP_URL")) {
            assertTrue(r.out().contains(name), name + " checked: " + r);
        }
        assertTrue(!r.both().contains("guest:guest"), "AMQP password masked: " + r);
        // and without the worker's variables it lists every one of them, exit 78
        Cli.Result empty = Cli.run(Map.of("GUARD_CONFIG", COMPOSE_DIR.resolve("guard.conf").toString()), "check-env");
        assertEquals(ExitCodes.CONFIG, empty.code(), empty.toString());
        for (String name : List.of("REDIS_URL", "AMQP_URL")) {
            assertTrue(empty.err().contains("MISSING: " + name + " is not set"), name + " reported missing: " + empty);
        }
        // wait reads guard.wait, which substitutes them: it names the problem instead of a parse error
        Cli.Result wait = Cli.run(Map.of("GUARD_CONFIG", COMPOSE_DIR.resolve("guard.conf").toString()), "wait");
        assertEquals(ExitCodes.CONFIG, wait.code(), wait.toString());
        assertTrue(wait.err().contains("guard.wait in ") && wait.err().contains("substitutes a variable that is not set"), wait.toString());
    }
}
