package dev.guard.drain;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The PID-1 trap with real processes: a JVM started by a shell that is PID 1 of its own PID
 * namespace ({@code unshare --pid --fork --mount-proc}, as a container runtime starts a
 * shell-form {@code CMD}), and the same JVM exec'd by that shell. SIGTERM goes to PID 1, as the
 * runtime sends it. Shows the trap is real (the shell ignores the signal, the drain never starts)
 * and that {@link SignalPath} tells the two apart.
 */
class SignalPathProcessTest {

    @TempDir
    Path dir;

    private Process process;

    @BeforeAll
    static void needsUnshare() throws Exception {
        Process p = new ProcessBuilder("unshare", "--pid", "--fork", "--mount-proc", "true").redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (p.waitFor() != 0) {
            fail("this test starts a shell as PID 1 of a new PID namespace and needs 'unshare --pid --fork"
                    + " --mount-proc' (util-linux) as root; it failed: " + out.trim() + ". Run the tests as root"
                    + " (as .ci/run does), or in a container with CAP_SYS_ADMIN");
        }
    }

    @AfterEach
    void kill() {
        if (process != null) {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
        }
    }

    @Test
    void shellAsPid1IgnoresSigtermAndIsReportedAsTheTrap() throws Exception {
        // the trailing command keeps the shell from exec'ing the JVM: the shell-form CMD of the write-up
        Path out = start("\"$@\"; echo shell-after-java");
        String kind = await(out, "kind=");
        await(out, "drain installed");
        assertEquals("kind=SHELL_PID1", kind);
        String describe = await(out, "describe=");
        assertTrue(describe.contains("PID 1 is a shell, sh -c"), describe);
        assertTrue(describe.contains("CMD [\"java\""), describe);

        ProcessHandle shell = namespacePid1();
        ProcessHandle jvm = shell.children().findFirst().orElseThrow();
        shell.destroy(); // SIGTERM to PID 1, as the runtime sends it
        Thread.sleep(1500);
        assertTrue(shell.isAlive(), "the shell as PID 1 ignores SIGTERM");
        assertTrue(jvm.isAlive(), "the JVM never heard of it");
        assertFalse(read(out).contains("stop requested"), read(out));
    }

    @Test
    void execdJvmIsPid1AndItsDrainGetsSigterm() throws Exception {
        Path out = start("exec \"$@\"");
        assertEquals("kind=DELIVERED", await(out, "kind="));
        await(out, "drain installed");
        ProcessHandle pid1 = namespacePid1();
        assertTrue(pid1.info().command().orElse("").endsWith("java"), pid1.info().toString());
        pid1.destroy();
        assertEquals("stop requested: SIGTERM", await(out, "stop requested"));
    }

    @Test
    void thisTestJvmIsNotInTheTrap() {
        // started by Maven's surefire, whatever PID 1 is here: no shell as PID 1 above it
        SignalPath path = SignalPath.inspect();
        assertFalse(path.trap(), path.toString());
        assertFalse(path.kind() == SignalPath.Kind.UNKNOWN, path.toString());
    }

    private Path start(String script) throws IOException {
        Path out = dir.resolve("out.txt");
        List<String> cmd = new ArrayList<>(List.of("unshare", "--pid", "--fork", "--mount-proc", "sh", "-c", script, "sh",
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), "-Xmx64m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
                SignalPathMain.class.getName()));
        process = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(out.toFile()).start();
        return out;
    }

    /** The namespace's PID 1, seen from here: unshare's forked child. */
    private ProcessHandle namespacePid1() {
        return process.children().findFirst().orElseThrow(() -> new AssertionError("unshare has no child"));
    }

    private static String await(Path out, String prefix) throws Exception {
        long until = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (System.nanoTime() < until) {
            Optional<String> line = read(out).lines().filter(l -> l.startsWith(prefix)).findFirst();
            if (line.isPresent()) {
                return line.get();
            }
            Thread.sleep(50);
        }
        throw new AssertionError("no line starting with '" + prefix + "' within 60 s; output:\n" + read(out));
    }

    private static String read(Path out) throws IOException {
        return Files.exists(out) ? Files.readString(out) : "";
    }
}
