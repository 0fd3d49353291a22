package dev.guard.examples.stack;

import dev.guard.drain.HealthEndpoints;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.guard.testing.coldstart.ProcessSpec;
import dev.guard.testing.coldstart.StackContract;
import dev.guard.testing.FreePorts;
import dev.guard.testing.NoLeakedProcesses;
import dev.guard.testing.RedisServer;
import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The worker's probe endpoints as Kubernetes' kubelet reads them, on the worker as a real process
 * and a real (private) Redis: not ready while it waits for Redis, ready while it consumes, not
 * ready from SIGTERM on, alive throughout.
 */
@ExtendWith(NoLeakedProcesses.class)
class GuardedWorkerProbesTest {
  /** Hang guard for each state to show (a cold JVM on a loaded 2-core machine: seconds). */
  private static final Duration STATE_BOUND = Duration.ofSeconds(90);
  private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

  /** {@code status body} of GET path, or {@code down <exception>} while nothing listens. */
  static String get(int port, String path) {
    try {
      HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
          .timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.ofString());
      return r.statusCode() + " " + r.body().strip();
    } catch (IOException e) {
      return "down " + e;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  static String await(int port, String path, Predicate<String> state, Path log) throws Exception {
    long deadline = System.nanoTime() + STATE_BOUND.toNanos();
    String last = get(port, path);
    while (!state.test(last)) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError(path + " never reached the expected state within " + STATE_BOUND.toSeconds()
            + " s; last: " + last + "; worker output:\n" + Files.readString(log));
      }
      Thread.sleep(50);
      last = get(port, path);
    }
    return last;
  }

  @Test
  void notReadyWhileWaitingReadyWhileConsumingNotReadyFromSigtermAliveThroughout(@TempDir Path dir) throws Exception {
    int healthPort = FreePorts.next();
    Path log = dir.resolve("worker.log");
    // with an append-only file, which the worker's durability check accepts before its first job
    try (RedisServer redis = RedisServer.builder().args("--appendonly", "yes").build()) {
      ProcessBuilder pb = new ProcessBuilder(ProcessSpec.java(GuardedWorker.class).commandLine());
      pb.environment().keySet().removeIf(k -> k.endsWith("_URL") || k.startsWith("GUARD_"));
      pb.environment().put(StackContract.REDIS_URL, redis.uri());
      pb.environment().put(GuardedWorker.ALLOW_LOOPBACK, "true");
      pb.environment().put(StackContract.JOB_QUEUE, "probes");
      pb.environment().put(GuardedWorker.HEALTH_PORT, Integer.toString(healthPort));
      pb.environment().put("READY_DEADLINE_S", "120");
      Process worker = pb.redirectErrorStream(true).redirectOutput(log.toFile())
          .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null"))).start();
      try {
        // Redis is down: the worker waits at its readiness gate
        String waiting = await(healthPort, "/readyz", s -> !s.startsWith("down"), log);
        assertEquals("503 starting", waiting, "not ready while the gate waits");
        assertTrue(get(healthPort, "/livez").startsWith("200 alive"), "alive while waiting");

        redis.start();
        io.lettuce.core.RedisClient client = io.lettuce.core.RedisClient.create(redis.uri());
        try (var c = client.connect()) {
          c.sync().set(StackContract.READY_MARKER_KEY, "1");
        } finally {
          client.shutdown();
        }
        assertEquals("200 consuming", await(healthPort, "/readyz", s -> s.startsWith("200"), log));
        assertTrue(get(healthPort, "/livez").startsWith("200 alive"));

        worker.destroy(); // SIGTERM: the kubelet takes the pod out of rotation while it drains
        String draining = await(healthPort, "/readyz", s -> !s.startsWith("200"), log);
        assertTrue(draining.equals("503 draining") || draining.startsWith("down"), draining);
        assertTrue(worker.waitFor(STATE_BOUND.toSeconds(), TimeUnit.SECONDS), "the worker did not exit after SIGTERM");
        assertTrue(Files.readString(log).contains("ledger: received=0"), Files.readString(log));
        assertTrue(Files.readString(log).contains("durability: redis queue 'probes' on Redis "), Files.readString(log));
      } finally {
        worker.destroyForcibly();
      }
    }
  }

  @Test
  void livezFailsOnceNoProgressWasMadeForLongerThanTheStallBound() throws Exception {
    try (HealthEndpoints endpoint = HealthEndpoints.start(0, Duration.ofMillis(200))) {
      endpoint.phase(HealthEndpoints.Phase.CONSUMING);
      Thread.sleep(400);
      String stalled = get(endpoint.port(), "/livez");
      assertTrue(stalled.startsWith("503 stalled: no progress for "), stalled);
      assertEquals("200 consuming", get(endpoint.port(), "/readyz"), "readiness is about the phase, not progress");
    }
    try (HealthEndpoints endpoint = HealthEndpoints.start(0, Duration.ofSeconds(60))) {
      endpoint.progress();
      assertTrue(get(endpoint.port(), "/livez").startsWith("200 alive"));
      assertEquals("503 starting", get(endpoint.port(), "/readyz"));
    }
  }
}
