package dev.guard.testing.coldstart;

import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Random;
import java.util.function.Function;

/**
 * The cold-start test: starts a whole stack from nothing, in a random order each run, enqueues
 * test jobs (some with schema skew), waits (bounded) for the worker to give every job an outcome,
 * stops everything and reconciles by job id against what the results store and the dead-letter
 * store hold. Every run must show {@code missing == 0}, {@code processed + rejected == N}, rejected
 * (dead-lettered) exactly the skewed ids, and, for a worker that prints per-job lines,
 * {@code received == N} and no line the stores contradict.
 *
 * <pre>{@code
 * ColdStartReport report = ColdStart.builder()
 *     .worker(ProcessSpec.command("python3", "worker.py"))     // or ProcessSpec.java(MyWorker.class)
 *     .producer(run -> myProducer.enqueue(run))                // or .backend(ProcessSpec...)
 *     .results(OutcomeStore.redisHash("${JOB_QUEUE}:results"))
 *     .deadLetters(OutcomeStore.redisList("${JOB_QUEUE}:dead"))
 *     .jobs(100).skewed(3)
 *     .build()
 *     .run(10);
 * report.assertAllPassed();
 * }</pre>
 *
 * <p>The stack's processes are real OS processes, so start order and crashes are real; the
 * servers are local processes or containers ({@link StackServices#auto}). The contract with the
 * processes is in {@link StackContract}.
 * A failed run keeps its directory (each process's log, Redis's log, the manifest, the
 * reconciliation) and prints its path. Built objects are immutable; {@link #run(int)} may be
 * called more than once.
 *
 * <p>This class holds a series' settings and runs it; one run's steps are {@link ColdStartRun}'s,
 * with {@link StartOrder} (the drawn order and pauses), {@link ChildProcesses} (start and stop),
 * {@link RunOutput} (the logs as they grow), {@link RunDirectory} (what a run keeps) and
 * {@link RunFigures}.
 */
public final class ColdStart {
  final ProcessSpec worker;
  final ProcessSpec backend;
  final Producer producer;
  final OutcomeStore results;
  final OutcomeStore deadLetters;
  final boolean jobLines;
  final JobBroker broker;
  final int jobs;
  final int skewed;
  final long seed;
  final List<Component> fixedOrder;
  final Duration maxGap;
  final Duration runTimeout;
  final Duration quietPeriod;
  final Duration backendPopulate;
  final int redisPreloadKeys;
  final Path directory;
  final boolean keepLogs;
  final Function<Integer, StackServices> services;
  final ColdStartListener listener;

  ColdStart(Builder b) {
    this.worker = Objects.requireNonNull(b.worker, "worker");
    this.backend = b.backend;
    this.producer = b.producer;
    this.broker = b.broker;
    this.results = b.results != null ? b.results
        : OutcomeStore.redisHash("${" + StackContract.JOB_QUEUE + "}" + StackContract.RESULTS_SUFFIX);
    String dead = "${" + StackContract.JOB_QUEUE + "}" + StackContract.DEAD_SUFFIX;
    this.deadLetters = b.deadLetters != null ? b.deadLetters
        : switch (b.broker) {
          case AMQP -> OutcomeStore.amqpQueue(dead);
          case JETSTREAM -> OutcomeStore.jetStreamSubject("${" + StackContract.JOB_QUEUE + "}.dead");
          case KAFKA -> OutcomeStore.kafkaTopic("${" + StackContract.JOB_QUEUE + "}.dead");
          case REDIS_LIST -> OutcomeStore.redisList(dead);
        };
    this.jobLines = b.jobLines;
    this.jobs = b.jobs;
    this.skewed = b.skewed;
    this.seed = b.seed != null ? b.seed : new Random().nextLong() & 0xffff_ffffL;
    this.fixedOrder = b.fixedOrder == null ? null : List.copyOf(b.fixedOrder);
    this.maxGap = b.maxGap;
    this.runTimeout = b.runTimeout;
    this.quietPeriod = b.quietPeriod;
    this.backendPopulate = b.backendPopulate;
    this.redisPreloadKeys = b.redisPreloadKeys;
    this.directory = b.directory != null ? b.directory
        : Path.of(System.getProperty("guard.build.dir", "target"), "coldstart");
    this.keepLogs = b.keepLogs;
    this.services = b.services;
    this.listener = b.listener;
  }

