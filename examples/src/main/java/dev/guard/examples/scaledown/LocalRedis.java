package dev.guard.examples.scaledown;

import dev.guard.testing.FreePorts;
import java.io.IOException;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** A private redis-server on a free port for the experiment (no persistence), stopped on close. */
final class LocalRedis implements AutoCloseable {

    /**
     * How long redis-server may take to accept connections: well under a second on an idle
     * machine, but a 2-core machine busy with other builds can delay a fresh process for
     * seconds. Only a server that never comes up waits this long.
     */
    static final long START_BOUND_SECONDS = 60;

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
        // held by this JVM until it exits (bound, never listening): no other process can take it
        // between here and redis-server's bind, which succeeds because redis-server uses SO_REUSEADDR
        int port = FreePorts.next();
        Path dir = Files.createTempDirectory("guard-scaledown-redis");
        Process p = new ProcessBuilder(List.of(bin, "--port", Integer.toString(port), "--bind", "127.0.0.1",
                "--save", "", "--appendonly", "no", "--dir", dir.toString(), "--maxclients", "10000"))
                .redirectErrorStream(true).redirectOutput(dir.resolve("redis.log").toFile()).start();
        LocalRedis r = new LocalRedis(p, port);
        Path log = dir.resolve("redis.log");
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(START_BOUND_SECONDS);
        while (System.nanoTime() < until) {
            if (!p.isAlive()) {
                throw new IllegalStateException("redis-server on port " + port + " exited with " + p.exitValue()
                        + " before accepting connections; its log is " + log);
            }
            try (Socket s = new Socket("127.0.0.1", port)) {
                return r;
            } catch (IOException notYet) {
                Thread.sleep(50);
            }
        }
        r.close();
        throw new IllegalStateException("redis-server on port " + port + " did not accept connections within "
                + START_BOUND_SECONDS + " s; its log is " + log);
    }

    String uri() {
        return "redis://127.0.0.1:" + port;
    }

    /** SIGKILL without waiting (from a shutdown hook). */
    void kill() {
        process.toHandle().destroyForcibly();
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
