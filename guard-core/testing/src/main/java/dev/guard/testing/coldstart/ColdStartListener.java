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

  /** Hears nothing. */
  static ColdStartListener silent() {
    return new ColdStartListener() {};
  }
}
