package dev.guard.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.guard.ExitCodes;
import dev.guard.testing.FreePorts;
import dev.guard.testing.MachineServices;
import dev.guard.testing.Patience;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.sync.RedisCommands;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link Guard#boot} in real worker processes ({@link GuardBootMain}) with real signals: the exit
 * codes a restart policy sees, SIGTERM while waiting and while working, and the PID-1 trap with a
 * real shell as PID 1 of a PID namespace ({@code unshare}), as a shell-form {@code CMD} runs it.
 */
class GuardProcessTest {

    static final String REDIS = MachineServices.redisUri();

    @TempDir
    Path dir;

    private Process process;
    private Path out;
    private final String queue = MachineServices.uniqueName("guard-boot");

    @AfterEach
    void kill() {
        if (process != null) {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
        }
        redis().del(queue, queue + ":dead", queue + ":interruptions");
    }

    @Test
    void aMissingVariableExits78WithTheReason() throws Exception {
        start(List.of(), env(Map.of("QUEUE", "")));
        assertEquals(ExitCodes.CONFIG, exit());
        assertTrue(output().contains("boot-test-worker must not start (config), exit 78"), output());
        assertTrue(output().contains("QUEUE"), output());
        assertFalse(output().contains("booted"), output());
    }

    // ---- loopback as an adopter meets it: a dev container with Redis published on localhost, a sidecar ----

    @Test
    void inAContainerRedisAnsweringOnLocalhostStartsTheWorkerWithAWarningThatNamesTheAllowance() throws Exception {
        // a development container (or a pod) whose Redis answers on its own loopback: this machine's Redis
        start(List.of(), env(Map.of("GUARD_ALLOW_LOOPBACK", "", "KUBERNETES_SERVICE_HOST", "10.96.0.1")));
        await("booted");
        String text = output();
        assertTrue(text.contains("WARNING LOOPBACK: REDIS_URL points at the loopback address 127.0.0.1:6379 inside a container"
                + " (KUBERNETES_SERVICE_HOST is set)"), text);
        assertTrue(text.contains("and something answers there: a sidecar in the same pod, host networking, a port published"
                + " into a development container"), text);
        assertTrue(text.contains("say so and this warning goes: GUARD_ALLOW_LOOPBACK=REDIS_URL in the environment"), text);
    }

    @Test
    void aSidecarOnLoopbackAllowedForItsOneSettingStartsWithoutALoopbackLine() throws Exception {
        start(List.of(), env(Map.of("GUARD_ALLOW_LOOPBACK", "REDIS_URL", "KUBERNETES_SERVICE_HOST", "10.96.0.1")));
        await("booted");
        assertFalse(output().contains("LOOPBACK"), output());
    }

    @Test
    void inAContainerLoopbackWhereNothingAnswersExits78AndNamesTheAllowance() throws Exception {
        start(List.of(), env(Map.of("GUARD_ALLOW_LOOPBACK", "", "KUBERNETES_SERVICE_HOST", "10.96.0.1",
                "REDIS_URL", "redis://localhost:" + FreePorts.next())));
        assertEquals(ExitCodes.CONFIG, exit());
        String text = output();
        assertTrue(text.contains("must not start (config), exit 78"), text);
        assertTrue(text.contains("and nothing answers there: localhost is not the Redis service there, so every connection"
                + " would be refused"), text);
        assertTrue(text.contains("allow loopback for it: GUARD_ALLOW_LOOPBACK=REDIS_URL in the environment"), text);
    }

    @Test
    void anUnreachableRedisExits69PromptlyAlthoughTheDrainWasInstalled() throws Exception {
        // the drain's fallback hook would hold a System.exit for the whole grace period (60 s here)
        long t0 = System.nanoTime();
        start(List.of(), env(Map.of("REDIS_URL", "redis://127.0.0.1:" + FreePorts.next(), "GUARD_TIMEOUT", "1s",
                "GUARD_GRACE_PERIOD", "60")));
        assertEquals(ExitCodes.UNAVAILABLE, exit());
        assertTrue(System.nanoTime() - t0 < Duration.ofSeconds(40).toNanos(), "exited without waiting out the grace period");
        assertTrue(output().contains("must not start (readiness), exit 69"), output());
    }

