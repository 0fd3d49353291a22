package dev.guard.init;

import dev.guard.ExitCodes;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.guard.testing.FreePorts;
import dev.guard.testing.MachineServices;
import dev.guard.testing.NoLeakedProcesses;
import dev.guard.testing.RedisServer;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** {@code guard-init wait} through {@link GuardInit#run}, against the machine's real services and private servers. */
@ExtendWith(NoLeakedProcesses.class)
class WaitCommandTest {

    /**
     * Deadline of a wait that must reach a ready service. It ends as soon as everything is ready,
     * so it costs nothing when the machine is fast; it only has to outlast a slow one.
     */
    static final String READY_DEADLINE = "60s";
    /**
     * Deadline of a wait that mixes a ready shared service with a target that never gets ready
     * (so the test takes this long): the ready one must be reached before it. The clients are
     * warmed first ({@link #warmClients}), so this covers a warm connect on a loaded 2-core
     * machine, with a wide margin; it does not have to cover class loading.
     */
    static final String MIXED_DEADLINE = "10s";
    /** Bound of one attempt in those waits: a connect plus the handshake, on a loaded machine. */
    static final String MIXED_ATTEMPT_TIMEOUT = "8s";
    /** How long a test waits for the CLI (run in a thread) to print a state line or to return: hang guard. */
    static final Duration CLI_BOUND = Duration.ofSeconds(90);

    /** A 127.0.0.1 port that refuses connects and stays so for the JVM's life (held by {@link FreePorts}). */
    static int closedPort() {
        return FreePorts.next();
    }

    /**
     * The first lettuce / amqp-client / jnats connection in a JVM loads their classes: seconds on
     * a loaded machine. Done once here, under a generous deadline, so that tests with a
     * deadline that must also pass ({@link #MIXED_DEADLINE}) do not measure class loading.
     */
    @BeforeAll
    static void warmClients() {
        Cli.Result r = Cli.run(Map.of(), "wait", MachineServices.redisUri(), MachineServices.amqpUri(),
                MachineServices.natsUrl(), "--timeout", READY_DEADLINE, "--attempt-timeout", "20s");
        assertEquals(0, r.code(), "warm-up wait on the machine's services: " + r);
    }

    static String hostPort(String url) {
        return MachineServices.hostPort(url);
    }

    /**
     * Whether {@code text} shows {@code url}'s credentials unmasked ({@code user:password}, as
     * in the URL); false when the URL has no password. The user name alone may be printed.
     */
    static boolean leaksPassword(String text, String url) {
        String info = URI.create(url).getRawUserInfo();
        if (info == null || info.indexOf(':') < 0 || info.indexOf(':') == info.length() - 1) {
            return false;
        }
        String decoded = URLDecoder.decode(info, StandardCharsets.UTF_8);
        return text.contains(decoded) || text.contains(info);
    }

    /** Polls {@code condition} until true; fails with {@code what} and the CLI's output after {@link #CLI_BOUND}. */
    static void await(BooleanSupplier condition, String what, StringWriter out, StringWriter err) throws InterruptedException {
        long until = System.nanoTime() + CLI_BOUND.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > until) {
                throw new AssertionError(what + " not seen within " + CLI_BOUND.toSeconds() + " s; stdout:\n" + out
                        + "\nstderr:\n" + err);
            }
            Thread.sleep(20);
        }
    }

    @Test
    void machineRedisRabbitNatsAndTcpReadyExitsZeroWithOneLinePerTarget() {
        String redis = MachineServices.redisUri();
        String amqp = MachineServices.amqpUri();
        String nats = MachineServices.natsUrl();
        Cli.Result r = Cli.run(Map.of(), "wait", redis, amqp, nats, "tcp://" + hostPort(redis), "--timeout", READY_DEADLINE);
        assertEquals(0, r.code(), r.toString());
        assertTrue(r.out().startsWith("guard-init wait: 4 targets (from arguments), deadline " + READY_DEADLINE
                + " (from --timeout)"), r.toString());
        for (String line : new String[] {"redis " + hostPort(redis) + ": ready (PONG)", "amqp " + hostPort(amqp) + ": ready",
                "nats " + hostPort(nats) + ": ready", "tcp " + hostPort(redis) + ": ready"}) {
            assertTrue(r.out().contains(line), "state line '" + line + "': " + r);
        }
        assertTrue(r.out().contains("readiness: all 4 target(s) ready"), r.toString());
        assertFalse(leaksPassword(r.both(), amqp) || leaksPassword(r.both(), redis) || leaksPassword(r.both(), nats),
                "the passwords are masked: " + r);
        assertEquals("", r.err(), r.toString());
    }

    @Test
    void closedPortIsNotReadyByTheDeadlineExits69WithWhatWasFoundAndWhatToDo() {
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
    void loadingRedisIsWaitedForUntilItAnswersPong() throws InterruptedException {
        // held in LOADING until released below: the CLI meets a loading Redis however slowly it starts
        try (RedisServer redis = RedisServer.builder().heldLoading().build().startLoading()) {
            String target = "redis 127.0.0.1:" + redis.port();
            // the one attempt may take its time: Redis answers it (LOADING), it never waits for the bound
            Cli.Result health = Cli.run(Map.of(), "healthcheck", redis.uri(), "--attempt-timeout", "30s");
            assertTrue(redis.isLoading(), "the hold did not last through the healthcheck (" + redis.ping() + "); "
                    + health + "\nlog " + redis.logFile());
            assertEquals(ExitCodes.UNHEALTHY, health.code(), "a LOADING Redis is not healthy: " + health);
            assertTrue(health.err().contains("UNHEALTHY " + target + ": loading"), health.toString());

            StringWriter out = new StringWriter();
            StringWriter err = new StringWriter();
            AtomicInteger code = new AtomicInteger(-1);
            Thread t = new Thread(() -> code.set(GuardInit.run(Map.of(), new ByteArrayInputStream(new byte[0]),
                    new PrintWriter(out, true), new PrintWriter(err, true), "wait", redis.uri(), "--timeout", READY_DEADLINE)),
                    "guard-init-wait-loading");
            t.setDaemon(true);
            t.start();
            try {
                // released only once the CLI has reported loading, so "loading, then ready" holds by construction
                await(() -> out.toString().contains(target + ": loading"), "'" + target + ": loading'", out, err);
                redis.finishLoading();
                t.join(CLI_BOUND.toMillis());
                assertFalse(t.isAlive(), "wait did not return within " + CLI_BOUND.toSeconds() + " s of the release: "
                        + out + err);
            } finally {
                t.interrupt();
            }
            assertEquals(0, code.get(), "stdout:\n" + out + "\nstderr:\n" + err);
            int loading = out.toString().indexOf(target + ": loading");
            int ready = out.toString().indexOf(target + ": ready");
            assertTrue(loading > 0 && ready > loading, "first loading, then ready: " + out);
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
    void targetsAndTimeoutComeFromGuardWaitAndGuardTimeout() {
        int port = closedPort();
        String redis = MachineServices.redisUri();
        Cli.Result r = Cli.run(Map.of("GUARD_WAIT", redis + ", tcp://127.0.0.1:" + port,
                "GUARD_TIMEOUT", MIXED_DEADLINE, "GUARD_ATTEMPT_TIMEOUT", MIXED_ATTEMPT_TIMEOUT), "wait");
        assertEquals(ExitCodes.UNAVAILABLE, r.code(), r.toString());
        assertTrue(r.out().contains("2 targets (from env GUARD_WAIT), deadline " + MIXED_DEADLINE + " (from env GUARD_TIMEOUT), "
                + "attempt timeout " + MIXED_ATTEMPT_TIMEOUT), r.toString());
        assertTrue(r.err().contains("ok   redis " + hostPort(redis)) && r.err().contains("FAIL tcp 127.0.0.1:" + port), r.toString());
    }

    /**
     * guard's one duration rule where a wait reads its deadline: {@code --timeout 2},
     * {@code GUARD_TIMEOUT=2} and {@code guard.timeout = 2} are two seconds (typesafe-config alone
     * reads a bare 2 as milliseconds, and the wait gave up at once). The target refuses, so
     * the wait runs to its deadline: only a lower bound on the time is asserted.
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"--timeout 2", "GUARD_TIMEOUT=2", "guard.timeout = 2"})
    void aBareNumberIsSecondsWhereverTheDeadlineComesFrom(String where, @TempDir Path dir) throws Exception {
        String target = "tcp://127.0.0.1:" + closedPort();
        Map<String, String> env = new java.util.HashMap<>();
        List<String> args = new java.util.ArrayList<>(List.of("wait", target, "--attempt-timeout", "1", "--json"));
        String origin;
        switch (where) {
            case "--timeout 2" -> {
                args.addAll(List.of("--timeout", "2"));
                origin = "--timeout";
            }
            case "GUARD_TIMEOUT=2" -> {
                env.put("GUARD_TIMEOUT", "2");
                origin = "env GUARD_TIMEOUT";
            }
            default -> {
                Path conf = dir.resolve("guard.conf");
                Files.writeString(conf, "guard {\n  timeout = 2\n}\n");
                args.addAll(List.of("--config", conf.toString()));
                origin = "guard.timeout in " + conf + ":2";
            }
        }
        Cli.Result r = Cli.run(env, args.toArray(String[]::new));
        assertEquals(ExitCodes.UNAVAILABLE, r.code(), r.toString());
        JsonNode json = new ObjectMapper().readTree(r.out());
        assertEquals(2000, json.path("deadlineMs").asLong(), r.toString());
        assertTrue(json.path("elapsedMs").asLong() >= 1500, "the wait gave up before its 2 s deadline: " + r);
        assertEquals(origin, json.path("settings").path("deadlineFrom").asText(), r.toString());
        assertEquals(1000, json.path("settings").path("attemptTimeoutMs").asLong(), "--attempt-timeout 1 is one second: " + r);
    }

    @Test
    void targetsComeFromTheHoconFileResolvedAgainstTheEnvironment(@TempDir Path dir) throws IOException {
        Path conf = dir.resolve("guard.conf");
        Files.writeString(conf, "guard {\n  wait = [${REDIS_URL}, ${NATS_URL}]\n  timeout = " + READY_DEADLINE + "\n}\n");
        Cli.Result r = Cli.run(Map.of("REDIS_URL", MachineServices.redisUri(), "NATS_URL", MachineServices.natsUrl()),
                "wait", "--config", conf.toString());
        assertEquals(0, r.code(), r.toString());
        String deadline = "deadline " + READY_DEADLINE;
        assertTrue(r.out().contains("2 targets (from wait in " + conf + ":2), " + deadline + " (from timeout in " + conf + ":3)")
                || r.out().contains("2 targets (from guard.wait in " + conf + ":2), " + deadline + " (from guard.timeout in "
                        + conf + ":3)"),
                r.toString());
        Files.writeString(conf, "guard { wait = [${UNSET_VAR_FOR_TEST}] }\n");
        Cli.Result unresolved = Cli.run(Map.of(), "wait", "--config", conf.toString());
        assertEquals(ExitCodes.CONFIG, unresolved.code(), unresolved.toString());
        assertTrue(unresolved.err().contains("UNSET_VAR_FOR_TEST") && unresolved.err().contains("Action:"), unresolved.toString());
    }

    @Test
    void jsonIsOneMachineReadableReportWithoutSecrets() throws Exception {
        int port = closedPort();
        String amqp = MachineServices.amqpUri();
        Cli.Result r = Cli.run(Map.of(), "wait", amqp, "redis://:pw-s3cr3t@127.0.0.1:" + port,
                "--timeout", MIXED_DEADLINE, "--attempt-timeout", MIXED_ATTEMPT_TIMEOUT, "--json");
        assertEquals(ExitCodes.UNAVAILABLE, r.code(), r.toString());
        JsonNode json = new ObjectMapper().readTree(r.out());
        assertFalse(json.path("ready").asBoolean());
        assertEquals("deadline", json.path("outcome").asText());
        assertEquals("ready", json.path("targets").path(0).path("state").asText());
        assertEquals("refused", json.path("targets").path(1).path("state").asText());
        assertTrue(json.path("targets").path(1).path("action").asText().startsWith("start the service"));
        assertFalse(r.both().contains("pw-s3cr3t") || leaksPassword(r.both(), amqp), r.toString());
    }

    @Test
    void extrasFlagsBecomeQueryParameters() {
        String queue = "guard-cli-missing-" + System.nanoTime();
        String amqp = MachineServices.amqpUri();
        Cli.Result r = Cli.run(Map.of(), "wait", amqp, "--amqp-queue", queue, "--timeout", MIXED_DEADLINE,
                "--attempt-timeout", MIXED_ATTEMPT_TIMEOUT);
        assertEquals(ExitCodes.UNAVAILABLE, r.code(), r.toString());
        // what the CLI observed, as it printed it: the state change names the queue. (The summary on
        // stderr repeats the last attempt's state, which on a loaded machine can be a final attempt
        // cut short by the deadline rather than "missing", so it is only checked to fail the target.)
        assertTrue(r.out().contains("amqp " + hostPort(amqp) + ": missing (queue '" + queue + "'"),
                "names the missing queue: " + r);
        assertTrue(r.err().contains("FAIL amqp " + hostPort(amqp)), r.toString());
        assertEquals("redis://h:1/0?key=k", new ProbeExtrasFixture("--redis-key", "k").apply("redis://h:1/0"));
        assertEquals("kafka://a:1,b:2?topics=x,y&brokers=3",
                new ProbeExtrasFixture("--kafka-topic", "x,y", "--kafka-brokers", "3").apply("kafka://a:1,b:2"));
        assertEquals("kafka://a:1?topics=x&group=thumbnail+workers&acks=1",
                new ProbeExtrasFixture("--kafka-topic", "x", "--kafka-group", "thumbnail workers", "--kafka-acks", "1")
                        .apply("kafka://a:1"));
        assertEquals("nats://h:4222?stream=JOBS&consumer=workers",
                new ProbeExtrasFixture("--nats-stream", "JOBS", "--nats-consumer", "workers").apply("nats://h:4222"));
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
        t.setDaemon(true);
        t.start();
        await(() -> out.toString().contains(": refused"), "the state line '...: refused'", out, err);
        t.interrupt();
        t.join(CLI_BOUND.toMillis());
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
