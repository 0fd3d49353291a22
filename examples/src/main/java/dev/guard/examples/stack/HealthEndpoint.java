package dev.guard.examples.stack;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The worker's probe endpoints, for Kubernetes' livenessProbe and readinessProbe (JDK HTTP server,
 * one thread):
 *
 * <ul>
 *   <li>{@code GET /readyz}: 200 while the worker consumes; 503 while it checks its config and
 *       waits for its dependencies, and from SIGTERM on (draining: take it out of rotation).
 *   <li>{@code GET /livez}: 200 unless the worker made no progress (a loop turn or a job's start)
 *       for longer than the stall bound, which must exceed the longest job: a worker busy with a
 *       long job is alive, one stuck for good is restarted.
 * </ul>
 */
final class HealthEndpoint implements AutoCloseable {
  enum Phase { STARTING, CONSUMING, DRAINING }

  private final HttpServer server;
  private final Duration stallBound;
  private final AtomicLong lastProgressNanos = new AtomicLong(System.nanoTime());
  private volatile Phase phase = Phase.STARTING;

  private HealthEndpoint(HttpServer server, Duration stallBound) {
    this.server = server;
    this.stallBound = stallBound;
  }

  /** Serves on {@code port} of every interface; port 0 picks a free one. */
  static HealthEndpoint start(int port, Duration stallBound) {
    try {
      HttpServer server = HttpServer.create(new InetSocketAddress(port), 8);
      HealthEndpoint endpoint = new HealthEndpoint(server, stallBound);
      server.createContext("/readyz", endpoint::readyz);
      server.createContext("/livez", endpoint::livez);
      server.setExecutor(Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "health-endpoint");
        t.setDaemon(true);
        return t;
      }));
      server.start();
      return endpoint;
    } catch (IOException e) {
      throw new UncheckedIOException("health endpoint: cannot listen on port " + port + ": " + e.getMessage()
          + "; set HEALTH_PORT to a free port (0: none)", e);
    }
  }

  int port() {
    return server.getAddress().getPort();
  }

  void phase(Phase next) {
    phase = next;
    progress();
  }

  /** A loop turn or the start of a job. */
  void progress() {
    lastProgressNanos.set(System.nanoTime());
  }

  private void readyz(HttpExchange exchange) throws IOException {
    Phase now = phase;
    reply(exchange, now == Phase.CONSUMING ? 200 : 503, now.name().toLowerCase(java.util.Locale.ROOT) + "\n");
  }

  private void livez(HttpExchange exchange) throws IOException {
    long idleMs = (System.nanoTime() - lastProgressNanos.get()) / 1_000_000;
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
