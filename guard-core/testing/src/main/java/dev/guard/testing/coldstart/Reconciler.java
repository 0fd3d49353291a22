package dev.guard.testing.coldstart;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reconciles one run by job id. Pure: text in, {@link Tally} out.
 *
 * <ul>
 *   <li>{@link #reconcile(Evidence)}, the harness's: the manifest (what was enqueued, which ids carry
 *       skew) against what the results store and the dead-letter store hold, and, for a worker that
 *       prints per-job lines, against what it says it did: a job it logged as rejected whose dead
 *       letter is not in the store is a lost job, whatever the log says.
 *   <li>{@link #reconcile(Map, List, int)}: the manifest against the worker's per-job lines only (the
 *       worker's own claim), for ComposeStackIT, which watches the lines of a running stack.
 * </ul>
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

  /** What a store held at the end of a run: its description for messages, and its records. */
  public record Stored(String description, List<String> records) {
    public Stored {
      records = List.copyOf(records);
    }
  }

  /**
   * What one run's reconciliation reads: the manifest, the worker's log, whether the worker prints
   * per-job lines ({@link StackContract#JOB_LINE}), the expected job count, and the two stores.
   */
  public record Evidence(Map<String, String> manifest, List<String> workerLog, boolean jobLines, int expectedJobs,
      Stored results, Stored deadLetters) {}

  /** The enqueued ids each record names, and the records that name none. */
  record Attribution(Set<String> ids, List<String> unattributed) {}

  private static final Pattern TOKEN_SEPARATOR = Pattern.compile("[^A-Za-z0-9_.:-]+");
  private static final Pattern NARROW_SEPARATOR = Pattern.compile("[^A-Za-z0-9_.-]+");

  /**
   * The enqueued ids {@code records} name: a record is an id, or names ids as tokens (letters,
   * digits, {@code _ . : -}; a {@code :} may also separate, so {@code job_id:r1-7} names {@code r1-7}).
   */
  static Attribution attribute(Collection<String> records, Set<String> enqueued) {
    Set<String> ids = new LinkedHashSet<>();
    List<String> unattributed = new ArrayList<>();
    for (String record : records) {
      String trimmed = record.strip();
      if (enqueued.contains(trimmed)) {
        ids.add(trimmed);
        continue;
      }
      boolean named = false;
      for (Pattern separator : List.of(TOKEN_SEPARATOR, NARROW_SEPARATOR)) {
        for (String token : separator.split(trimmed)) {
          if (enqueued.contains(token)) {
            ids.add(token);
            named = true;
          }
        }
      }
      if (!named) {
        unattributed.add(record);
      }
    }
    return new Attribution(ids, unattributed);
  }

  /**
   * Reconciles a run against its stores. Processed means the results store holds the job,
   * rejected that the dead-letter store does (failed: a dead letter the worker logged as
   * {@code failed}); missing, that neither does. Every run must show missing == 0, processed +
   * rejected == N, rejected == exactly the skewed ids, no job in both stores, and, when the worker
   * prints per-job lines, received == N and no line the stores contradict.
   */
  public static Tally reconcile(Evidence e) {
    Map<String, String> manifest = e.manifest();
    Set<String> ids = manifest.keySet();
    Lines lines = e.jobLines() ? Lines.of(e.workerLog(), manifest) : Lines.NONE;
    Attribution inResults = attribute(e.results().records(), ids);
    Attribution inDead = attribute(e.deadLetters().records(), ids);
    Set<String> processed = new TreeSet<>(inResults.ids());
    Set<String> failed = new TreeSet<>(inDead.ids());
    failed.retainAll(lines.failed());
    Set<String> rejected = new TreeSet<>(inDead.ids());
    rejected.removeAll(failed);
    Set<String> skewed = skewedOf(manifest);
    List<String> enqueued = List.copyOf(ids);
    List<String> missing = enqueued.stream().filter(id -> !inResults.ids().contains(id) && !inDead.ids().contains(id))
        .toList();
    String results = e.results().description();
    String dead = e.deadLetters().description();

    List<String> violations = new ArrayList<>(enqueuedViolations(manifest, e.expectedJobs()));
    if (e.jobLines() && lines.received().size() != e.expectedJobs()) {
      violations.add(receivedViolation(lines, e.expectedJobs()));
    }
    if (processed.size() + rejected.size() != e.expectedJobs()) {
      violations.add("processed + rejected == " + e.expectedJobs() + " failed: " + results + " holds " + processed.size()
          + " and " + dead + " " + rejected.size() + " of the enqueued jobs"
          + (failed.isEmpty() ? "" : ", " + failed.size() + " dead letters the worker logged as failed (e.g. "
              + first(failed) + ": " + lines.reasons().get(first(failed)) + ")"));
    }
    if (!missing.isEmpty()) {
      violations.add("missing == 0 failed: " + missing.size() + " enqueued jobs are in neither " + results + " nor "
          + dead + ", e.g. " + examples(missing) + "; " + (e.jobLines()
              ? missingStory(missing, lines.received(), lines.unattributed().size())
              : "the worker prints no per-job lines: read its log for what it did with them"));
    }
    Set<String> both = new TreeSet<>(inResults.ids());
    both.retainAll(inDead.ids());
    if (!both.isEmpty()) {
      violations.add("one outcome per job failed: " + both.size() + " jobs are in both " + results + " and " + dead
          + ", e.g. " + examples(both));
    }
    Set<String> deadLettered = new TreeSet<>(inDead.ids());
    if (!deadLettered.equals(skewed)) {
      Set<String> notSkewed = new TreeSet<>(deadLettered);
      notSkewed.removeAll(skewed);
      Set<String> notDead = new TreeSet<>(skewed);
      notDead.removeAll(deadLettered);
      violations.add("rejected == skewed failed: in " + dead + " but not skewed " + notSkewed
          + ", skewed but not in it " + notDead);
    }
    if (e.jobLines()) {
      contradiction("processed", lines.processed(), inResults.ids(), results).ifPresent(violations::add);
      Set<String> loggedDead = new TreeSet<>(lines.rejected());
      loggedDead.addAll(lines.failed());
      contradiction("rejected' or 'failed", loggedDead, inDead.ids(), dead).ifPresent(violations::add);
    }
    List<String> unattributed = new ArrayList<>(lines.unattributed());
    inResults.unattributed().forEach(r -> unattributed.add("in " + results + ": " + r));
    inDead.unattributed().forEach(r -> unattributed.add("in " + dead + ": " + r));
    Set<String> received = e.jobLines() ? lines.received() : union(inResults.ids(), inDead.ids());
    return new Tally(enqueued, skewed, received, processed, rejected, failed, missing, unattributed, lines.reasons(),
        violations);
  }

  /** Jobs the worker logged with an outcome the store does not hold: the line is a claim the store refutes. */
  private static java.util.Optional<String> contradiction(String what, Set<String> logged, Set<String> stored,
      String store) {
    Set<String> absent = new TreeSet<>(logged);
    absent.removeAll(stored);
    if (absent.isEmpty()) {
      return java.util.Optional.empty();
    }
    return java.util.Optional.of("log == stores failed: the worker logged '" + what + "' for " + absent.size()
        + " jobs that " + store + " does not hold, e.g. " + examples(absent)
        + (what.equals("processed") ? ": their results were never written" : ": their dead letters were dropped"));
  }

  /** A worker's per-job lines, attributed to the enqueued ids; each id's last outcome line counts. */
  private record Lines(Set<String> received, Set<String> processed, Set<String> rejected, Set<String> failed,
      Map<String, String> reasons, List<String> unattributed) {
    static final Lines NONE = new Lines(Set.of(), Set.of(), Set.of(), Set.of(), Map.of(), List.of());

    static Lines of(List<String> workerLog, Map<String, String> manifest) {
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
        if (!manifest.containsKey(id)) {
          unattributed.add(line.strip());
        } else if (m.group(2).equals("received")) {
          received.add(id);
        } else {
          outcome.put(id, m.group(2));
          if (m.group(3) != null) {
            reasons.put(id, m.group(3));
          }
        }
      }
      Set<String> processed = new TreeSet<>();
      Set<String> rejected = new TreeSet<>();
      Set<String> failed = new TreeSet<>();
      outcome.forEach((id, what) -> (switch (what) {
        case "processed" -> processed;
        case "rejected" -> rejected;
        default -> failed;
      }).add(id));
      return new Lines(received, processed, rejected, failed, reasons, unattributed);
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
   * Reconciles {@code manifest} (id to {@code ok|skew:...}) against {@code workerLog} alone, for a
   * run that expected {@code expectedJobs} jobs: the worker's own claim, without its stores. A job's
   * last outcome line counts (a redelivered job processed twice is one processed job: results are
   * written idempotently).
   */
  public static Tally reconcile(Map<String, String> manifest, List<String> workerLog, int expectedJobs) {
    Lines lines = Lines.of(workerLog, manifest);
    Set<String> received = lines.received();
    Set<String> processed = lines.processed();
    Set<String> rejected = lines.rejected();
    Set<String> failed = lines.failed();
    Map<String, String> reasons = lines.reasons();
    List<String> unattributed = lines.unattributed();
    List<String> enqueued = List.copyOf(manifest.keySet());
    Set<String> skewed = skewedOf(manifest);
    List<String> missing = enqueued.stream()
        .filter(id -> !processed.contains(id) && !rejected.contains(id) && !failed.contains(id)).toList();

    List<String> violations = new ArrayList<>(enqueuedViolations(manifest, expectedJobs));
    if (received.size() != expectedJobs) {
      violations.add(receivedViolation(lines, expectedJobs));
    }
    if (processed.size() + rejected.size() != expectedJobs) {
      violations.add("processed + rejected == " + expectedJobs + " failed: " + processed.size() + " + "
          + rejected.size() + " = " + (processed.size() + rejected.size())
          + (failed.isEmpty() ? "" : ", " + failed.size() + " failed (e.g. " + first(failed) + ": "
              + reasons.get(first(failed)) + ")"));
    }
    if (!missing.isEmpty()) {
      violations.add("missing == 0 failed: " + missing.size() + " enqueued jobs have no outcome line (no processed, "
          + "rejected or failed), e.g. " + examples(missing)
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

  private static List<String> enqueuedViolations(Map<String, String> manifest, int expectedJobs) {
    if (manifest.isEmpty()) {
      return List.of("no manifest: the producer wrote no job ids, so nothing can be reconciled (read backend.log)");
    }
    if (manifest.size() != expectedJobs) {
      return List.of("enqueued " + manifest.size() + " jobs, expected " + expectedJobs + " (read backend.log)");
    }
    return List.of();
  }

  private static String receivedViolation(Lines lines, int expectedJobs) {
    return "received == " + expectedJobs + " failed: the worker logged 'job <id> received' for "
        + lines.received().size() + " of " + expectedJobs + " enqueued ids"
        + (lines.unattributed().isEmpty() ? "" : "; " + lines.unattributed().size()
            + " per-job lines named no enqueued id, e.g. '" + lines.unattributed().get(0) + "'");
  }

  private static Set<String> skewedOf(Map<String, String> manifest) {
    Set<String> skewed = new TreeSet<>();
    manifest.forEach((id, kind) -> {
      if (kind.startsWith("skew")) {
        skewed.add(id);
      }
    });
    return skewed;
  }

  private static Set<String> union(Set<String> a, Set<String> b) {
    Set<String> all = new TreeSet<>(a);
    all.addAll(b);
    return all;
  }

  private static String examples(Collection<String> ids) {
    return ids.stream().limit(5).collect(java.util.stream.Collectors.joining(", "));
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
