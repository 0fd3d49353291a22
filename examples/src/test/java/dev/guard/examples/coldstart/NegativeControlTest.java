package dev.guard.examples.coldstart;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.guard.examples.stack.Backend;
import dev.guard.examples.stack.Demo;
import dev.guard.testing.NoLeakedProcesses;
import dev.guard.testing.coldstart.ColdStart;
import dev.guard.testing.coldstart.ColdStartReport;
import dev.guard.testing.coldstart.ProcessSpec;
import dev.guard.testing.coldstart.RunReconciliation;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The harness can fail: the same harness with the naive worker (CACHE_URL with a localhost
 * fallback, one connection attempt, a broad catch) loses jobs, and the harness says which, how,
 * and keeps the logs.
 */
@ExtendWith(NoLeakedProcesses.class)
class NegativeControlTest {

  private static ColdStart.Builder naive(boolean fixEnv) {
    return ColdStart.builder()
        .worker(Demo.naiveWorker(fixEnv))
        .backend(ProcessSpec.java(Backend.class))
        .quietPeriod(Duration.ofSeconds(3))
        .localServices();
  }

  @Test
  void naiveWorkerAsDeployedReadsCacheUrlAndMissesEveryJob() throws Exception {
    ColdStartReport report = naive(false).build().run(1);
    System.out.println(report.render());
    RunReconciliation run = report.runs().get(0);
    assertFalse(report.passed(), report.render());
    assertEquals(100, run.missing(), run.render());
    assertEquals(0, run.received(), run.render());
    assertTrue(run.violations().stream().anyMatch(v -> v.startsWith("missing == 0 failed: 100 enqueued jobs are in neither Redis hash ")),
        run.render());
    Path logs = run.logs().orElseThrow(() -> new AssertionError("a failed run keeps its logs: " + run.render()));
    assertTrue(Files.exists(logs.resolve("worker.log")), logs.toString());
    assertTrue(Files.readString(logs.resolve("manifest.txt")).lines().count() == 100, logs.toString());
    assertTrue(Files.readString(logs.resolve("reconciliation.txt")).contains("FAIL"), logs.toString());
    AssertionError e = assertThrows(AssertionError.class, report::assertAllPassed);
    assertTrue(e.getMessage().contains("1 of 1 cold starts failed (seed " + report.seed() + ")"), e.getMessage());
    assertTrue(e.getMessage().contains("logs: " + logs), e.getMessage());
    assertTrue(report.reconciledLine().endsWith("missing=100"), report.reconciledLine());
  }

  @Test
  void naiveWorkerWithTheRightUrlStillLosesJobsToTheRaceOrTheSwallowedSkew() {
    ColdStartReport report = naive(true).build().run(2);
    System.out.println(report.render());
    assertFalse(report.passed(), report.render());
    for (RunReconciliation run : report.runs()) {
      assertTrue(run.missing() > 0, run.render());
      assertEquals(0, run.rejected(), "the naive worker rejects nothing loudly: " + run.render());
      if (run.received() > 0) {
        // it won the race: then exactly the skewed jobs vanish, received but with no outcome and no error
        assertEquals(run.skewedIds(), new java.util.TreeSet<>(run.missingIds()), run.render());
      } else {
        // it lost the race: one attempt against a Redis that was not up (or still LOADING), then it died
        assertEquals(100, run.missing(), run.render());
      }
    }
  }
}
