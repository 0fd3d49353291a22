package dev.guard.drain;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A plain worker's probe endpoints for Kubernetes' readinessProbe and livenessProbe, on the JDK's
 * HTTP server (one daemon thread; opt-in: nothing listens unless started):
 *
 * <ul>
 *   <li>{@code GET /readyz}: 200 while the worker consumes; 503 while it checks its config and
 *       waits for its dependencies, and from SIGTERM on (draining: out of rotation).
 *   <li>{@code GET /livez}: 200 unless the worker made no progress (a turn of the drain loop, the
 *       start of a job) for longer than the stall bound, which must exceed the longest job: a
 *       worker busy with a long job is alive, one stuck for good is restarted. It never asks a
 *       broker: a broker blip must not restart every worker.
 * </ul>
 *
 * {@code Guard} starts one when {@code GUARD_HEALTH_PORT} is set; a worker's own loop uses
 * {@link #start}, {@link #phase} and {@link #progress}, or {@link #watch(Drain)} for a
 * {@link DrainLoop}.
 */
public final class HealthEndpoints implements AutoCloseable {

    /** What /readyz reports. */
    public enum Phase { STARTING, CONSUMING, DRAINING }

    private final HttpServer server;
    private final Duration stallBound;
    private final AtomicLong lastProgressNanos = new AtomicLong(System.nanoTime());
    private volatile Phase phase = Phase.STARTING;
    private volatile Drain drain;

    private HealthEndpoints(HttpServer server, Duration stallBound) {
        this.server = server;
        this.stallBound = stallBound;
    }

    /** Serves on {@code port} of every interface; port 0 picks a free one. */
    public static HealthEndpoints start(int port, Duration stallBound) {
        try {
            HttpServer server = HttpServer.create(new InetSocketAddress(port), 8);
            HealthEndpoints endpoints = new HealthEndpoints(server, stallBound);
            server.createContext("/readyz", endpoints::readyz);
            server.createContext("/livez", endpoints::livez);
            server.setExecutor(Executors.newSingleThreadExecutor(r -> {
                Thread t = new Thread(r, "guard-health");
                t.setDaemon(true);
                return t;
            }));
            server.start();
            return endpoints;
        } catch (IOException e) {
            throw new UncheckedIOException("health endpoints: cannot listen on port " + port + ": " + e.getMessage()
                    + "; set GUARD_HEALTH_PORT to a free port, or unset it for none", e);
        }
    }

    public int port() {
        return server.getAddress().getPort();
    }

    public void phase(Phase next) {
        phase = next;
        progress();
    }

    /** A loop turn or the start of a job. */
    public void progress() {
        lastProgressNanos.set(System.nanoTime());
    }

    /**
     * Consuming from now on; DRAINING once {@code drain} stops; a turn of its {@link DrainLoop}
     * counts as progress.
     */
    public void watch(Drain drain) {
        this.drain = drain;
        phase(Phase.CONSUMING);
    }

    private Phase phaseNow() {
        Drain d = drain;
        return d != null && d.stopping() ? Phase.DRAINING : phase;
    }

    private void readyz(HttpExchange exchange) throws IOException {
        Phase now = phaseNow();
        reply(exchange, now == Phase.CONSUMING ? 200 : 503, now.name().toLowerCase(Locale.ROOT) + "\n");
    }

    private void livez(HttpExchange exchange) throws IOException {
        long last = lastProgressNanos.get();
        Drain d = drain;
        if (d != null && d.lastTurnNanos() - last > 0) {
            last = d.lastTurnNanos();
        }
        long idleMs = (System.nanoTime() - last) / 1_000_000;
        boolean stalled = idleMs > stallBound.toMillis();
        reply(exchange, stalled ? 503 : 200, (stalled ? "stalled: no progress for " : "alive: last progress ")
                + idleMs + " ms ago (bound " + stallBound.toSeconds() + " s)\n");
    }

    private static void reply(HttpExchange exchange, int status, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", "text/plain; charset=utf-8");
        exchange.sendResponseHeaders(status, bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
