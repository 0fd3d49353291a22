package dev.guard.testing.coldstart;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Reconciliation by job id is pure logic: manifest lines and worker log lines in, counts and checks out. */
class ReconcilerTest {
  private static final List<String> MANIFEST = List.of("r1-000 ok", "r1-001 skew:renamed-id", "r1-002 ok",
      "r1-003 skew:width-as-string", "");

  private static Map<String, String> manifest() {
    return Reconciler.parseManifest(MANIFEST);
  }

  @Test
  void everyJobWithItsOutcomeAndRejectedExactlyTheSkewedPasses() {
    List<String> log = List.of(
        "09:00:00.001 INFO worker - job r1-000 received", "09:00:00.002 INFO worker - job r1-000 processed",
        "09:00:00.003 INFO worker - job r1-001 received",
        "09:00:00.004 WARN JobBoundary - job r1-001 rejected by consumer w from redis:q: invalid -> dead-lettered",
        "09:00:00.004 WARN worker - job r1-001 rejected: invalid against schema thumbnail/v2: #: required key [job_id] not found",
        "09:00:00.005 INFO worker - job r1-002 received", "09:00:00.006 INFO worker - job r1-002 processed",
        "09:00:00.007 INFO worker - job r1-003 received", "09:00:00.008 WARN worker - job r1-003 rejected: #/width: expected integer");
    Reconciler.Tally t = Reconciler.reconcile(manifest(), log, 4);
    assertEquals(List.of(), t.violations());
    assertEquals(4, t.received().size());
    assertEquals(2, t.processed().size());
    assertEquals(List.of("r1-001", "r1-003"), new ArrayList<>(t.rejected()));
    assertEquals("#/width: expected integer", t.reasons().get("r1-003"));
  }

  @Test
  void theNaiveWorkersSilentDropIsMissingAndNamedAsSuch() {
    List<String> log = List.of(
        "worker job r1-000 received", "worker job r1-000 processed",
        "worker job null received",
        "worker job r1-002 received", "worker job r1-002 processed",
        "worker job r1-003 received");
    Reconciler.Tally t = Reconciler.reconcile(manifest(), log, 4);
    assertEquals(List.of("r1-001", "r1-003"), t.missing());
    assertEquals(List.of("worker job null received"), t.unattributed());
    String all = String.join("\n", t.violations());
    assertTrue(all.contains("received == 4 failed: the worker logged 'job <id> received' for 3 of 4 enqueued ids; "
        + "1 per-job lines named no enqueued id, e.g. 'worker job null received'"), all);
    assertTrue(all.contains("processed + rejected == 4 failed: 2 + 0 = 2"), all);
    assertTrue(all.contains("missing == 0 failed: 2 enqueued jobs have no outcome line"), all);
    assertTrue(all.contains("1 were received and then dropped without a word (the broad catch)"), all);
    assertTrue(all.contains("1 have no 'received' line under their id (1 per-job lines named an id nobody enqueued"), all);
    assertTrue(all.contains("rejected == skewed failed: rejected but not skewed [], skewed but not rejected [r1-001, r1-003]"), all);
  }

  @Test
  void aWorkerThatNeverConnectedMissesEverything() {
    Reconciler.Tally t = Reconciler.reconcile(manifest(), List.of("worker Error connecting to localhost:6379."), 4);
    assertEquals(4, t.missing().size());
    assertTrue(String.join("\n", t.violations()).contains("4 have no 'received' line under their id (the worker never got them"));
  }

  @Test
  void aRejectedJobThatWasNotSkewedFailsTheRun() {
    List<String> log = new ArrayList<>();
    for (String id : List.of("r1-000", "r1-001", "r1-002", "r1-003")) {
      log.add("job " + id + " received");
      log.add("job " + id + (id.equals("r1-002") || id.equals("r1-001") ? " rejected: x" : " processed"));
    }
    Reconciler.Tally t = Reconciler.reconcile(manifest(), log, 4);
    assertEquals(List.of("rejected == skewed failed: rejected but not skewed [r1-002], skewed but not rejected [r1-003]"),
        t.violations());
  }

  @Test
  void noManifestMeansNothingCanBeReconciled() {
    Reconciler.Tally t = Reconciler.reconcile(Map.of(), List.of(), 100);
    assertTrue(t.violations().get(0).startsWith("no manifest: the producer wrote no job ids"), t.violations().toString());
  }

  @Test
  void theLastLineIsTheOneAScriptChecks() {
    ColdStartReport report = new ColdStartReport(7, List.of());
    assertEquals("reconciled: runs=0 received=0 processed=0 rejected=0 failed=0 missing=0", report.reconciledLine());
  }
}