  /**
   * A builder with the example stack's defaults: 100 jobs, 3 skewed, a Redis list, results in the
   * Redis hash {@code <queue>:results}, dead letters in {@code <queue>:dead}, a worker that prints
   * per-job lines, local servers or containers.
   */
  public static Builder builder() {
    return new Builder();
  }

  /** The seed of the start orders (printed; pass it back to replay a series). */
  public long seed() {
    return seed;
  }

  /** Runs {@code runs} cold starts in a row and reconciles each; never throws for a failed run. */
  public ColdStartReport run(int runs) {
    if (runs < 1) {
      throw new IllegalArgumentException("runs must be >= 1, was " + runs);
    }
    Random random = new Random(seed);
    Path series = directory.resolve(LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss-SSS"))
        + "-seed" + seed);
    List<RunReconciliation> results = new ArrayList<>();
    try (StackServices stack = services != null ? services.apply(redisPreloadKeys)
        : StackServices.auto(redisPreloadKeys, s -> listener.event(0, s))) {
      listener.seriesStarting(seed, runs, stack.describe());
      StackServices.RedisHandle redis = stack.redis();
      listener.event(0, "preparing Redis's dataset once (" + redisPreloadKeys
          + " keys on disk; every run's Redis loads it again from cold)");
      redis.prepare();
      StackServices.BrokerHandle brokerHandle = broker.separate() ? stack.broker(broker) : null;
      for (int run = 1; run <= runs; run++) {
        StartOrder.Draw draw = StartOrder.draw(random, fixedOrder, broker, maxGap);
        RunReconciliation r = new ColdStartRun(this, run, runs, draw, redis, brokerHandle, series).execute();
        results.add(r);
        listener.runFinished(r);
      }
    }
    RunDirectory.deleteIfEmpty(series);
    return new ColdStartReport(seed, results);
  }

  /** Builds a {@link ColdStart}; every setting has a default but the worker and the backend. */
  public static final class Builder {
    private ProcessSpec worker;
    private ProcessSpec backend;
    private Producer producer;
    private OutcomeStore results;
    private OutcomeStore deadLetters;
    private boolean jobLines = true;
    private JobBroker broker = JobBroker.REDIS_LIST;
    private int jobs = 100;
    private int skewed = 3;
    private Long seed;
    private List<Component> fixedOrder;
    private Duration maxGap = Duration.ofMillis(800);
    private Duration runTimeout = Duration.ofSeconds(90);
    private Duration quietPeriod = Duration.ofSeconds(5);
    private Duration backendPopulate = Duration.ofMillis(1500);
    private int redisPreloadKeys = 20_000;
    private Path directory;
    private boolean keepLogs;
    private Function<Integer, StackServices> services;
    private ColdStartListener listener = ColdStartListener.silent();

    Builder() {}

    /** The worker under test (required). */
    public Builder worker(ProcessSpec spec) {
      this.worker = Objects.requireNonNull(spec, "worker");
      return this;
    }

    /**
     * The producer as a process (this or {@link #producer(Producer)} is required): it enqueues
     * {@code JOB_COUNT} jobs to {@code JOB_QUEUE}, {@code JOB_SKEWED} of them skewed, and writes
     * one manifest line per job to {@code JOB_MANIFEST} ({@link StackContract}).
     */
    public Builder backend(ProcessSpec spec) {
      this.backend = Objects.requireNonNull(spec, "backend");
      return this;
    }

    /** The producer as a callback in this JVM (this or {@link #backend(ProcessSpec)} is required). */
    public Builder producer(Producer value) {
      this.producer = Objects.requireNonNull(value, "producer");
      return this;
    }

    /** Where the worker writes each processed job (default: the Redis hash {@code ${JOB_QUEUE}:results}). */
    public Builder results(OutcomeStore store) {
      this.results = Objects.requireNonNull(store, "results");
      return this;
    }

    /**
     * Where the worker dead-letters each job it rejects or fails (default {@code ${JOB_QUEUE}:dead}:
     * a Redis list, or a RabbitMQ queue with {@link JobBroker#AMQP}).
     */
    public Builder deadLetters(OutcomeStore store) {
      this.deadLetters = Objects.requireNonNull(store, "deadLetters");
      return this;
    }

