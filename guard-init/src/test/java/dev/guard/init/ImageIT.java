package dev.guard.init;

import dev.guard.ExitCodes;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import dev.guard.testing.FreePorts;
import dev.guard.testing.MachineServices;
import dev.guard.testing.NoLeakedProcesses;

/**
 * The packaged OCI image (target/guard-init-image.tar) read as a runtime reads it and run as a
 * container runs it: the entrypoint as PID 1 of a fresh PID namespace, as the image's non-root
 * user, in the unpacked root filesystem. Runs in {@code verify} (failsafe) because it needs the
 * tarball that {@code package} writes. Needs root (unshare, mount), as this machine and CI are.
 */
@ExtendWith(NoLeakedProcesses.class)
class ImageIT {
    /**
     * guard-init's deadline where the target is ready: the wait ends when it is, so this only has
     * to outlast a cold JVM in a fresh namespace reaching the service on a loaded 2-core machine.
     */
    static final String READY_DEADLINE = "60s";
    /**
     * Hang guard for one run of the image: longer than any deadline given to guard-init here
     * (so a timeout means it did not stop, not that it was slow), far below the 300 s wait that
     * a SIGTERM must cut short.
     */
    static final Duration EXIT_BOUND = Duration.ofSeconds(120);
    /** Hang guard for the JVM to appear under unshare and to print its first line (both take well under a second unloaded). */
    static final Duration START_BOUND = Duration.ofSeconds(60);

    static OciImage image;
    static Path rootfs;
    static Path logs;

    @BeforeAll
    static void unpack() throws IOException {
        Path build = OciImage.buildDir();
        image = OciImage.open(build);
        rootfs = image.unpack(build.resolve("it-rootfs"));
        logs = build.resolve("it-logs");
    }

    @AfterAll
    static void cleanUp() throws IOException {
        OciImage.deleteTree(rootfs);
        OciImage.deleteTree(image.layout);
    }

    private static Pid1Run run(String... args) throws IOException {
        return Pid1Run.start(image, rootfs, logs, false, List.of(args));
    }

    @Test
    void layoutIsAnOciImageWithExecFormEntrypointAndNonRootUser() throws IOException {
        assertEquals("{\"imageLayoutVersion\":\"1.0.0\"}", Files.readString(image.layout.resolve("oci-layout")));
        assertEquals("application/vnd.oci.image.manifest.v1+json", image.index.path("manifests").path(0).path("mediaType").asText());
        assertEquals("application/vnd.oci.image.config.v1+json", image.manifest.path("config").path("mediaType").asText());
        List<String> entrypoint = image.entrypoint();
        assertEquals("/opt/java/bin/java", entrypoint.get(0), "exec form: the JVM itself is PID 1, no shell: " + entrypoint);
        assertEquals(List.of("-jar", "/app/guard-init.jar"), entrypoint.subList(entrypoint.size() - 2, entrypoint.size()));
        assertEquals("65532:65532", image.user(), "non-root user");
        assertTrue(Files.readString(rootfs.resolve("etc/passwd")).contains("nonroot:x:65532:65532:"));
        // every blob is what its digest says, and every layer's diff_id is the digest of its plain tar
        JsonNode layers = image.manifest.path("layers");
        JsonNode diffIds = image.config.path("rootfs").path("diff_ids");
        assertEquals(3, layers.size(), "layers: os files, jlink runtime, app jar");
        assertEquals(layers.size(), diffIds.size());
        for (int i = 0; i < layers.size(); i++) {
            String digest = layers.get(i).path("digest").asText();
            Path blob = image.blob(digest);
            assertEquals(digest, OciImage.sha256(blob, false), "blob digest of layer " + i);
            assertEquals(layers.get(i).path("size").asLong(), Files.size(blob), "size of layer " + i);
            assertEquals(diffIds.get(i).asText(), OciImage.sha256(blob, true), "diff_id of layer " + i);
        }
        assertTrue(Files.isExecutable(rootfs.resolve("opt/java/bin/java")));
        assertTrue(Files.isRegularFile(rootfs.resolve("lib64/ld-linux-x86-64.so.2")), "the dynamic loader is in the image");
    }

    @Test
    void waitForTheMachinesRedisExitsZero() throws Exception {
        String redis = MachineServices.redisUri();
        try (Pid1Run r = run("wait", redis, "--timeout", READY_DEADLINE)) {
            int code = r.waitFor(EXIT_BOUND);
            assertEquals(0, code, "stdout: " + r.out() + "\nstderr: " + r.err());
            assertTrue(r.out().contains("redis " + WaitCommandTest.hostPort(redis) + ": ready (PONG)"), r.out());
            assertEquals("", r.err(), "nothing on stderr (no JVM or CDS warnings) when ready");
        }
    }

