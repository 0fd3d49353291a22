package dev.guard.testing.coldstart;

import java.util.List;
import java.util.Locale;
import java.util.OptionalDouble;
import java.util.function.Function;
import java.time.Duration;
import java.util.Optional;

/** The reconciliations of every cold start in a series, and the line a script can check. Immutable. */
public final class ColdStartReport {
  private final long seed;
  private final List<RunReconciliation> runs;

  ColdStartReport(long seed, List<RunReconciliation> runs) {
    this.seed = seed;
    this.runs = List.copyOf(runs);
  }

  /** The seed of the random start orders; pass it to {@code ColdStart.Builder#seed} to replay. */
  public long seed() {
    return seed;
  }

  /** One reconciliation per run, in order. */
  public List<RunReconciliation> runs() {
    return runs;
  }

  /** True iff every run passed. */
  public boolean passed() {
    return runs.stream().allMatch(RunReconciliation::passed);
  }

  /** The runs that failed. */
  public List<RunReconciliation> failedRuns() {
    return runs.stream().filter(r -> !r.passed()).toList();
  }

  public int received() {
    return sum(RunReconciliation::received);
  }

  public int processed() {
    return sum(RunReconciliation::processed);
  }

  public int rejected() {
    return sum(RunReconciliation::rejected);
  }

  public int failed() {
    return sum(RunReconciliation::failed);
  }

  public int missing() {
    return sum(RunReconciliation::missing);
  }

  /**
   * The machine-checkable last line, exactly:
   * {@code reconciled: runs=3 received=300 processed=291 rejected=9 failed=0 missing=0}.
   */
  public String reconciledLine() {
    return "reconciled: runs=" + runs.size() + " received=" + received() + " processed=" + processed()
        + " rejected=" + rejected() + " failed=" + failed() + " missing=" + missing();
  }

  /** Mean cold start, worker wait and Redis loading over the runs, and the wait's share. */
  public String figuresLine() {
    OptionalDouble coldStart = mean(r -> Optional.of(r.figures().coldStart()));
    OptionalDouble wait = mean(r -> r.figures().workerWait());
    OptionalDouble loading = mean(r -> r.figures().redisLoading());
    OptionalDouble depsReady = mean(r -> r.figures().dependenciesReadyAfterWorkerStart());
    OptionalDouble reaction = mean(r -> r.figures().gateReaction());
    StringBuilder s = new StringBuilder("figures (mean of ").append(runs.size()).append(" runs): cold start ")
        .append(ms(coldStart));
    s.append(", worker waited for dependencies ").append(ms(wait));
    if (coldStart.isPresent() && wait.isPresent() && coldStart.getAsDouble() > 0) {
      s.append(String.format(Locale.ROOT, " (%.0f%% of the cold start)", 100 * wait.getAsDouble() / coldStart.getAsDouble()));
    }
    s.append(", Redis loading took ").append(ms(loading));
    s.append(", dependencies ready ").append(ms(depsReady)).append(" after the worker started");
    s.append(", gate noticed readiness ").append(ms(reaction)).append(" after it happened");
    return s.toString();
  }

  /** Every run's rendering, the figures, then {@link #reconciledLine()}. */
  public String render() {
    StringBuilder s = new StringBuilder();
    runs.forEach(r -> s.append(r.render()));
    s.append(figuresLine()).append('\n').append(reconciledLine());
    return s.toString();
  }

  /** Throws an {@link AssertionError} naming every failed run, its failed checks and its logs. */
  public void assertAllPassed() {
    if (!passed()) {
      StringBuilder s = new StringBuilder(failedRuns().size() + " of " + runs.size()
          + " cold starts failed (seed " + seed + "):\n");
      failedRuns().forEach(r -> s.append(r.render()));
      s.append(reconciledLine());
      throw new AssertionError(s.toString());
    }
  }

  private int sum(java.util.function.ToIntFunction<RunReconciliation> f) {
    return runs.stream().mapToInt(f).sum();
  }

  private OptionalDouble mean(Function<RunReconciliation, Optional<Duration>> f) {
    return runs.stream().map(f).flatMap(Optional::stream).mapToLong(Duration::toMillis).average();
  }

  private static String ms(OptionalDouble v) {
    return v.isPresent() ? String.format(Locale.ROOT, "%.0f ms", v.getAsDouble()) : "n/a";
  }

  @Override
  public String toString() {
    return reconciledLine();
  }
}
