package dev.guard.testing.coldstart;

import java.util.List;

/** Hears what the harness does, for narration (the demo prints it; tests usually don't listen). */
public interface ColdStartListener {
  /** Before the first run. */
  default void seriesStarting(long seed, int runs, String services) {}

  /** A run begins; {@code order} is the start order drawn for it. */
  default void runStarting(int run, int runs, List<Component> order) {}

  /** Something the harness did or saw, in words ({@code run} is 0 before the first run). */
  default void event(int run, String text) {}

  /** A line a stack process logged that is not a per-job line (gate states, errors, summaries). */
  default void processLine(int run, String process, String line) {}

  /** A run was reconciled. */
  default void runFinished(RunReconciliation reconciliation) {}

  /**
   * Prints the harness's narration and each run's reconciliation to {@code out}, one line per
   * event ({@code [run 2] Redis is up and answered LOADING...}); the processes' own lines stay in
   * their logs.
   */
  static ColdStartListener printing(java.io.PrintStream out) {
    return new ColdStartListener() {
      @Override
      public void seriesStarting(long seed, int runs, String services) {
        out.println("[coldstart] " + runs + " runs, seed " + seed + ", " + services);
      }

      @Override
      public void runStarting(int run, int runs, List<Component> order) {
        out.println("[run " + run + "] start order " + order.stream().map(Component::label).toList());
      }

      @Override
      public void event(int run, String text) {
        out.println("[run " + run + "] " + text);
      }

      @Override
      public void runFinished(RunReconciliation reconciliation) {
        out.print(reconciliation.render());
      }
    };
  }

  /** Hears nothing. */
  static ColdStartListener silent() {
    return new ColdStartListener() {};
  }
}