    /**
     * An HTTP target in the image's runtime: a 503, then a 200 from the JDK's HTTP server in this JVM. The probe starts no TLS for {@code http://}, so no
     * BouncyCastle provider and no trust store; the wall time and peak RSS are printed.
     */
    @Test
    void waitForAnHttpHealthUrlSeesTheStatusTurn() throws Exception {
        com.sun.net.httpserver.HttpServer server = com.sun.net.httpserver.HttpServer.create(
                new java.net.InetSocketAddress("127.0.0.1", 0), 0);
        java.util.concurrent.atomic.AtomicInteger calls = new java.util.concurrent.atomic.AtomicInteger();
        server.createContext("/healthz", exchange -> {
            int status = calls.incrementAndGet() == 1 ? 503 : 200;
            exchange.sendResponseHeaders(status, -1);
            exchange.close();
        });
        server.start();
        try {
            String url = "http://127.0.0.1:" + server.getAddress().getPort() + "/healthz";
            List<String> command = new ArrayList<>(image.entrypoint());
            command.addAll(List.of("wait", url, "--timeout", READY_DEADLINE, "--attempt-timeout", "5s"));
            try (Pid1Run r = Pid1Run.exec(image, rootfs, logs, true, command)) {
                int code = r.waitFor(EXIT_BOUND);
                assertEquals(0, code, "stdout: " + r.out() + "\nstderr: " + r.err());
                assertTrue(r.out().contains("HTTP 503: answers, but not healthy yet"), r.out());
                assertTrue(r.out().contains("ready (HTTP 200)"), r.out());
                assertTrue(!(r.out() + r.err()).contains("[warning]"), "JVM warnings: " + r.out() + r.err());
                String[] f = r.timeFigures();
                System.out.printf("FIGURE guard-init wait http (503, then 200): wall=%ss peak RSS=%s KiB%n", f[0], f[1]);
            }
        } finally {
            server.stop(0);
        }
    }

    @Test
    void waitForAClosedPortExits69AfterTheDeadline() throws Exception {
        int closed = closedPort();
        try (Pid1Run r = run("wait", "tcp://127.0.0.1:" + closed, "--timeout", "2s", "--attempt-timeout", "500ms")) {
            int code = r.waitFor(EXIT_BOUND);
            assertEquals(ExitCodes.UNAVAILABLE, code, "stdout: " + r.out() + "\nstderr: " + r.err());
            assertTrue((r.out() + r.err()).contains("127.0.0.1:" + closed), r.out() + r.err());
        }
    }

