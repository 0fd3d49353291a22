package dev.guard.drain;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link SignalPath}'s rules on prepared proc trees (the real trap: {@link SignalPathProcessTest}). */
class SignalPathTest {

    @TempDir
    Path proc;

    private void process(long pid, long ppid, String comm, String... argv) throws IOException {
        Path d = Files.createDirectories(proc.resolve(Long.toString(pid)));
        Files.writeString(d.resolve("stat"), pid + " (" + comm + ") S " + ppid + " " + pid + " " + pid + " 0 -1 4194560");
        Files.writeString(d.resolve("comm"), comm + "\n");
        Files.write(d.resolve("cmdline"), (String.join("\0", argv) + "\0").getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void jvmAsPid1IsDelivered() {
        SignalPath p = SignalPath.inspect(proc, 1);
        assertEquals(SignalPath.Kind.DELIVERED, p.kind());
        assertFalse(p.trap());
        assertEquals("", p.action());
    }

    @Test
    void shellFormCmdIsTheTrap() throws IOException {
        process(1, 0, "sh", "/bin/sh", "-c", "java -jar /app/worker.jar");
        process(7, 1, "java", "java", "-jar", "/app/worker.jar");
        SignalPath p = SignalPath.inspect(proc, 7);
        assertEquals(SignalPath.Kind.SHELL_PID1, p.kind());
        assertTrue(p.trap());
        assertTrue(p.describe().startsWith("SIGTERM will not reach the drain: PID 1 is a shell, /bin/sh -c java -jar"),
                p.describe());
        assertTrue(p.describe().contains("is its child"), p.describe());
        assertTrue(p.action().contains("exec java"), p.action());
    }

    @Test
    void busyboxShellAndScriptChainsAreShellsToo() throws IOException {
        process(1, 0, "busybox", "sh", "/entrypoint.sh");
        process(5, 1, "bash", "bash", "/start-worker.sh");
        process(9, 5, "java", "java", "Main");
        SignalPath p = SignalPath.inspect(proc, 9);
        assertEquals(SignalPath.Kind.SHELL_PID1, p.kind());
        assertTrue(p.reason().contains("is its descendant"), p.reason());
        assertEquals(2, p.ancestors().size());
    }

    @Test
    void forwardingInitAsParentIsForwarded() throws IOException {
        process(1, 0, "tini", "/usr/bin/tini", "--", "java", "-jar", "app.jar");
        process(6, 1, "java", "java", "-jar", "app.jar");
        SignalPath p = SignalPath.inspect(proc, 6);
        assertEquals(SignalPath.Kind.FORWARDED, p.kind());
        assertFalse(p.trap());
    }

    @Test
    void shellBetweenAnInitAndTheJvmIsAWarningCase() throws IOException {
        process(1, 0, "docker-init", "/sbin/docker-init", "--", "sh", "-c", "java Main");
        process(6, 1, "sh", "sh", "-c", "java Main");
        process(8, 6, "java", "java", "Main");
        SignalPath p = SignalPath.inspect(proc, 8);
        assertEquals(SignalPath.Kind.SHELL_BETWEEN, p.kind());
        assertTrue(p.reason().contains("its child is a shell, pid 6 (sh -c java Main)"), p.reason());
    }

    @Test
    void systemInitIsNoContainerEvenBelowATerminalShell() throws IOException {
        process(1, 0, "systemd", "/sbin/init", "splash");
        process(900, 1, "bash", "-bash");
        process(950, 900, "java", "java", "Main");
        SignalPath p = SignalPath.inspect(proc, 950);
        assertEquals(SignalPath.Kind.NO_CONTAINER, p.kind());
        assertFalse(p.trap());
    }

    @Test
    void unreadableProcIsUnknownNotAnError() throws IOException {
        process(7, 3, "java", "java");
        SignalPath p = SignalPath.inspect(proc, 7);
        assertEquals(SignalPath.Kind.UNKNOWN, p.kind());
        assertFalse(p.trap());
        assertTrue(p.reason().contains("cannot read"), p.reason());
    }

    @Test
    void passwordsOnTheShellsCommandLineAreMasked() throws IOException {
        process(1, 0, "sh", "sh", "-c", "REDIS_URL=redis://:hunter2@redis:6379 java Main; true");
        process(4, 1, "java", "java", "Main");
        SignalPath p = SignalPath.inspect(proc, 4);
        assertFalse(p.describe().contains("hunter2"), p.describe());
    }
}