    @Test
    void sigtermDuringTheReadinessWaitExits143AndTakesNoJob() throws Exception {
        start(List.of(), env(Map.of("REDIS_URL", "redis://127.0.0.1:" + FreePorts.next(), "GUARD_TIMEOUT", "120")));
        await("waits up to");
        process.destroy(); // SIGTERM
        assertEquals(ExitCodes.TERMINATED, exit());
        assertTrue(output().contains("stopped by SIGTERM after"), output());
    }

    @Test
    void sigtermDuringAJobFinishesItWithinTheBudgetAndExits0() throws Exception {
        RedisCommands<String, String> redis = redis();
        redis.lpush(queue, "{\"job_id\":\"long-1\",\"width\":5}");
        start(List.of(), env(Map.of("JOB_MS", "1500", "GUARD_GRACE_PERIOD", "10", "GUARD_SAFETY_MARGIN", "2")));
        await("booted");
        // the job runs: a SIGTERM between the fetch and the start hands it back untouched, by design
        // (seen beside two CPU hogs when this test waited only for the queue to be empty)
        await("job long-1 started");
        process.destroy();
        assertEquals(ExitCodes.OK, exit());
        assertTrue(output().contains("job long-1 done"), output());
        assertTrue(output().contains("exit 0"), output());
        assertTrue(output().contains("durability (starting anyway, GUARD_PERSISTENCE_CHECK=warn)"), output());
    }

    @Test
    void aJobPastTheDeadlineIsHandedBackToTheQueue() throws Exception {
        RedisCommands<String, String> redis = redis();
        String job = "{\"job_id\":\"too-long-1\",\"width\":5}";
        redis.lpush(queue, job);
        start(List.of(), env(Map.of("JOB_MS", "60000", "GUARD_GRACE_PERIOD", "2", "GUARD_SAFETY_MARGIN", "1")));
        await("booted");
        waitUntil(() -> redis.llen(queue) == 0, "the worker took the job");
        process.destroy();
        assertEquals(ExitCodes.OK, exit());
        assertEquals(List.of(job), redis.lrange(queue, 0, -1), output());
        assertTrue(output().contains("handed_back=1"), output());
    }

    @Test
    void aLongestJobPastTheGracePeriodIsRefusedWithTheNumbersAndTakesNoJob() throws Exception {
        RedisCommands<String, String> redis = redis();
        String job = "{\"job_id\":\"long-2\",\"width\":5}";
        redis.lpush(queue, job);
        start(List.of(), env(Map.of("GUARD_LONGEST_JOB", "45s", "GUARD_GRACE_PERIOD", "30", "GUARD_SAFETY_MARGIN", "1")));
        assertEquals(ExitCodes.CONFIG, exit());
        String out = output();
        assertTrue(out.contains("must not take jobs (timeout budget), exit 78"), out);
        assertTrue(out.contains("the longest job (45 s, env GUARD_LONGEST_JOB) outlasts the drain's time after SIGTERM (29 s:"
                + " grace period 30 s (env GUARD_GRACE_PERIOD) - safety margin 1 s)"), out);
        assertTrue(out.contains("terminationGracePeriodSeconds and GUARD_GRACE_PERIOD to at least 46 s"), out);
        assertTrue(out.contains("to start anyway: GUARD_TIMEOUT_CHECK=warn"), out);
        assertEquals(List.of(job), redis.lrange(queue, 0, -1), "the job was not taken");
    }

    @Test
    void aShellAsPid1IsCaughtAtBootWithTheFix() throws Exception {
        // the trailing command keeps sh from exec'ing java: the shell-form CMD of the write-up
        start(unshare("\"$@\"; rc=$?; echo shell-after-java; exit $rc"), env(Map.of()));
        assertEquals(ExitCodes.CONFIG, exit());
        assertTrue(output().contains("must not start (signals), exit 78"), output());
        assertTrue(output().contains("SIGTERM will not reach the drain: PID 1 is a shell"), output());
        assertTrue(output().contains("CMD [\"java\""), output());
        assertFalse(output().contains("booted"), output());
    }

