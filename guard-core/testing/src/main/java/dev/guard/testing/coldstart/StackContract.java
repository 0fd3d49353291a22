package dev.guard.testing.coldstart;

import java.util.regex.Pattern;

/**
 * What the cold-start harness and a stack agree on: the environment the harness gives each
 * process, the manifest a producer program writes, and the per-job lines a worker may print.
 *
 * <p>Any stack can be put under the harness: its processes read these variables (or map them onto
 * their own names with {@link ProcessSpec#withEnv}); a producer program writes the manifest (a
 * {@link Producer} callback returns it instead); the outcomes are read from the stack's stores
 * ({@link OutcomeStore}). A worker that also prints the per-job lines the runbook greps for
 * ({@code job <id> received}, {@code job <id> processed}, {@code job <id> rejected: <reason>},
 * {@code job <id> failed: <reason>}) gets two more checks: received == N, and no line the stores
 * contradict.
 */
public final class StackContract {
  /** Redis the stack uses: the backend populates it and enqueues into it; the worker reads it. */
  public static final String REDIS_URL = "REDIS_URL";
  /** AMQP broker, for the RabbitMQ variant. */
  public static final String AMQP_URL = "AMQP_URL";
  /** NATS server, for the JetStream variant. */
  public static final String NATS_URL = "NATS_URL";
  /** Kafka broker, for the Kafka variant: {@code kafka://host:port} (the bootstrap servers after the scheme). */
  public static final String KAFKA_URL = "KAFKA_URL";
  /** The JetStream stream that captures {@link #JOB_QUEUE} (a subject) and its dead-letter subject. */
  public static final String JOB_STREAM = "JOB_STREAM";
  /** Which broker carries the jobs: {@code redis} (a Redis list), {@code amqp}, {@code jetstream} or {@code kafka}. */
  public static final String JOB_BROKER = "JOB_BROKER";
  /** The Redis list key, AMQP queue name, JetStream subject or Kafka topic the jobs go through; unique per run. */
  public static final String JOB_QUEUE = "JOB_QUEUE";
  /** How many jobs the backend enqueues. */
  public static final String JOB_COUNT = "JOB_COUNT";
  /** How many of them carry schema skew. */
  public static final String JOB_SKEWED = "JOB_SKEWED";
  /** Prefix of every job id in the run, so ids never repeat across runs. */
  public static final String RUN_ID = "RUN_ID";
  /** The file the backend writes its manifest to (one line per job: {@code <id> ok|skew:<how>}). */
  public static final String JOB_MANIFEST = "JOB_MANIFEST";
  /** Milliseconds the backend spends populating Redis before it sets the ready marker. */
  public static final String BACKEND_POPULATE_MS = "BACKEND_POPULATE_MS";
  /** Milliseconds of work the guarded worker spends on each accepted job (default 0), to keep jobs in flight. */
  public static final String JOB_WORK_MS = "JOB_WORK_MS";
  /** The worker exits after this many milliseconds without a job (0: only on SIGTERM). */
  public static final String WORKER_IDLE_EXIT_MS = "WORKER_IDLE_EXIT_MS";

  /** The key the backend sets once Redis is populated; the guarded worker's gate may require it. */
  public static final String READY_MARKER_KEY = "stack:ready";
  /** The hash the worker writes results to, one field per job id (idempotent). */
  public static final String RESULTS_SUFFIX = ":results";
  /** The Redis list (or AMQP queue) rejected jobs are dead-lettered to. */
  public static final String DEAD_SUFFIX = ":dead";
  /**
   * guard's durability check (dev.guard.drain.DurabilityCheck.ENV), set to {@code warn} for every
   * process of a run: the run's Redis keeps nothing on disk.
   */
  public static final String PERSISTENCE_CHECK = "GUARD_PERSISTENCE_CHECK";

  /** A per-job line, anywhere in a log line: {@code job <id> <outcome>[: <reason>]}. */
  public static final Pattern JOB_LINE =
      Pattern.compile("\\bjob (\\S+) (received|processed|rejected|failed)(?:: (.*))?$");
  /** The worker's readiness line: {@code dependencies ready after <ms> ms}. */
  public static final Pattern WAIT_LINE = Pattern.compile("dependencies ready after (\\d+) ms");
  /** The backend's marker line: {@code ready marker set at <epoch ms>}. */
  public static final Pattern MARKER_LINE = Pattern.compile("ready marker set at (\\d+)");

  private StackContract() {}
}
