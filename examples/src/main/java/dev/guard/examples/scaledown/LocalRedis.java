package dev.guard.examples.scaledown;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** A private redis-server on a free port for the experiment (no persistence), stopped on close. */
final class LocalRedis implements AutoCloseable {

    private final Process process;
    private final int port;

    private LocalRedis(Process process, int port) {
        this.process = process;
        this.port = port;
    }

    static LocalRedis start(String binary) throws IOException, InterruptedException {
        String bin = binary;
        if (bin == null) {
            bin = Files.isExecutable(Path.of("/usr/bin/redis-server")) ? "/usr/bin/redis-server" : "/usr/sbin/redis-server";
        }
        if (!Files.isExecutable(Path.of(bin))) {
            throw new IllegalStateException("redis-server not found at " + bin + ": install it (apt-get install redis-server),"
                    + " pass --redis-server PATH, or use an existing Redis with --redis-uri redis://host:port");
        }
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        Path dir = Files.createTempDirectory("guard-scaledown-redis");
        Process p = new ProcessBuilder(List.of(bin, "--port", Integer.toString(port), "--bind", "127.0.0.1",
                "--save", "", "--appendonly", "no", "--dir", dir.toString(), "--maxclients", "10000"))
                .redirectErrorStream(true).redirectOutput(dir.resolve("redis.log").toFile()).start();
        LocalRedis r = new LocalRedis(p, port);
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (System.nanoTime() < until) {
            try (Socket s = new Socket("127.0.0.1", port)) {
                return r;
            } catch (IOException notYet) {
                Thread.sleep(50);
            }
        }
        r.close();
        throw new IllegalStateException("redis-server on port " + port + " did not accept connections within 10 s; see "
                + dir.resolve("redis.log"));
    }

    String uri() {
        return "redis://127.0.0.1:" + port;
    }

    @Override
    public void close() throws InterruptedException {
        process.toHandle().destroy();
        if (!process.waitFor(5, TimeUnit.SECONDS)) {
            process.toHandle().destroyForcibly();
            process.waitFor(5, TimeUnit.SECONDS);
        }
    }
}