    @Test
    void aShellAsPid1CanBeAcceptedWithAWarning() throws Exception {
        start(unshare("\"$@\"; echo shell-after-java"), env(Map.of("GUARD_SIGNAL_CHECK", "warn")));
        await("booted");
        assertTrue(output().contains("starting anyway: GUARD_SIGNAL_CHECK=warn"), output());
    }

    @Test
    void anExecdJvmAsPid1BootsAndDrainsOnSigterm() throws Exception {
        start(unshare("exec \"$@\""), env(Map.of()));
        await("booted");
        ProcessHandle pid1 = process.children().findFirst().orElseThrow();
        pid1.destroy(); // SIGTERM to the namespace's PID 1: the JVM
        assertEquals(0, exit(), output());
        assertTrue(output().contains("guard drain receipt: worker="), output());
    }

    private Map<String, String> env(Map<String, String> overrides) {
        Map<String, String> env = new HashMap<>();
        env.put("REDIS_URL", REDIS);
        env.put("QUEUE", queue);
        env.put("GUARD_ALLOW_LOOPBACK", "true");
        env.put("GUARD_GRACE_PERIOD", "3");
        env.put("GUARD_SAFETY_MARGIN", "1");
        env.put("GUARD_PERSISTENCE_CHECK", "warn"); // the machine's Redis keeps nothing on disk
        env.putAll(overrides);
        env.values().removeIf(String::isEmpty);
        return env;
    }

    private List<String> unshare(String script) throws Exception {
        Process p = new ProcessBuilder("unshare", "--pid", "--fork", "--mount-proc", "true").redirectErrorStream(true).start();
        String msg = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (p.waitFor() != 0) {
            fail("this test starts a shell as PID 1 of a new PID namespace and needs 'unshare --pid --fork --mount-proc'"
                    + " (util-linux) as root; it failed: " + msg.trim() + ". Run the tests as root, as .ci/run does");
        }
        return List.of("unshare", "--pid", "--fork", "--mount-proc", "sh", "-c", script, "sh");
    }

    private void start(List<String> prefix, Map<String, String> env) throws IOException {
        List<String> cmd = new ArrayList<>(prefix);
        cmd.addAll(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), "-Xmx96m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
                GuardBootMain.class.getName()));
        out = dir.resolve("out.txt");
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(out.toFile());
        pb.environment().clear();
        pb.environment().put("PATH", System.getenv("PATH"));
        pb.environment().putAll(env);
        process = pb.start();
    }

    private int exit() throws Exception {
        if (!process.waitFor(Patience.PROCESS.toSeconds(), TimeUnit.SECONDS)) {
            fail("the worker did not exit within " + Patience.PROCESS.toSeconds() + " s; output:\n" + output());
        }
        return process.exitValue();
    }

    private String output() throws IOException {
        return Files.exists(out) ? Files.readString(out) : "";
    }

    private void await(String text) throws Exception {
        long until = System.nanoTime() + Patience.WAIT.toNanos();
        while (!output().contains(text)) {
            if (System.nanoTime() > until || !process.isAlive() && !output().contains(text)) {
                Thread.sleep(200);
                if (output().contains(text)) {
                    return;
                }
                fail("no '" + text + "' from the worker (alive: " + process.isAlive() + "); output:\n" + output());
            }
            Thread.sleep(50);
        }
    }

    private RedisCommands<String, String> redis() {
        RedisClient client = RedisClient.create(REDIS);
        clients.add(client);
        return client.connect().sync();
    }

    private final List<RedisClient> clients = new ArrayList<>();

    @AfterEach
    void closeClients() {
        clients.forEach(RedisClient::shutdown);
    }

    private static void waitUntil(java.util.function.BooleanSupplier condition, String what) throws InterruptedException {
        long until = System.nanoTime() + Patience.WAIT.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > until) {
                fail("timed out waiting until " + what);
            }
            Thread.sleep(50);
        }
    }
}
