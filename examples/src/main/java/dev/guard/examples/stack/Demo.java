package dev.guard.examples.stack;

import dev.guard.testing.coldstart.JobBroker;
import dev.guard.testing.coldstart.ColdStart;
import dev.guard.testing.coldstart.ColdStartListener;
import dev.guard.testing.coldstart.ColdStartReport;
import dev.guard.testing.coldstart.Component;
import dev.guard.testing.coldstart.ProcessSpec;
import dev.guard.testing.coldstart.RunReconciliation;
import dev.guard.testing.coldstart.StackContract;
import java.io.PrintStream;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * The README's demo: cold-starts the example stack a few times in random orders and reconciles
 * every job, narrating each step. The last line is machine-checkable:
 * {@code reconciled: runs=3 received=300 processed=291 rejected=9 failed=0 missing=0}.
 *
 * <pre>
 * options: --runs=N (3)  --naive  --fix-env  --amqp  --seed=N  --jobs=N (100)  --skewed=N (3)  --keep-logs
 * </pre>
 *
 * <p>{@code --naive} runs the naive worker (env drift, one connection attempt, broad catch) instead
 * of the guarded one, with the same environment; {@code --fix-env} also gives it the
 * {@code CACHE_URL} it reads, to show the race and the silent schema-skew drop behind the drift.
 * Exit code 0 when every run reconciled, 1 when one did not, 64 on a usage error.
 */
public final class Demo {
  private Demo() {}

  /** Runs the demo; exits with {@link #run}'s code. */
  public static void main(String[] args) {
    System.exit(run(args, System.out));
  }

  /** Runs the demo writing to {@code out}; returns the exit code. */
  public static int run(String[] args, PrintStream out) {
    int runs = 3;
    int jobs = 100;
    int skewed = 3;
    boolean naive = false;
    boolean fixEnv = false;
    boolean amqp = false;
    boolean keepLogs = false;
    Long seed = null;
    for (String arg : args) {
      try {
        if (arg.isBlank()) {
          continue;
        } else if (arg.startsWith("--runs=")) {
          runs = Integer.parseInt(arg.substring(7));
        } else if (arg.startsWith("--jobs=")) {
          jobs = Integer.parseInt(arg.substring(7));
        } else if (arg.startsWith("--skewed=")) {
          skewed = Integer.parseInt(arg.substring(9));
        } else if (arg.startsWith("--seed=")) {
          seed = Long.parseLong(arg.substring(7));
        } else if (arg.equals("--naive")) {
          naive = true;
        } else if (arg.equals("--fix-env")) {
          fixEnv = true;
        } else if (arg.equals("--amqp")) {
          amqp = true;
        } else if (arg.equals("--keep-logs")) {
          keepLogs = true;
        } else {
          out.println("unknown option '" + arg + "'; options: --runs=N --naive --fix-env --amqp --seed=N --jobs=N "
              + "--skewed=N --keep-logs");
          return 64;
        }
      } catch (NumberFormatException e) {
        out.println("option '" + arg + "' needs a whole number");
        return 64;
      }
    }

    ProcessSpec worker = naive ? naiveWorker(fixEnv) : guardedWorker();
    ColdStart.Builder builder = ColdStart.builder()
        .worker(worker)
        .backend(ProcessSpec.java(Backend.class).named("backend"))
        .broker(amqp ? JobBroker.AMQP : JobBroker.REDIS_LIST)
        .jobs(jobs)
        .skewed(skewed)
        .keepLogs(keepLogs)
        .listener(new Narrator(out));
    if (seed != null) {
      builder.seed(seed);
    }
    if (naive) {
      builder.quietPeriod(Duration.ofSeconds(4));
    }
    ColdStart coldStart = builder.build();
    out.println("guard cold-start demo: " + runs + " cold starts of the example stack, " + jobs + " jobs each ("
        + skewed + " with schema skew), worker: " + worker.name() + (amqp ? ", jobs through RabbitMQ" : ", jobs through a Redis list")
        + ", seed " + coldStart.seed());
    if (naive) {
      out.println("the naive worker reads CACHE_URL (falls back to redis://localhost:6379), connects once, and "
          + "swallows every exception; the stack sets REDIS_URL" + (fixEnv ? " and, with --fix-env, CACHE_URL too" : ""));
    }
    ColdStartReport report = coldStart.run(runs);
    out.println();
    out.println("summary");
    for (RunReconciliation r : report.runs()) {
      out.println("  " + r.summaryLine());
      for (String v : r.violations()) {
        out.println("      " + v);
      }
      r.logs().ifPresent(p -> out.println("      logs kept in " + p.toAbsolutePath()));
    }
    out.println("  " + report.figuresLine());
    out.println(report.passed()
        ? "every run: received == " + jobs + ", processed + rejected == " + jobs
            + ", missing == 0, rejected == exactly the skewed jobs"
        : report.failedRuns().size() + " of " + runs + " runs lost jobs: the harness caught it (seed "
            + report.seed() + ")");
    out.println(report.reconciledLine());
    return report.passed() ? 0 : 1;
  }

