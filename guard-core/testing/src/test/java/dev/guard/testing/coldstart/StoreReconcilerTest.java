package dev.guard.testing.coldstart;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Reconciliation against the stores: a job is processed when the results store holds it, rejected
 * when the dead-letter store does, whatever the worker logs. Pure logic: records in, checks out.
 */
class StoreReconcilerTest {
  private static final Map<String, String> MANIFEST = Reconciler.parseManifest(List.of(
      "r1-1 ok", "r1-2 skew:renamed-id", "r1-10 ok", "r1-11 skew:width-as-string"));
  private static final Reconciler.Stored RESULTS_OK = new Reconciler.Stored("Redis hash q:results",
      List.of("r1-1", "r1-10"));
  /** Dead letters as different workers write them: guard's envelope, a Python dict, a plain line. */
  private static final Reconciler.Stored DEAD_OK = new Reconciler.Stored("Redis list q:dead", List.of(
      "{\"reason\":\"#: required key [job_id] not found\",\"payload\":\"{\\\"id\\\":\\\"r1-2\\\",\\\"width\\\":320}\"}",
      "job_id:r1-11 rejected (width must be an integer)"));
  private static final List<String> LINES = List.of(
      "job r1-1 received", "job r1-1 processed", "job r1-2 received", "job r1-2 rejected: renamed id",
      "job r1-10 received", "job r1-10 processed", "job r1-11 received", "job r1-11 rejected: width");

  private static Reconciler.Tally reconcile(List<String> log, boolean jobLines, Reconciler.Stored results,
      Reconciler.Stored dead) {
    return Reconciler.reconcile(new Reconciler.Evidence(MANIFEST, log, jobLines, 4, results, dead));
  }

  @Test
  void whatTheStoresHoldIsTheOutcome() {
    Reconciler.Tally t = reconcile(LINES, true, RESULTS_OK, DEAD_OK);
    assertEquals(List.of(), t.violations());
    assertEquals(Set.of("r1-1", "r1-10"), t.processed());
    assertEquals(Set.of("r1-2", "r1-11"), t.rejected());
    assertEquals(List.of(), t.unattributed());
  }

  @Test
  void aWorkerThatLogsRejectedButDropsTheDeadLettersFails() {
    Reconciler.Tally t = reconcile(LINES, true, RESULTS_OK, new Reconciler.Stored("Redis list q:dead", List.of()));
    String all = String.join("\n", t.violations());
    assertEquals(List.of("r1-2", "r1-11"), t.missing());
    assertTrue(all.contains("missing == 0 failed: 2 enqueued jobs are in neither Redis hash q:results nor Redis list "
        + "q:dead, e.g. r1-2, r1-11"), all);
    assertTrue(all.contains("rejected == skewed failed: in Redis list q:dead but not skewed [], skewed but not in it "
        + "[r1-11, r1-2]"), all);
    assertTrue(all.contains("log == stores failed: the worker logged 'rejected' or 'failed' for 2 jobs that Redis "
        + "list q:dead does not hold, e.g. r1-11, r1-2: their dead letters were dropped"), all);
    assertEquals(0, t.rejected().size());
  }

  @Test
  void aLoggedProcessedWithoutAResultIsALostResult() {
    Reconciler.Tally t = reconcile(LINES, true, new Reconciler.Stored("Redis hash q:results", List.of("r1-1")), DEAD_OK);
    String all = String.join("\n", t.violations());
    assertTrue(all.contains("the worker logged 'processed' for 1 jobs that Redis hash q:results does not hold, "
        + "e.g. r1-10: their results were never written"), all);
    assertTrue(all.contains("processed + rejected == 4 failed: Redis hash q:results holds 1 and Redis list q:dead 2"), all);
  }

  @Test
  void anIdIsATokenNotAPrefix() {
    // "r1-10" must not count for "r1-1", nor a record naming no enqueued id for anyone
    Reconciler.Attribution a = Reconciler.attribute(List.of("{\"job_id\":\"r1-10\"}", "job r1-100 done", "null"),
        MANIFEST.keySet());
    assertEquals(Set.of("r1-10"), a.ids());
    assertEquals(List.of("job r1-100 done", "null"), a.unattributed());
  }

  @Test
  void aJobInBothStoresHasTwoOutcomes() {
    Reconciler.Stored results = new Reconciler.Stored("Redis hash q:results", List.of("r1-1", "r1-10", "r1-2"));
    Reconciler.Tally t = reconcile(LINES, true, results, DEAD_OK);
    assertTrue(String.join("\n", t.violations()).contains("one outcome per job failed: 1 jobs are in both Redis hash "
        + "q:results and Redis list q:dead, e.g. r1-2"), t.violations().toString());
  }

  @Test
  void withoutJobLinesTheStoresAloneDecide() {
    Reconciler.Tally passed = reconcile(List.of("a worker that prints its own words"), false, RESULTS_OK, DEAD_OK);
    assertEquals(List.of(), passed.violations());
    assertEquals(4, passed.received().size(), "received: every job a store holds");

    Reconciler.Tally lost = reconcile(List.of(), false, RESULTS_OK, new Reconciler.Stored("Redis list q:dead", List.of()));
    String all = String.join("\n", lost.violations());
    assertTrue(all.contains("the worker prints no per-job lines: read its log for what it did with them"), all);
    assertTrue(lost.violations().stream().noneMatch(v -> v.startsWith("received ==") || v.startsWith("log == stores")), all);
  }

  @Test
  void aDeadLetterTheWorkerLoggedAsFailedCountsAsFailed() {
    List<String> log = List.of("job r1-1 received", "job r1-1 failed: thumbnail service answered 500",
        "job r1-2 received", "job r1-2 rejected: renamed id", "job r1-10 received", "job r1-10 processed",
        "job r1-11 received", "job r1-11 rejected: width");
    Reconciler.Stored dead = new Reconciler.Stored("Redis list q:dead",
        List.of("r1-1 failed", "{\"id\":\"r1-2\"}", "{\"job_id\":\"r1-11\"}"));
    Reconciler.Tally t = reconcile(log, true, new Reconciler.Stored("Redis hash q:results", List.of("r1-10")), dead);
    assertEquals(Set.of("r1-1"), t.failed());
    assertEquals(Set.of("r1-2", "r1-11"), t.rejected());
    String all = String.join("\n", t.violations());
    assertTrue(all.contains("1 dead letters the worker logged as failed (e.g. r1-1: thumbnail service answered 500)"), all);
    assertTrue(all.contains("in Redis list q:dead but not skewed [r1-1]"), all);
  }
}