    /** lint in the image's runtime (no java.desktop): YAML read with line numbers, a finding named, exit 78. */
    @Test
    void lintInTheImageNamesAPitfallWithItsLine() throws Exception {
        Path file = rootfs.resolve("tmp/compose.yml");
        Files.copy(Path.of("src/test/resources/lint/pitfalls-compose.yml"), file, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        try (Pid1Run r = run("lint", "/tmp/compose.yml")) {
            int code = r.waitFor(EXIT_BOUND);
            assertEquals(ExitCodes.CONFIG, code, "stdout: " + r.out() + "\nstderr: " + r.err());
            assertTrue(r.out().contains("/tmp/compose.yml:8: error [redis-ping-check]"), r.out());
        } finally {
            Files.deleteIfExists(file);
        }
    }

    @Test
    void anUnknownOptionExits64() throws Exception {
        try (Pid1Run r = run("wait", "--no-such-option")) {
            int code = r.waitFor(EXIT_BOUND);
            assertEquals(ExitCodes.USAGE, code, "stdout: " + r.out() + "\nstderr: " + r.err());
            assertTrue(r.err().contains("--no-such-option"), r.err());
        }
    }

    @Test
    void sigtermDuringALongWaitStopsPid1AtOnce() throws Exception {
        int closed = closedPort();
        try (Pid1Run r = run("wait", "tcp://127.0.0.1:" + closed, "--timeout", "300s")) {
            ProcessHandle jvm = r.jvm(START_BOUND).orElseThrow(() -> new AssertionError(
                    "no /opt/java/bin/java process under unshare within " + START_BOUND.toSeconds() + " s; stderr: " + r.err()));
            // PID 1 in its own namespace, running as the image's user
            String nspid = Pid1Run.status(jvm, "NSpid");
            assertEquals("1", nspid.substring(nspid.lastIndexOf('\t') + 1).trim(), "NSpid: " + nspid);
            assertTrue(Pid1Run.status(jvm, "Uid").startsWith("65532"), "Uid: " + Pid1Run.status(jvm, "Uid"));
            assertEquals("", Pid1Run.status(jvm, "Groups"), "no supplementary groups");
            // let it get into the wait (its first line names the target), then TERM it
            long until = System.nanoTime() + START_BOUND.toNanos();
            while (!r.out().contains("127.0.0.1:" + closed)) {
                if (System.nanoTime() > until) {
                    throw new AssertionError("wait printed no line about the target within " + START_BOUND.toSeconds()
                            + " s: " + r.out() + r.err());
                }
                Thread.sleep(20);
            }
            String rss = Pid1Run.status(jvm, "VmHWM");
            long sent = System.nanoTime();
            jvm.destroy(); // SIGTERM
            // the hang guard: a JVM that ignored TERM would sit in its 300 s wait; waitFor fails with the
            // output if it has not exited by EXIT_BOUND. How fast it exits is a figure, not asserted.
            int code = r.waitFor(EXIT_BOUND);
            double ms = (System.nanoTime() - sent) / 1e6;
            System.out.printf("FIGURE sigterm-exit-latency-ms=%.0f exit=%d VmHWM-while-waiting=%s%n", ms, code, rss);
            assertEquals(143, code, "128+SIGTERM; stdout: " + r.out() + "\nstderr: " + r.err());
            assertTrue(r.err().contains("SIGTERM"), "says why it stopped: " + r.err());
        }
    }

    /**
     * Figures for guard-init/README.md (printed, not asserted): image size, wall time and peak RSS of
     * {@code wait} on four ready local services, beside {@code java -version} in the same image.
     */
    @Test
    void figures() throws Exception {
        System.out.println("FIGURE load average while measuring: " + Files.readString(Path.of("/proc/loadavg")).trim()
                + " (" + Runtime.getRuntime().availableProcessors() + " CPUs)");
        System.out.printf("FIGURE image-tarball-bytes=%d (%.1f MB)%n", Files.size(image.tarball), Files.size(image.tarball) / 1e6);
        long layersBytes = 0;
        for (JsonNode l : image.manifest.path("layers")) {
            layersBytes += l.path("size").asLong();
        }
        System.out.printf("FIGURE image-compressed-layers-bytes=%d (%.1f MB)%n", layersBytes, layersBytes / 1e6);
        // java -version: the entrypoint's JVM and flags, without -jar
        // (without the app's CDS archive, which only matches with -jar /app/guard-init.jar)
        List<String> javaVersion = new ArrayList<>(image.entrypoint().subList(0, image.entrypoint().size() - 2));
        javaVersion.removeIf(a -> a.startsWith("-XX:SharedArchiveFile="));
        javaVersion.add("-version");
        String redis = MachineServices.redisUri();
        List<String> waitFour = List.of("wait", redis, MachineServices.amqpUri(), MachineServices.natsUrl(),
                "tcp://" + WaitCommandTest.hostPort(redis), "--timeout", READY_DEADLINE);
        measure("java -version", javaVersion);
        List<String> wait = new ArrayList<>(image.entrypoint());
        wait.addAll(waitFour);
        measure("guard-init wait redis+amqp+nats+tcp", wait);
    }

    private static void measure(String label, List<String> command) throws Exception {
        List<Double> walls = new ArrayList<>();
        long maxRss = 0;
        for (int i = 0; i < 5; i++) {
            try (Pid1Run r = Pid1Run.exec(image, rootfs, logs, true, command)) {
                int code = r.waitFor(EXIT_BOUND);
                assertEquals(0, code, label + "; stdout: " + r.out() + "\nstderr: " + r.err());
                assertTrue(!(r.out() + r.err()).contains("[warning]"), "JVM warnings: " + r.out() + r.err());
                String[] f = r.timeFigures();
                walls.add(Double.parseDouble(f[0]));
                maxRss = Math.max(maxRss, Long.parseLong(f[1]));
            }
        }
        double[] sorted = walls.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        System.out.printf("FIGURE %s: wall median=%.2fs min=%.2fs max=%.2fs (5 runs, incl. unshare+mounts), peak RSS=%d KiB (%.1f MB)%n",
                label, sorted[2], sorted[0], sorted[4], maxRss, maxRss / 1024.0);
        System.out.println("FIGURE walls " + label + ": " + Arrays.toString(sorted) + ", load average after: "
                + Files.readString(Path.of("/proc/loadavg")).trim());
    }

    /** Refuses connects for this JVM's life (held by FreePorts); the image's process shares the network namespace. */
    static int closedPort() {
        return FreePorts.next();
    }
}