  /** The guarded worker as the demo runs it: on one machine, so loopback URLs are allowed explicitly. */
  public static ProcessSpec guardedWorker() {
    return ProcessSpec.java(GuardedWorker.class).named("guarded worker").withEnv(GuardedWorker.ALLOW_LOOPBACK, "true");
  }

  /** The naive worker; with {@code fixEnv} it also gets {@code CACHE_URL=$REDIS_URL}. */
  public static ProcessSpec naiveWorker(boolean fixEnv) {
    ProcessSpec spec = ProcessSpec.java(NaiveWorker.class).named("naive worker");
    return fixEnv ? spec.withEnv("CACHE_URL", "${" + StackContract.REDIS_URL + "}") : spec;
  }

  /** Prints the harness's steps in words, with the time since the run began. */
  static final class Narrator implements ColdStartListener {
    /** Where a worker's line is wrapped (never cut): the text after the process name. */
    static final int WIDTH = 140;

    private final PrintStream out;
    private Instant runStart = Instant.now();

    Narrator(PrintStream out) {
      this.out = out;
    }

    @Override
    public void seriesStarting(long seed, int runs, String services) {
      out.println("servers: " + services);
    }

    @Override
    public void runStarting(int run, int runs, List<Component> order) {
      runStart = Instant.now();
      out.println();
      out.println("run " + run + " of " + runs + ": start order " + order.stream().map(Component::label)
          .collect(Collectors.joining(", ")) + " (random pauses between starts)");
    }

    @Override
    public void event(int run, String text) {
      out.println(run == 0 ? text : stamp() + text);
    }

    @Override
    public void processLine(int run, String process, String line) {
      if (line.isBlank()) {
        return;
      }
      // the whole line, wrapped at word boundaries: a worker's reason is never cut short
      String head = stamp() + "  " + process + " | ";
      String indent = " ".repeat(Math.max(0, head.length() - 2)) + "| ";
      List<String> parts = wrap(line.strip(), WIDTH);
      out.println(head + parts.get(0));
      for (int i = 1; i < parts.size(); i++) {
        out.println(indent + parts.get(i));
      }
    }

    /** Lines of at most {@code width} characters, broken at spaces (a longer word stands alone). */
    static List<String> wrap(String text, int width) {
      List<String> lines = new java.util.ArrayList<>();
      StringBuilder current = new StringBuilder();
      for (String word : text.split(" ")) {
        if (current.length() > 0 && current.length() + 1 + word.length() > width) {
          lines.add(current.toString());
          current.setLength(0);
        }
        if (current.length() > 0) {
          current.append(' ');
        }
        current.append(word);
      }
      lines.add(current.toString());
      return lines;
    }

    @Override
    public void runFinished(RunReconciliation r) {
      out.println(stamp() + "stopped everything; reconciled by job id: " + r.summaryLine());
      if (!r.passed()) {
        out.println("            " + r.violations().size() + " checks failed (listed in the summary below)"
            + r.logs().map(p -> "; logs kept in " + p.toAbsolutePath()).orElse(""));
      }
    }

    private String stamp() {
      return String.format(Locale.ROOT, "  [+%5.1f s] ", Duration.between(runStart, Instant.now()).toMillis() / 1000.0);
    }
  }
}
