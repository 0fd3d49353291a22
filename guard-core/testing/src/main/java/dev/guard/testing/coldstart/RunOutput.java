package dev.guard.testing.coldstart;

import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;

/**
 * What a run's processes have said so far: their logs read as they grow, the lines that are not per
 * job passed to the listener, and the ids that have an outcome line (processed, rejected, failed),
 * with when the worker first spoke and when it last reported an outcome.
 */
final class RunOutput {
  private final int run;
  private final String workerName;
  private final ColdStartListener listener;
  private final LineTail worker;
  private final LineTail backend;
  private final Set<String> withOutcome = new HashSet<>();
  private Instant workerFirstLineAt;
  private Instant workerLastLineAt;
  private Instant lastOutcomeAt;

  RunOutput(int run, String workerName, RunDirectory dir, ColdStartListener listener) {
    this.run = run;
    this.workerName = workerName;
    this.listener = listener;
    this.worker = new LineTail(dir.workerLog());
    this.backend = new LineTail(dir.backendLog());
  }

  /** Reads what both processes wrote since the last call. */
  void poll() {
    forward(backend, "backend");
    List<String> lines = forward(worker, workerName);
    if (!lines.isEmpty()) {
      workerLastLineAt = Instant.now();
      if (workerFirstLineAt == null) {
        workerFirstLineAt = workerLastLineAt;
      }
    }
    boolean any = false;
    for (String line : lines) {
      Matcher m = StackContract.JOB_LINE.matcher(line);
      if (m.find() && !m.group(2).equals("received")) {
        withOutcome.add(m.group(1));
        any = true;
      }
    }
    if (any) {
      lastOutcomeAt = Instant.now();
    }
  }

  private List<String> forward(LineTail tail, String process) {
    List<String> lines = tail.next();
    for (String line : lines) {
      if (!StackContract.JOB_LINE.matcher(line).find()) {
        listener.processLine(run, process, line);
      }
    }
    return lines;
  }

  /** The ids with an outcome line so far. */
  Set<String> withOutcome() {
    return withOutcome;
  }

  /** When the worker's first line was read; null before. */
  Instant workerFirstLineAt() {
    return workerFirstLineAt;
  }

  /**
   * When the worker's latest line was read; null before the first. A worker still saying what it
   * waits for (a readiness attempt, a group join) is not quiet.
   */
  Instant workerLastLineAt() {
    return workerLastLineAt;
  }

  /** When the last new outcome line was read; null before the first. */
  Instant lastOutcomeAt() {
    return lastOutcomeAt;
  }
}
