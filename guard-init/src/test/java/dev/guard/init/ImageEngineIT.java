package dev.guard.init;

import dev.guard.ExitCodes;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.guard.testing.BoundedRun;
import dev.guard.testing.Engine;
import dev.guard.testing.FreePorts;
import dev.guard.testing.MachineServices;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The packaged image (target/guard-init-image.tar) loaded into the container engine and run by it,
 * as a user's runtime would: {@code podman load}, then {@code podman run} on the host network.
 * Beside {@link ImageIT}, which runs the unpacked root file system in namespaces of its own; this
 * one proves the engine accepts the layout and runs the entrypoint as PID 1 of the container.
 */
class ImageEngineIT {
    static final String IMAGE = "localhost/guard-init:0.1.0";
    /** Hang guard for one container run: longer than any deadline given to guard-init here. */
    static final Duration RUN_BOUND = Duration.ofMinutes(2);
    /** Hang guard for the container to show its first line (a cold JVM; well under a second quiet). */
    static final Duration START_BOUND = Duration.ofSeconds(60);

    static Engine engine;
    static final List<String> containers = new ArrayList<>();

    @BeforeAll
    static void load() throws Exception {
        engine = Engine.require();
        engine.load(OciImage.buildDir().resolve("guard-init-image.tar"));
        String inspect = engine.podmanOk("image", "inspect", "--format", "{{.Config.User}} {{json .Config.Entrypoint}}", IMAGE);
        assertTrue(inspect.startsWith("65532:65532 [\"/opt/java/bin/java\""), "the engine reads the config as written: " + inspect);
    }

    @AfterAll
    static void removeContainers() throws Exception {
        for (String c : containers) {
            engine.podman("rm", "-f", c);
        }
    }

    static BoundedRun.Result run(String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of("podman", "run", "--rm", "--network=host", IMAGE));
        cmd.addAll(List.of(args));
        return BoundedRun.run(cmd, RUN_BOUND);
    }

    @Test
    void waitForTheMachinesRedisExitsZero() throws Exception {
        String redis = MachineServices.redisUri();
        BoundedRun.Result r = run("wait", redis, "--timeout", "60s");
        assertEquals(0, r.exit(), r.output());
        assertTrue(r.output().contains("redis " + WaitCommandTest.hostPort(redis) + ": ready (PONG)"), r.output());
    }

    @Test
    void waitForAClosedPortExits69AfterTheDeadline() throws Exception {
        int closed = FreePorts.next();
        BoundedRun.Result r = run("wait", "tcp://127.0.0.1:" + closed, "--timeout", "2s", "--attempt-timeout", "500ms");
        assertEquals(ExitCodes.UNAVAILABLE, r.exit(), r.output());
        assertTrue(r.output().contains("127.0.0.1:" + closed), r.output());
    }

    @Test
    void sigtermFromTheEngineStopsPid1AtOnceWith143() throws Exception {
        int closed = FreePorts.next();
        String name = "guard-init-sigterm-" + ProcessHandle.current().pid();
        containers.add(name);
        engine.podmanOk("run", "-d", "--name", name, "--network=host", IMAGE, "wait", "tcp://127.0.0.1:" + closed, "--timeout", "300s");
        long until = System.nanoTime() + START_BOUND.toNanos();
        while (!engine.podman("logs", name).output().contains("127.0.0.1:" + closed)) {
            if (System.nanoTime() > until) {
                throw new AssertionError("no line about the target within " + START_BOUND.toSeconds() + " s: "
                        + engine.podman("logs", name).output());
            }
            Thread.sleep(50);
        }
        // PID 1 of the container, as the image's non-root user
        String hostPid = engine.podmanOk("inspect", "--format", "{{.State.Pid}}", name).strip();
        List<String> status = Files.readAllLines(Path.of("/proc", hostPid, "status"));
        String nspid = status.stream().filter(l -> l.startsWith("NSpid:")).findFirst().orElseThrow();
        assertEquals("1", nspid.substring(nspid.lastIndexOf('\t') + 1).trim(), nspid);
        String uid = status.stream().filter(l -> l.startsWith("Uid:")).findFirst().orElseThrow();
        assertTrue(uid.matches("Uid:\\s+65532\\s.*"), uid);
        // podman stop sends the image's stop signal (SIGTERM), then SIGKILL after -t seconds: a PID 1
        // that ignored TERM would sit out the 60 s and exit 137 (the time is a figure, not asserted)
        long sent = System.nanoTime();
        engine.podmanOk("stop", "-t", "60", name);
        double seconds = (System.nanoTime() - sent) / 1e9;
        String code = engine.podmanOk("inspect", "--format", "{{.State.ExitCode}}", name).strip();
        System.out.printf(Locale.ROOT, "FIGURE engine podman-stop-seconds=%.2f exit=%s%n", seconds, code);
        assertEquals("143", code, "128+SIGTERM: " + engine.podman("logs", name).output());
        assertTrue(engine.podman("logs", name).output().contains("SIGTERM"), "says why it stopped");
    }
}
