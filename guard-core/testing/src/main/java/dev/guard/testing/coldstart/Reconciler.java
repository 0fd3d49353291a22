package dev.guard.testing.coldstart;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;

/**
 * Reconciles one run by job id: the backend's manifest (what was enqueued, which ids carry
 * skew) against the worker's per-job lines. Pure: text in, {@link Tally} out. Used by the cold-start
 * harness and by ComposeStackIT (the Compose stack run for real).
 */
public final class Reconciler {
  private Reconciler() {}

  /** What the worker's log says happened to each enqueued job. */
  public record Tally(
      List<String> enqueued,
      Set<String> skewed,
      Set<String> received,
      Set<String> processed,
      Set<String> rejected,
      Set<String> failed,
      List<String> missing,
      List<String> unattributed,
      Map<String, String> reasons,
      List<String> violations) {

    public int outcomes() {
      return processed.size() + rejected.size() + failed.size();
    }
  }

  /** Parses manifest lines {@code <id> ok|skew:<how>}; blank lines ignored. */
  public static Map<String, String> parseManifest(List<String> lines) {
    Map<String, String> jobs = new LinkedHashMap<>();
    for (String line : lines) {
      String trimmed = line.trim();
      if (trimmed.isEmpty()) {
        continue;
      }
      int space = trimmed.indexOf(' ');
      jobs.put(space < 0 ? trimmed : trimmed.substring(0, space), space < 0 ? "ok" : trimmed.substring(space + 1).trim());
    }
    return jobs;
  }

  /**
   * Reconciles {@code manifest} (id to {@code ok|skew:...}) against {@code workerLog}, for a run
   * that expected {@code expectedJobs} jobs. A job's last outcome line counts (a redelivered job
   * processed twice is one processed job: results are written idempotently).
   */
  public static Tally reconcile(Map<String, String> manifest, List<String> workerLog, int expectedJobs) {
    Set<String> received = new LinkedHashSet<>();
    Map<String, String> outcome = new LinkedHashMap<>();
    Map<String, String> reasons = new LinkedHashMap<>();
    List<String> unattributed = new ArrayList<>();
    for (String line : workerLog) {
      Matcher m = StackContract.JOB_LINE.matcher(line.stripTrailing());
      if (!m.find()) {
        continue;
      }
      String id = m.group(1);
      String what = m.group(2);
      if (!manifest.containsKey(id)) {
        unattributed.add(line.strip());
        continue;
      }
      if (what.equals("received")) {
        received.add(id);
      } else {
        outcome.put(id, what);
        if (m.group(3) != null) {
          reasons.put(id, m.group(3));
        }
      }
    }
    Set<String> processed = new TreeSet<>();
    Set<String> rejected = new TreeSet<>();
    Set<String> failed = new TreeSet<>();
    outcome.forEach((id, what) -> {
      switch (what) {
        case "processed" -> processed.add(id);
        case "rejected" -> rejected.add(id);
        default -> failed.add(id);
      }
    });
    List<String> enqueued = List.copyOf(manifest.keySet());
    Set<String> skewed = new TreeSet<>();
    manifest.forEach((id, kind) -> {
      if (kind.startsWith("skew")) {
        skewed.add(id);
      }
    });
    List<String> missing = enqueued.stream().filter(id -> !outcome.containsKey(id)).toList();

    List<String> violations = new ArrayList<>();
    if (manifest.isEmpty()) {
      violations.add("no manifest: the backend wrote no job ids, so nothing can be reconciled (read backend.log)");
    } else if (enqueued.size() != expectedJobs) {
      violations.add("enqueued " + enqueued.size() + " jobs, expected " + expectedJobs + " (read backend.log)");
    }
    if (received.size() != expectedJobs) {
      violations.add("received == " + expectedJobs + " failed: the worker logged 'job <id> received' for "
          + received.size() + " of " + expectedJobs + " enqueued ids"
          + (unattributed.isEmpty() ? "" : "; " + unattributed.size() + " per-job lines named no enqueued id, e.g. '"
              + unattributed.get(0) + "'"));
    }
    if (processed.size() + rejected.size() != expectedJobs) {
      violations.add("processed + rejected == " + expectedJobs + " failed: " + processed.size() + " + "
          + rejected.size() + " = " + (processed.size() + rejected.size())
          + (failed.isEmpty() ? "" : ", " + failed.size() + " failed (e.g. " + first(failed) + ": "
              + reasons.get(first(failed)) + ")"));
    }
    if (!missing.isEmpty()) {
      violations.add("missing == 0 failed: " + missing.size() + " enqueued jobs have no outcome line (no processed, "
          + "rejected or failed), e.g. " + String.join(", ", missing.subList(0, Math.min(5, missing.size())))
          + "; " + missingStory(missing, received, unattributed.size()));
    }
    if (!rejected.equals(skewed)) {
      Set<String> notSkewed = new TreeSet<>(rejected);
      notSkewed.removeAll(skewed);
      Set<String> notRejected = new TreeSet<>(skewed);
      notRejected.removeAll(rejected);
      violations.add("rejected == skewed failed: rejected but not skewed " + notSkewed
          + ", skewed but not rejected " + notRejected);
    }
    return new Tally(enqueued, skewed, received, processed, rejected, failed, missing, unattributed, reasons, violations);
  }

  private static String missingStory(List<String> missing, Set<String> received, int unattributed) {
    long dropped = missing.stream().filter(received::contains).count();
    long unseen = missing.size() - dropped;
    StringBuilder s = new StringBuilder();
    if (dropped > 0) {
      s.append(dropped).append(" were received and then dropped without a word (the broad catch)");
    }
    if (unseen > 0) {
      s.append(dropped > 0 ? ", " : "").append(unseen).append(" have no 'received' line under their id");
      s.append(unattributed > 0 ? " (" + unattributed + " per-job lines named an id nobody enqueued, e.g. null: "
          + "the worker read a renamed field)" : " (the worker never got them: read its log for the URL it used)");
    }
    return s.toString();
  }

  private static String first(Set<String> ids) {
    return ids.iterator().next();
  }
}
