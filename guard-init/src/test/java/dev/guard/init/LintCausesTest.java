package dev.guard.init;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.guard.testing.RedisServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The run-time causes lint's rules name, happening with real processes: no finding without a
 * cause it would produce. {@code redis-cli ping} exits 0 while a real Redis answers LOADING, a TCP
 * connect to it succeeds (redis-ping-check, tcp-wait-redis); {@code sh -c} (dash, Debian's and
 * Ubuntu's {@code /bin/sh}) stays PID 1 with the command as its child and SIGTERM to it never
 * reaches the command (alive after it; the kernel delivers nothing to a PID 1 without a handler), while
 * {@code exec} or a lone command under bash makes the command PID 1 (shell-pid1).
 */
class LintCausesTest {

    private static Run run(List<String> command) throws Exception {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        assertTrue(p.waitFor(20, TimeUnit.SECONDS), "did not end: " + command);
        return new Run(p.exitValue(), new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
    }

    private record Run(int exit, String out) {}

    @Test
    void redisCliPingPassesWhileRedisLoadsAndATcpConnectSucceeds() throws Exception {
        try (RedisServer redis = RedisServer.builder().preloadKeys(40_000).heldLoading().build().startLoading()) {
            String port = Integer.toString(redis.port());
            Run ping = run(List.of("redis-cli", "-p", port, "ping"));
            assertTrue(ping.out().contains("LOADING"), ping.out());
            assertEquals(0, ping.exit(), "the healthcheck lint names passes on LOADING: " + ping.out());
            Run checked = run(List.of("sh", "-c", "redis-cli -p " + port + " ping | grep -q PONG"));
            assertEquals(1, checked.exit(), "the fix lint gives fails on LOADING");
            try (Socket s = new Socket()) {
                s.connect(new InetSocketAddress("127.0.0.1", redis.port()), 2000); // what a TCP wait calls up
            }
            assertTrue(redis.isLoading());
            redis.finishLoading();
            redis.awaitLoaded(java.time.Duration.ofSeconds(30));
            assertEquals(0, run(List.of("sh", "-c", "redis-cli -p " + port + " ping | grep -q PONG")).exit());
        }
    }

    /** PID, inside a new PID namespace, of the {@code sleep} that {@code shellArgs} starts; and whether SIGTERM to PID 1 stops it. */
    private static long[] pidOfSleepAndTermStopsIt(List<String> shellArgs, Path dir) throws Exception {
        String marker = "sleep 37";
        List<String> cmd = new java.util.ArrayList<>(List.of("unshare", "--pid", "--fork", "--mount-proc"));
        cmd.addAll(shellArgs);
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(dir.resolve("out.txt").toFile()).start();
        try {
            ProcessHandle sleep = null;
            long until = System.nanoTime() + 10_000_000_000L;
            while (sleep == null && System.nanoTime() < until) {
                sleep = p.descendants().filter(h -> h.info().command().orElse("").endsWith("/sleep")
                        && h.info().commandLine().orElse("").contains(marker)).findFirst().orElse(null);
                Thread.sleep(50);
            }
            assertTrue(sleep != null, "no sleep under " + cmd);
            long nsPid = nsPid(sleep);
            // SIGTERM to the namespace's PID 1, as the runtime sends it
            ProcessHandle pid1 = p.descendants().filter(h -> nsPid(h) == 1).findFirst().orElseThrow();
            new ProcessBuilder("kill", "-TERM", Long.toString(pid1.pid())).start().waitFor();
            boolean stopped = sleep.onExit().toCompletableFuture().completeOnTimeout(null, 2, TimeUnit.SECONDS).get() != null;
            return new long[] {nsPid, stopped ? 1 : 0};
        } finally {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
        }
    }

    /** The process's PID in the innermost PID namespace (the last field of NSpid); -1 when gone. */
    private static long nsPid(ProcessHandle h) {
        try {
            return Files.readAllLines(Path.of("/proc/" + h.pid() + "/status")).stream().filter(l -> l.startsWith("NSpid:"))
                    .map(l -> l.trim().split("\\s+")).mapToLong(a -> Long.parseLong(a[a.length - 1])).findFirst().orElse(-1);
        } catch (IOException e) {
            return -1;
        }
    }

    @Test
    void aShellWithoutExecStaysPid1AndSigtermNeverReachesTheCommand(@org.junit.jupiter.api.io.TempDir Path dir)
            throws Exception {
        long[] sh = pidOfSleepAndTermStopsIt(List.of("sh", "-c", "sleep 37"), dir);
        assertEquals(2, sh[0], "sh (dash) runs the command as its child");
        assertEquals(0, sh[1], "SIGTERM to the shell as PID 1 does not reach the command");
        long[] exec = pidOfSleepAndTermStopsIt(List.of("sh", "-c", "exec sleep 37"), dir);
        assertEquals(1, exec[0], "exec makes the command PID 1: SIGTERM reaches its handler (a JVM's)");
        long[] bash = pidOfSleepAndTermStopsIt(List.of("bash", "-c", "sleep 37"), dir);
        assertEquals(1, bash[0], "bash runs a lone simple command in its own place: no finding for it");
    }
}
