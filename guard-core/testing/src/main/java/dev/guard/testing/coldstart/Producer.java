package dev.guard.testing.coldstart;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * The team's own way of putting jobs in, called by the harness in the producer's turn of the
 * start order (on its own thread, so the worker and the servers start around it as in a real cold
 * start). It enqueues the run's jobs, some with schema skew, and returns what it enqueued: the
 * harness writes that as the run's manifest and reconciles every id.
 *
 * <pre>{@code
 * .producer(run -> {
 *   List<EnqueuedJob> sent = new ArrayList<>();
 *   for (int i = 0; i < run.jobs(); i++) {
 *     String id = run.runId() + "-" + i;
 *     boolean skew = i < run.skewed();
 *     myClient.send(run.env("JOB_QUEUE"), skew ? oldFormat(id) : newFormat(id));
 *     sent.add(skew ? EnqueuedJob.skewed(id, "old format") : EnqueuedJob.ok(id));
 *   }
 *   return sent;
 * })
 * }</pre>
 *
 * <p>A producer that is a program instead is a {@link ProcessSpec} given to
 * {@link ColdStart.Builder#backend}; it writes the manifest itself ({@link StackContract#JOB_MANIFEST}).
 */
@FunctionalInterface
public interface Producer {

  /**
   * Enqueues this run's jobs. The servers may not be up yet (the start order is random): waiting
   * for them is the producer's job, as it is in production. A thrown exception fails the run, with
   * its message; an interrupt means the run is being stopped.
   */
  List<EnqueuedJob> produce(Run run) throws Exception;

  /** What one run asks of the producer: its variables, how many jobs, how many skewed, a log. */
  final class Run {
    private final Map<String, String> env;
    private final int jobs;
    private final int skewed;
    private final Consumer<String> log;

    Run(Map<String, String> env, int jobs, int skewed, Consumer<String> log) {
      this.env = Map.copyOf(env);
      this.jobs = jobs;
      this.skewed = skewed;
      this.log = log;
    }

    /** The run's variables ({@link StackContract}): {@code REDIS_URL}, {@code JOB_QUEUE}, ... */
    public Map<String, String> env() {
      return env;
    }

    /**
     * One run variable.
     *
     * @throws IllegalStateException naming the variable and the ones this run sets, when it is not set
     */
    public String env(String name) {
      String value = env.get(Objects.requireNonNull(name, "name"));
      if (value == null) {
        throw new IllegalStateException(name + " is not a variable of this run; it sets " + env.keySet());
      }
      return value;
    }

    /** How many jobs to enqueue. */
    public int jobs() {
      return jobs;
    }

    /** How many of them should carry schema skew. */
    public int skewed() {
      return skewed;
    }

    /** Unique per run: prefix job ids with it so they never repeat across runs. */
    public String runId() {
      return env.get(StackContract.RUN_ID);
    }

    /** Appends a line to the producer's log in the run's directory. */
    public void log(String line) {
      log.accept(line);
    }
  }
}