    /**
     * Whether the worker prints per-job lines ({@link StackContract#JOB_LINE}; default true). Then
     * received == N is checked and every line is held against the stores; without them the stores
     * alone say what happened.
     */
    public Builder jobLines(boolean value) {
      this.jobLines = value;
      return this;
    }

    /** What carries the jobs (default a Redis list). */
    public Builder broker(JobBroker value) {
      this.broker = Objects.requireNonNull(value, "broker");
      return this;
    }

    /** Jobs per run (default 100). */
    public Builder jobs(int n) {
      if (n < 1) {
        throw new IllegalArgumentException("jobs must be >= 1, was " + n);
      }
      this.jobs = n;
      return this;
    }

    /** How many of them carry schema skew (default 3). */
    public Builder skewed(int n) {
      if (n < 0) {
        throw new IllegalArgumentException("skewed must be >= 0, was " + n);
      }
      this.skewed = n;
      return this;
    }

    /** Seed of the random start orders (default: drawn, and printed by the report). */
    public Builder seed(long value) {
      this.seed = value;
      return this;
    }

    /** Start in this order every run instead of a random one (e.g. to reproduce one failure). */
    public Builder order(Component... order) {
      this.fixedOrder = List.of(order);
      return this;
    }

    /** Longest random pause between two starts (default 800 ms). */
    public Builder maxGap(Duration value) {
      this.maxGap = Objects.requireNonNull(value);
      return this;
    }

    /** Bound of one run, start to stop (default 90 s). */
    public Builder runTimeout(Duration value) {
      this.runTimeout = Objects.requireNonNull(value);
      return this;
    }

    /**
     * A run stops when the worker, once it has printed its first line, shows no new outcome and
     * prints no line for this long after the backend finished (default 5 s).
     */
    public Builder quietPeriod(Duration value) {
      this.quietPeriod = Objects.requireNonNull(value);
      return this;
    }

    /** How long the backend spends populating Redis before it enqueues (default 1.5 s). */
    public Builder backendPopulate(Duration value) {
      this.backendPopulate = Objects.requireNonNull(value);
      return this;
    }

    /** Keys in Redis's dataset: loading time grows with it (default 20,000: 2 to 4 s on 2 busy cores). */
    public Builder redisPreloadKeys(int n) {
      if (n < 1) {
        throw new IllegalArgumentException("redisPreloadKeys must be >= 1, was " + n);
      }
      this.redisPreloadKeys = n;
      return this;
    }

    /** Where run directories go (default {@code ${guard.build.dir:-target}/coldstart}). */
    public Builder directory(Path dir) {
      this.directory = Objects.requireNonNull(dir);
      return this;
    }

    /** Keep the logs of passed runs too (failed runs always keep theirs). */
    public Builder keepLogs(boolean value) {
      this.keepLogs = value;
      return this;
    }

    /** Where the servers come from (default {@link StackServices#auto}). */
    public Builder services(Function<Integer, StackServices> factory) {
      this.services = Objects.requireNonNull(factory);
      return this;
    }

    /** Always local processes (the fixtures), even where Docker exists. */
    public Builder localServices() {
      this.services = StackServices::local;
      return this;
    }

    /** Who hears the narration (default nobody). */
    public Builder listener(ColdStartListener value) {
      this.listener = Objects.requireNonNull(value);
      return this;
    }

    /**
     * Copies the settings into an immutable {@link ColdStart}.
     *
     * @throws IllegalStateException naming what is missing or inconsistent
     */
    public ColdStart build() {
      if (worker == null || (backend == null) == (producer == null)) {
        throw new IllegalStateException("ColdStart needs worker(ProcessSpec) and one producer, backend(ProcessSpec) "
            + "or producer(Producer); it had " + (worker == null ? "no worker" : "a worker") + ", "
            + (backend == null ? "no backend" : "a backend") + " and " + (producer == null ? "no producer" : "a producer"));
      }
      if (skewed > jobs) {
        throw new IllegalStateException("skewed (" + skewed + ") cannot exceed jobs (" + jobs + ")");
      }
      if (fixedOrder != null) {
        StartOrder.check(fixedOrder, broker);
      }
      return new ColdStart(this);
    }
  }
}
