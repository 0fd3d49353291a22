package dev.guard.init;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.guard.testing.MachineServices;
import dev.guard.testing.NoLeakedProcesses;
import dev.guard.testing.RedisServer;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** {@code guard-init wait} through {@link GuardInit#run}, against the machine's real services and private servers. */
@ExtendWith(NoLeakedProcesses.class)
class WaitCommandTest {

    static int closedPort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    @Test
    void machineRedisRabbitNatsAndTcpReadyExitsZeroWithOneLinePerTarget() {
        Cli.Result r = Cli.run(Map.of(), "wait", MachineServices.redisUri(), MachineServices.amqpUri(),
                MachineServices.natsUrl(), "tcp://127.0.0.1:6379", "--timeout", "30s");
        assertEquals(0, r.code(), r.toString());
        assertTrue(r.out().startsWith("guard-init wait: 4 targets (from arguments), deadline 30s (from --timeout)"), r.toString());
        for (String line : new String[] {"redis 127.0.0.1:6379: ready (PONG)", "amqp 127.0.0.1:5672: ready",
                "nats 127.0.0.1:4222: ready", "tcp 127.0.0.1:6379: ready"}) {
            assertTrue(r.out().contains(line), "state line '" + line + "': " + r);
        }
        assertTrue(r.out().contains("readiness: all 4 target(s) ready"), r.toString());
        assertFalse(r.both().contains("guest:guest"), "the AMQP password is masked: " + r);
        assertEquals("", r.err(), r.toString());
    }

    @Test
    void closedPortIsNotReadyByTheDeadlineExits69WithWhatWasFoundAndWhatToDo() throws IOException {
        int port = closedPort();
        Cli.Result r = Cli.run(Map.of(), "wait", "tcp://127.0.0.1:" + port, "--timeout", "1500ms", "--attempt-timeout", "500ms");
        assertEquals(ExitCodes.UNAVAILABLE, r.code(), r.toString());
        assertTrue(r.out().contains("tcp 127.0.0.1:" + port + ": refused"), "one line for the state change: " + r);
        assertTrue(r.err().contains("NOT READY: deadline of 1.5s reached"), r.toString());
        assertTrue(r.err().contains("found: java.net.ConnectException"), r.toString());
        assertTrue(r.err().contains("do: start the service"), r.toString());
    }

    @Test
    void wrongRedisPasswordExits77AtOnceWithoutPrintingEitherPassword() {
        try (RedisServer redis = RedisServer.builder().password("right-pw-4711").build().start()) {
            String url = "redis://:wrong-pw-0815@127.0.0.1:" + redis.port();
            Cli.Result r = Cli.run(Map.of(), "wait", url, "--timeout", "30s");
            assertEquals(ExitCodes.NO_PERMISSION, r.code(), r.toString());
            assertTrue(r.out().contains("redis 127.0.0.1:" + redis.port() + ": auth"), r.toString());
            assertTrue(r.err().contains("without retrying") && r.err().contains("fix the user/password"), r.toString());
            assertFalse(r.both().contains("wrong-pw-0815") || r.both().contains("right-pw-4711"), "no password printed: " + r);
            // and the right one is ready
            Cli.Result ok = Cli.run(Map.of(), "wait", redis.uri(), "--timeout", "30s");
            assertEquals(0, ok.code(), ok.toString());
            assertFalse(ok.both().contains("right-pw-4711"), ok.toString());
        }
    }

    @Test
    void loadingRedisIsWaitedForUntilItAnswersPong() {
        try (RedisServer redis = RedisServer.builder().preloadKeys(100_000).build().startLoading()) {
            Cli.Result health = Cli.run(Map.of(), "healthcheck", redis.uri());
            Cli.Result r = Cli.run(Map.of(), "wait", redis.uri(), "--timeout", "60s");
            assertEquals(ExitCodes.UNHEALTHY, health.code(), "a LOADING Redis is not healthy: " + health);
            assertTrue(health.err().contains("UNHEALTHY redis 127.0.0.1:" + redis.port() + ": loading"), health.toString());
            assertEquals(0, r.code(), r.toString());
            int loading = r.out().indexOf("redis 127.0.0.1:" + redis.port() + ": loading");
            int ready = r.out().indexOf("redis 127.0.0.1:" + redis.port() + ": ready");
            assertTrue(loading > 0 && ready > loading, "first loading, then ready: " + r);
        }
    }

    @Test
    void badTargetsAreConfigErrors78AndNoTargetIsUsage64() {
        Cli.Result scheme = Cli.run(Map.of(), "wait", "mongodb://db:27017");
        assertEquals(ExitCodes.CONFIG, scheme.code(), scheme.toString());
        assertTrue(scheme.err().contains("unknown scheme") && scheme.err().contains("do: fix the target URL"), scheme.toString());
        Cli.Result none = Cli.run(Map.of(), "wait");
        assertEquals(ExitCodes.USAGE, none.code(), none.toString());
        assertTrue(none.err().contains("no target to wait for") && none.err().contains("GUARD_WAIT"), none.toString());
        Cli.Result badFlag = Cli.run(Map.of(), "wait", "tcp://x:1", "--timeout", "soon");
        assertEquals(ExitCodes.USAGE, badFlag.code(), badFlag.toString());
        assertTrue(badFlag.err().contains("--timeout"), badFlag.toString());
        Cli.Result badEnv = Cli.run(Map.of("GUARD_TIMEOUT", "soon"), "wait", "tcp://x:1");
        assertEquals(ExitCodes.CONFIG, badEnv.code(), badEnv.toString());
        assertTrue(badEnv.err().contains("GUARD_TIMEOUT='soon' (from env GUARD_TIMEOUT) is not a duration"), badEnv.toString());
    }

    @Test
    void targetsAndTimeoutComeFromGuardWaitAndGuardTimeout() throws IOException {
        int port = closedPort();
        Cli.Result r = Cli.run(Map.of("GUARD_WAIT", MachineServices.redisUri() + ", tcp://127.0.0.1:" + port,
                "GUARD_TIMEOUT", "1s", "GUARD_ATTEMPT_TIMEOUT", "300ms"), "wait");
        assertEquals(ExitCodes.UNAVAILABLE, r.code(), r.toString());
        assertTrue(r.out().contains("2 targets (from env GUARD_WAIT), deadline 1s (from env GUARD_TIMEOUT), attempt timeout 0.3s"), r.toString());
        assertTrue(r.err().contains("ok   redis 127.0.0.1:6379") && r.err().contains("FAIL tcp 127.0.0.1:" + port), r.toString());
    }

    @Test
    void targetsComeFromTheHoconFileResolvedAgainstTheEnvironment(@TempDir Path dir) throws IOException {
        Path conf = dir.resolve("guard.conf");
        Files.writeString(conf, "guard {\n  wait = [${REDIS_URL}, \"nats://127.0.0.1:4222\"]\n  timeout = 20s\n}\n");
        Cli.Result r = Cli.run(Map.of("REDIS_URL", MachineServices.redisUri()), "wait", "--config", conf.toString());
        assertEquals(0, r.code(), r.toString());
        assertTrue(r.out().contains("2 targets (from wait in " + conf + ":2), deadline 20s (from timeout in " + conf + ":3)")
                || r.out().contains("2 targets (from guard.wait in " + conf + ":2), deadline 20s (from guard.timeout in " + conf + ":3)"),
                r.toString());
        Files.writeString(conf, "guard { wait = [${UNSET_VAR_FOR_TEST}] }\n");
        Cli.Result unresolved = Cli.run(Map.of(), "wait", "--config", conf.toString());
        assertEquals(ExitCodes.CONFIG, unresolved.code(), unresolved.toString());
        assertTrue(unresolved.err().contains("UNSET_VAR_FOR_TEST") && unresolved.err().contains("Action:"), unresolved.toString());
    }

    @Test
    void jsonIsOneMachineReadableReportWithoutSecrets() throws Exception {
        int port = closedPort();
        Cli.Result r = Cli.run(Map.of(), "wait", "amqp://guest:guest@127.0.0.1:5672", "redis://:pw-s3cr3t@127.0.0.1:" + port,
                "--timeout", "1s", "--json");
        assertEquals(ExitCodes.UNAVAILABLE, r.code(), r.toString());
        JsonNode json = new ObjectMapper().readTree(r.out());
        assertFalse(json.path("ready").asBoolean());
        assertEquals("deadline", json.path("outcome").asText());
        assertEquals("ready", json.path("targets").path(0).path("state").asText());
        assertEquals("refused", json.path("targets").path(1).path("state").asText());
        assertTrue(json.path("targets").path(1).path("action").asText().startsWith("start the service"));
        assertFalse(r.both().contains("pw-s3cr3t") || r.both().contains("guest:guest"), r.toString());
    }

    @Test
    void extrasFlagsBecomeQueryParameters() {
        String queue = "guard-cli-missing-" + System.nanoTime();
        Cli.Result r = Cli.run(Map.of(), "wait", MachineServices.amqpUri(), "--amqp-queue", queue, "--timeout", "1s");
        assertEquals(ExitCodes.UNAVAILABLE, r.code(), r.toString());
        assertTrue(r.out().contains("amqp 127.0.0.1:5672: missing"), r.toString());
        assertTrue(r.err().contains(queue), "names the missing queue: " + r);
        assertEquals("redis://h:1/0?key=k", new ProbeExtrasFixture("--redis-key", "k").apply("redis://h:1/0"));
        assertEquals("kafka://a:1,b:2?topics=x,y&brokers=3",
                new ProbeExtrasFixture("--kafka-topic", "x,y", "--kafka-brokers", "3").apply("kafka://a:1,b:2"));
        assertEquals("nats://h:4222?stream=own", new ProbeExtrasFixture("--nats-stream", "other").apply("nats://h:4222?stream=own"),
                "the URL's own parameter wins");
    }

    @Test
    void interruptStopsTheWaitAtOnceWith143() throws Exception {
        int port = closedPort();
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        AtomicInteger code = new AtomicInteger(-1);
        Thread t = new Thread(() -> code.set(GuardInit.run(Map.of(), new ByteArrayInputStream(new byte[0]),
                new PrintWriter(out, true), new PrintWriter(err, true), "wait", "tcp://127.0.0.1:" + port, "--timeout", "120s")));
        t.start();
        long until = System.nanoTime() + 20_000_000_000L;
        while (!out.toString().contains(": refused") && System.nanoTime() < until) {
            Thread.sleep(20);
        }
        t.interrupt();
        t.join(10_000);
        assertFalse(t.isAlive(), "wait did not return after the interrupt: " + out + err);
        assertEquals(ExitCodes.TERMINATED, code.get(), out + "\n" + err);
        assertTrue(err.toString().contains("guard-init wait: interrupted after"), err.toString());
        assertTrue(err.toString().contains("FAIL tcp 127.0.0.1:" + port), err.toString());
    }

    @Test
    void helpListsEveryExitCode() {
        Cli.Result r = Cli.run("wait", "--help");
        assertEquals(0, r.code(), r.toString());
        for (String code : new String[] {"0", "64", "69", "77", "78", "143"}) {
            assertTrue(r.out().contains("  " + code + "   ") || r.out().contains(" " + code + " "), code + " in " + r);
        }
        assertTrue(r.out().contains("--kafka-topic") && r.out().contains("GUARD_WAIT"), r.toString());
    }

    /** ProbeExtras with picocli-parsed flags (pure logic). */
    static final class ProbeExtrasFixture {
        final ProbeExtras extras = new ProbeExtras();

        ProbeExtrasFixture(String... args) {
            new picocli.CommandLine(new Holder(extras)).parseArgs(args);
        }

        String apply(String url) {
            return extras.apply(url);
        }

        @picocli.CommandLine.Command(name = "x")
        static final class Holder {
            @picocli.CommandLine.Mixin
            ProbeExtras extras;

            Holder(ProbeExtras extras) {
                this.extras = extras;
            }
        }
    }
}
