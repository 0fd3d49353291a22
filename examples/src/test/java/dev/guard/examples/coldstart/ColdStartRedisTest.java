package dev.guard.examples.coldstart;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.guard.examples.stack.Backend;
import dev.guard.examples.stack.GuardedWorker;
import dev.guard.testing.NoLeakedProcesses;
import dev.guard.testing.coldstart.ColdStartReport;
import dev.guard.testing.coldstart.ColdStartTest;
import dev.guard.testing.coldstart.Component;
import dev.guard.testing.coldstart.RunReconciliation;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The runbook's test, through the JUnit 5 extension as a user would write it: every run must
 * reconcile (received == 100, processed + rejected == 100, missing == 0, rejected == exactly the
 * skewed jobs). The default run starts the stack once, in the race's own order (the worker before
 * Redis, Redis really loading, the backend last); the proof profile ({@code -Pproof}) starts it
 * ten times in a row in random orders, the figure the README quotes.
 */
@ExtendWith(NoLeakedProcesses.class)
class ColdStartRedisTest {

  @Test
  @ColdStartTest(runs = 1, worker = GuardedWorker.class, backend = Backend.class,
      order = {Component.WORKER, Component.REDIS, Component.BACKEND},
      workerEnv = GuardedWorker.ALLOW_LOOPBACK + "=true")
  void theWorkerStartedBeforeALoadingRedisReconcilesEveryJob(ColdStartReport report) {
    assertEquals("reconciled: runs=1 received=100 processed=97 rejected=3 failed=0 missing=0", report.reconciledLine());
    RunReconciliation run = report.runs().get(0);
    assertEquals(List.of(Component.WORKER, Component.REDIS, Component.BACKEND), run.order(), run.render());
    assertSkewedRejected(run);
  }

  @Test
  @Tag("proof")
  @ColdStartTest(runs = 10, worker = GuardedWorker.class, backend = Backend.class,
      workerEnv = GuardedWorker.ALLOW_LOOPBACK + "=true")
  void tenColdStartsInARowEveryJobReconciled(ColdStartReport report) {
    // the extension already failed the test if any run did not reconcile; check the series itself
    assertEquals(10, report.runs().size());
    assertEquals("reconciled: runs=10 received=1000 processed=970 rejected=30 failed=0 missing=0",
        report.reconciledLine());
    Set<List<Component>> orders = new HashSet<>();
    for (RunReconciliation run : report.runs()) {
      orders.add(run.order());
      assertSkewedRejected(run);
    }
    assertTrue(orders.size() > 1, "ten runs drew a single start order: " + orders);
  }

  private static void assertSkewedRejected(RunReconciliation run) {
    assertEquals(run.skewedIds(), run.rejectedIds(), run.render());
    assertEquals(3, run.skewedIds().size(), run.render());
    assertTrue(run.logs().isEmpty(), "a passed run's logs are deleted: " + run.render());
  }
}
