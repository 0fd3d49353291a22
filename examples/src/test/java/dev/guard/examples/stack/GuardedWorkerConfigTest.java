package dev.guard.examples.stack;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.guard.testing.coldstart.ProcessSpec;
import dev.guard.testing.BoundedRun;
import dev.guard.testing.FreePorts;
import dev.guard.testing.NoLeakedProcesses;
import java.io.IOException;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The guarded worker, as a real process, refuses to start on the env drift the naive worker
 * falls for, before any connection attempt, and says why.
 */
@ExtendWith(NoLeakedProcesses.class)
class GuardedWorkerConfigTest {

  /**
   * Hang guard for one worker run: a cold JVM on a loaded 2-core machine that stops on its
   * config, or after a 2 s readiness deadline, exits within seconds; a worker that does not
   * exit by then has hung, and the test fails with its output.
   */
  private static final Duration WORKER_EXIT_BOUND = Duration.ofSeconds(120);

  private static BoundedRun.Result runWorker(Map<String, String> env) throws IOException, InterruptedException {
    ProcessBuilder pb = new ProcessBuilder(ProcessSpec.java(GuardedWorker.class).commandLine());
    pb.environment().keySet().removeIf(k -> k.endsWith("_URL") || k.startsWith("GUARD_"));
    pb.environment().putAll(env);
    // output to a file, not a pipe read to its end: a hung worker cannot block the test before the bounded wait
    return BoundedRun.run(pb, WORKER_EXIT_BOUND);
  }

  @Test
  void cacheUrlSetInsteadOfRedisUrlStopsItWithExit78NamingBothNames() throws Exception {
    BoundedRun.Result r = runWorker(Map.of("CACHE_URL", "redis://redis:6379", "JOB_QUEUE", "q"));
    assertEquals(78, r.exit(), r.output());
    assertTrue(r.output().contains("must not start (config), exit 78")
        && r.output().contains("the config guard stopped it before any connection"), r.output());
    assertTrue(r.output().contains("REDIS_URL"), r.output());
    assertTrue(r.output().contains("CACHE_URL"), r.output());
    assertFalse(r.output().contains("dependencies ready"), r.output());
  }

  @Test
  void loopbackWithoutTheExplicitOptInStopsIt() throws Exception {
    BoundedRun.Result r = runWorker(Map.of("REDIS_URL", "redis://localhost:" + FreePorts.next()));
    assertEquals(78, r.exit(), r.output());
    assertTrue(r.output().toLowerCase().contains("loopback"), r.output());
  }

  @Test
  void aRedisThatNeverComesUpEndsTheGateWithExit69AndTheLastState() throws Exception {
    int port = FreePorts.next();
    // 10 s, not 2: the first attempt builds lettuce's client (netty, class loading), 4.6 s on a loaded machine, and a
    // gate that ends before any attempt finished reports "timeout", not the "refused" this test is about
    BoundedRun.Result r = runWorker(Map.of("REDIS_URL", "redis://127.0.0.1:" + port, GuardedWorker.ALLOW_LOOPBACK, "true",
        "READY_DEADLINE_S", "10"));
    assertEquals(69, r.exit(), r.output());
    assertTrue(r.output().contains("must not start (readiness), exit 69"), r.output());
    assertTrue(r.output().contains("127.0.0.1:" + port), r.output());
    assertTrue(r.output().contains("refused"), r.output());
  }
}
