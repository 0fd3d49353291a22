package dev.guard.queue.redis;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A private redis-server on a free port that a test can kill (SIGKILL). Stand-in until the
 * shared fixture {@code dev.guard.testing.RedisServer} lands on main.
 */
final class PrivateRedis implements AutoCloseable {

    private final int port;
    private final Path dir;
    private Process process;

    private PrivateRedis(int port, Path dir, Process process) {
        this.port = port;
        this.dir = dir;
        this.process = process;
    }

    static PrivateRedis start() throws IOException, InterruptedException {
        Path binary = Path.of("/usr/bin/redis-server");
        if (!Files.isExecutable(binary)) {
            binary = Path.of("/usr/sbin/redis-server");
        }
        if (!Files.isExecutable(binary)) {
            throw new IllegalStateException("redis-server not found in /usr/bin or /usr/sbin: install it (apt-get install"
                    + " redis-server); this test kills a private Redis and cannot use the shared one");
        }
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        Path dir = Files.createTempDirectory("guard-drain-redis");
        Process p = new ProcessBuilder(List.of(binary.toString(), "--port", Integer.toString(port), "--bind", "127.0.0.1",
                "--save", "", "--appendonly", "no", "--dir", dir.toString()))
                .redirectErrorStream(true).redirectOutput(dir.resolve("redis.log").toFile()).start();
        PrivateRedis r = new PrivateRedis(port, dir, p);
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (System.nanoTime() < until) {
            try (Socket s = new Socket("127.0.0.1", port)) {
                return r;
            } catch (IOException notYet) {
                Thread.sleep(50);
            }
        }
        r.close();
        throw new IllegalStateException("private redis-server on port " + port + " did not accept connections within 10 s;"
                + " see " + dir.resolve("redis.log"));
    }

    String uri() {
        return "redis://127.0.0.1:" + port;
    }

    /** SIGKILL, no goodbye. */
    void kill() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor(10, TimeUnit.SECONDS);
    }

    @Override
    public void close() throws InterruptedException {
        kill();
    }
}
