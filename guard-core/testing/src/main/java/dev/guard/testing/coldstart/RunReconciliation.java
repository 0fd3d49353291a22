package dev.guard.testing.coldstart;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * One cold start, reconciled by job id: what was enqueued, what the worker said it did with
 * each id, which checks failed, and how long everything took. Immutable.
 */
public final class RunReconciliation {
  private final int run;
  private final String runId;
  private final List<Component> order;
  private final String worker;
  private final int expectedJobs;
  private final Reconciler.Tally tally;
  private final List<String> violations;
  private final Figures figures;
  private final Path logs;

  /** Timings of one run; any may be absent when the run did not get that far. */
  public record Figures(
      Duration coldStart,
      Optional<Duration> workerWait,
      Optional<Duration> redisLoading,
      Optional<Duration> dependenciesReadyAfterWorkerStart,
      Optional<Duration> gateReaction,
      Optional<Integer> workerExit,
      Optional<Integer> backendExit) {}

  RunReconciliation(int run, String runId, List<Component> order, String worker, int expectedJobs, Reconciler.Tally tally,
      List<String> extraViolations, Figures figures, Path logs) {
    this.run = run;
    this.runId = runId;
    this.order = List.copyOf(order);
    this.worker = worker;
    this.expectedJobs = expectedJobs;
    this.tally = tally;
    this.violations = java.util.stream.Stream.concat(extraViolations.stream(), tally.violations().stream()).toList();
    this.figures = figures;
    this.logs = logs;
  }

  /** 1-based run number. */
  public int run() {
    return run;
  }

  /** The prefix of every job id in this run. */
  public String runId() {
    return runId;
  }

  /** The order the components were started in. */
  public List<Component> order() {
    return order;
  }

  public int enqueued() {
    return tally.enqueued().size();
  }

  public int received() {
    return tally.received().size();
  }

  public int processed() {
    return tally.processed().size();
  }

  public int rejected() {
    return tally.rejected().size();
  }

  public int failed() {
    return tally.failed().size();
  }

  /**
   * Enqueued ids with no outcome; when the backend wrote no manifest, every expected job counts as
   * missing (none can be accounted for), so a broken run never reads {@code missing=0}.
   */
  public int missing() {
    return tally.enqueued().isEmpty() ? expectedJobs : tally.missing().size();
  }

  /** The ids the backend enqueued with schema skew. */
  public Set<String> skewedIds() {
    return tally.skewed();
  }

  /** The ids the worker rejected. */
  public Set<String> rejectedIds() {
    return tally.rejected();
  }

  /** Enqueued ids with no outcome line. */
  public List<String> missingIds() {
    return tally.missing();
  }

  /** Per-job lines whose id is not an enqueued one (e.g. {@code job null received}). */
  public List<String> unattributedLines() {
    return tally.unattributed();
  }

  /** Each failed check, in words; empty when the run passed. */
  public List<String> violations() {
    return violations;
  }

  /** True iff every check held: received == N, processed + rejected == N, missing == 0, rejected == skewed. */
  public boolean passed() {
    return violations.isEmpty();
  }

  public Figures figures() {
    return figures;
  }

  /** The run's directory (process logs, manifest, reconciliation) if kept: always for a failed run. */
  public Optional<Path> logs() {
    return Optional.ofNullable(logs);
  }

  /** One line: {@code run 2: received=100 processed=97 rejected=3 failed=0 missing=0 PASS (...)}. */
  public String summaryLine() {
    StringBuilder s = new StringBuilder();
    s.append("run ").append(run).append(": received=").append(received()).append(" processed=").append(processed())
        .append(" rejected=").append(rejected()).append(" failed=").append(failed()).append(" missing=")
        .append(missing()).append(passed() ? " PASS" : " FAIL");
    s.append(" (").append(seconds(figures.coldStart())).append(" cold start");
    figures.workerWait().ifPresent(w -> s.append(", worker waited ").append(seconds(w)));
    figures.redisLoading().ifPresent(l -> s.append(", Redis loading ").append(seconds(l)));
    s.append(")");
    return s.toString();
  }

  /** The summary line, each failed check, and where the logs are. */
  public String render() {
    StringBuilder s = new StringBuilder(summaryLine()).append('\n');
    s.append("  start order: ").append(order.stream().map(Component::label).toList()).append('\n');
    s.append("  worker: ").append(worker).append('\n');
    for (String v : violations) {
      s.append("  FAILED ").append(v).append('\n');
    }
    if (logs != null) {
      s.append("  logs: ").append(logs).append('\n');
    }
    return s.toString();
  }

  static String seconds(Duration d) {
    return String.format(Locale.ROOT, "%.1f s", d.toMillis() / 1000.0);
  }

  @Override
  public String toString() {
    return summaryLine();
  }
}
