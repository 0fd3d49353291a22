package dev.guard.examples.coldstart;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.stream.Stream;

/**
 * The cold-start test: starts a whole stack from nothing, in a random order each run, enqueues
 * test jobs (some with schema skew), waits (bounded) for the worker to give every job an outcome,
 * stops everything and reconciles by job id. Every run must show {@code received == N},
 * {@code processed + rejected == N}, {@code missing == 0} and rejected exactly the skewed ids.
 *
 * <pre>{@code
 * ColdStartReport report = ColdStart.builder()
 *     .worker(ProcessSpec.java(MyWorker.class))
 *     .backend(ProcessSpec.java(MyBackend.class))
 *     .jobs(100).skewed(3)
 *     .build()
 *     .run(10);
 * report.assertAllPassed();
 * }</pre>
 *
 * <p>The stack's processes are real OS processes ({@code java -cp <this class path> <main>}) so
 * start order and crashes are real; the servers are local processes or containers
 * ({@link StackServices#auto}). The contract with the processes is in {@link StackContract}.
 * A failed run keeps its directory (each process's log, Redis's log, the manifest, the
 * reconciliation) and prints its path. Built objects are immutable; {@link #run(int)} may be
 * called more than once.
 */
public final class ColdStart {
  private final ProcessSpec worker;
  private final ProcessSpec backend;
  private final Broker broker;
  private final int jobs;
  private final int skewed;
  private final long seed;
  private final List<Component> fixedOrder;
  private final Duration maxGap;
  private final Duration runTimeout;
  private final Duration quietPeriod;
  private final Duration backendPopulate;
  private final int redisPreloadKeys;
  private final Path directory;
  private final boolean keepLogs;
  private final Function<Integer, StackServices> services;
  private final ColdStartListener listener;

  ColdStart(Builder b) {
    this.worker = Objects.requireNonNull(b.worker, "worker");
    this.backend = Objects.requireNonNull(b.backend, "backend");
    this.broker = b.broker;
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

  /** A builder with the example stack's defaults: 100 jobs, 3 skewed, Redis list, local or containers. */
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
      StackServices.BrokerHandle amqp = broker == Broker.AMQP ? stack.broker() : null;
      for (int run = 1; run <= runs; run++) {
        RunReconciliation r = runOnce(run, runs, random, redis, amqp, series);
        results.add(r);
        listener.runFinished(r);
      }
    }
    deleteIfEmpty(series);
    return new ColdStartReport(seed, results);
  }

  private List<Component> drawOrder(Random random) {
    if (fixedOrder != null) {
      return fixedOrder;
    }
    List<Component> order = new ArrayList<>(List.of(Component.REDIS, Component.BACKEND, Component.WORKER));
    if (broker == Broker.AMQP) {
      order.add(Component.BROKER);
    }
    Collections.shuffle(order, random);
    return order;
  }

  private RunReconciliation runOnce(int run, int runs, Random random, StackServices.RedisHandle redis,
      StackServices.BrokerHandle amqp, Path series) {
    List<Component> order = drawOrder(random);
    List<Long> gaps = new ArrayList<>();
    for (int i = 0; i < order.size(); i++) {
      gaps.add(i == 0 ? 0L : (long) (random.nextDouble() * maxGap.toMillis()));
    }
    String runId = "r" + run + "-" + UUID.randomUUID().toString().substring(0, 6);
    String queue = broker == Broker.AMQP ? "guard.coldstart." + runId : "guard:coldstart:" + runId;
    Path dir = series.resolve(String.format(Locale.ROOT, "run-%02d", run));
    createDirectories(dir);
    Path manifest = dir.resolve("manifest.txt");
    Path workerLog = dir.resolve("worker.log");
    Path backendLog = dir.resolve("backend.log");

    Map<String, String> env = new LinkedHashMap<>();
    env.put(StackContract.REDIS_URL, redis.uri());
    env.put(StackContract.JOB_BROKER, broker.envValue());
    if (amqp != null) {
      env.put(StackContract.AMQP_URL, amqp.uri());
    }
    env.put(StackContract.JOB_QUEUE, queue);
    env.put(StackContract.JOB_COUNT, Integer.toString(jobs));
    env.put(StackContract.JOB_SKEWED, Integer.toString(skewed));
    env.put(StackContract.RUN_ID, runId);
    env.put(StackContract.JOB_MANIFEST, manifest.toAbsolutePath().toString());
    env.put(StackContract.BACKEND_POPULATE_MS, Long.toString(backendPopulate.toMillis()));
    // the harness stops the worker with SIGTERM; should the harness itself die, the worker still
    // exits once idle for longer than a run can last, instead of lingering
    env.put(StackContract.WORKER_IDLE_EXIT_MS, Long.toString(runTimeout.plusSeconds(30).toMillis()));

    listener.runStarting(run, runs, order);
    Instant t0 = Instant.now();
    Process workerProcess = null;
    Process backendProcess = null;
    Instant workerStartedAt = null;
    CompletableFuture<Instant> redisLoaded = null;
    ExecutorService watcher = Executors.newSingleThreadExecutor(r -> {
      Thread t = new Thread(r, "coldstart-redis-watch");
      t.setDaemon(true);
      return t;
    });
    List<String> extra = new ArrayList<>();
    Tail workerTail = new Tail(workerLog);
    Tail backendTail = new Tail(backendLog);
    Instant lastOutcomeAt = null;
    Set<String> withOutcome = new HashSet<>();
    Instant workerFirstLineAt = null;
    Instant stoppedAt;
    try {
      for (int i = 0; i < order.size(); i++) {
        sleep(gaps.get(i));
        switch (order.get(i)) {
          case REDIS -> {
            listener.event(run, "starting Redis on a dataset of " + redisPreloadKeys + " keys (it should answer LOADING while it loads)");
            redis.start();
            redisLoaded = CompletableFuture.supplyAsync(() -> redis.awaitLoaded(runTimeout), watcher);
            // what the start saw, not what it was meant to see: the handles return only after a real
            // -LOADING reply, and say so through loadingObservedAt
            listener.event(run, redis.loadingObservedAt() != null
                ? "Redis is up and answered LOADING while it loads its dataset"
                : "Redis is up, but no LOADING reply was seen: this run has no loading phase");
          }
          case BROKER -> {
            amqp.start();
            listener.event(run, "RabbitMQ now accepts connections");
          }
          case BACKEND -> {
            backendProcess = start(backend, env, backendLog);
            listener.event(run, "backend started (pid " + backendProcess.pid() + "): populates Redis for about "
                + RunReconciliation.seconds(backendPopulate) + ", then enqueues " + jobs + " jobs");
          }
          case WORKER -> {
            workerProcess = start(worker, env, workerLog);
            workerStartedAt = Instant.now();
            listener.event(run, worker.name() + " started (pid " + workerProcess.pid() + ")");
          }
        }
        forward(run, backendTail, "backend");
        // a worker may finish jobs while a later service is still starting: those outcomes count too
        // (a CI run lost the first 3 of 100 here while RabbitMQ, started last, came up in a container)
        List<String> early = forward(run, workerTail, worker.name());
        if (workerFirstLineAt == null && !early.isEmpty()) {
          workerFirstLineAt = Instant.now();
        }
        if (outcomes(early, withOutcome)) {
          lastOutcomeAt = Instant.now();
        }
      }

      // wait, bounded, until every enqueued job has an outcome or nothing more can happen
      Instant deadline = t0.plus(runTimeout);
      Map<String, String> manifestIds = Map.of();
      Instant backendDoneAt = null;
      Instant workerExitSeen = null;
      while (true) {
        forward(run, backendTail, "backend");
        List<String> workerLines = forward(run, workerTail, worker.name());
        if (workerFirstLineAt == null && !workerLines.isEmpty()) {
          workerFirstLineAt = Instant.now();
        }
        if (outcomes(workerLines, withOutcome)) {
          lastOutcomeAt = Instant.now();
        }
        if (backendDoneAt == null && !backendProcess.isAlive()) {
          backendDoneAt = Instant.now();
          int code = backendProcess.exitValue();
          manifestIds = readManifest(manifest);
          listener.event(run, code == 0
              ? "backend enqueued " + manifestIds.size() + " jobs, "
                  + manifestIds.values().stream().filter(v -> v.startsWith("skew")).count() + " with schema skew"
              : "backend exited with " + code + " (read " + backendLog + ")");
        }
        if (backendDoneAt != null && !manifestIds.isEmpty() && withOutcome.containsAll(manifestIds.keySet())) {
          listener.event(run, "every enqueued job has an outcome");
          break;
        }
        if (!workerProcess.isAlive()) {
          if (workerExitSeen == null) {
            workerExitSeen = Instant.now();
            listener.event(run, worker.name() + " exited with " + workerProcess.exitValue()
                + (backendDoneAt == null ? "; the backend goes on (its jobs are enqueued all the same)" : ""));
          }
          // the jobs are enqueued whether or not a worker is alive: let the backend finish (bounded)
          if (backendDoneAt != null && Duration.between(workerExitSeen, Instant.now()).toMillis() > 300) {
            break;
          }
        }
        if (backendDoneAt != null) {
          // quiet = the worker is running and says nothing: a JVM still booting on a busy machine
          // is not quiet yet, so the period counts from its first line at the earliest (a worker
          // that never prints ends the run at the run timeout instead)
          Instant since = latest(backendDoneAt, lastOutcomeAt, workerFirstLineAt);
          if (workerFirstLineAt != null && Duration.between(since, Instant.now()).compareTo(quietPeriod) > 0) {
            listener.event(run, "no new outcome for " + RunReconciliation.seconds(quietPeriod)
                + " after the backend finished: stopping the run");
            extra.add("stalled: no new outcome line for " + RunReconciliation.seconds(quietPeriod)
                + " after the backend finished (" + withOutcome.size() + " of " + manifestIds.size()
                + " jobs had one)");
            break;
          }
        }
        if (Instant.now().isAfter(deadline)) {
          extra.add("timed out: the run took longer than " + RunReconciliation.seconds(runTimeout)
              + " (" + withOutcome.size() + " jobs had an outcome)");
          break;
        }
        sleep(50);
      }
    } catch (RuntimeException e) {
      extra.add("the harness could not run the stack: " + e);
    } finally {
      stoppedAt = Instant.now();
      stop(workerProcess, "worker", run);
      stop(backendProcess, "backend", run);
      redis.stop();
      if (amqp != null) {
        amqp.stop();
        amqp.deleteQueue(queue);
      }
      watcher.shutdownNow();
    }
    forward(run, workerTail, worker.name());
    forward(run, backendTail, "backend");

    Map<String, String> manifestIds = readManifest(manifest);
    List<String> workerLines = readLines(workerLog);
    Reconciler.Tally tally = Reconciler.reconcile(manifestIds, workerLines, jobs);
    RunReconciliation.Figures figures = figures(t0, lastOutcomeAt, stoppedAt, tally, redis, redisLoaded,
        workerStartedAt, workerLines, readLines(backendLog), workerProcess, backendProcess);
    boolean passed = extra.isEmpty() && tally.violations().isEmpty();
    Path kept = passed && !keepLogs ? null : dir;
    if (kept != null) {
      copyRedisLog(redis, dir);
    }
    RunReconciliation r = new RunReconciliation(run, runId, order, worker.toString(), jobs, tally, extra, figures, kept);
    if (kept != null) {
      writeString(dir.resolve("reconciliation.txt"), r.render());
    } else {
      deleteTree(dir);
    }
    return r;
  }

  private RunReconciliation.Figures figures(Instant t0, Instant lastOutcomeAt, Instant stoppedAt,
      Reconciler.Tally tally, StackServices.RedisHandle redis, CompletableFuture<Instant> redisLoaded,
      Instant workerStartedAt, List<String> workerLines, List<String> backendLines, Process workerProcess,
      Process backendProcess) {
    boolean complete = tally.missing().isEmpty() && !tally.enqueued().isEmpty();
    Duration coldStart = Duration.between(t0, complete && lastOutcomeAt != null ? lastOutcomeAt : stoppedAt);
    Optional<Instant> loadedAt = Optional.empty();
    if (redisLoaded != null && redisLoaded.isDone() && !redisLoaded.isCompletedExceptionally()) {
      loadedAt = Optional.of(redisLoaded.join());
    }
    Optional<Duration> loading = loadedAt.flatMap(l -> Optional.ofNullable(redis.loadingObservedAt())
        .map(s -> Duration.between(s, l)));
    Optional<Long> waitMs = Optional.empty();
    Optional<Instant> gatePassedAt = Optional.empty();
    for (String line : workerLines) {
      Matcher m = StackContract.WAIT_LINE.matcher(line);
      if (m.find()) {
        waitMs = Optional.of(Long.parseLong(m.group(1)));
        Matcher at = java.util.regex.Pattern.compile(" at (\\d{10,})").matcher(line);
        if (at.find()) {
          gatePassedAt = Optional.of(Instant.ofEpochMilli(Long.parseLong(at.group(1))));
        }
      }
    }
    Optional<Instant> markerAt = Optional.empty();
    for (String line : backendLines) {
      Matcher m = StackContract.MARKER_LINE.matcher(line);
      if (m.find()) {
        markerAt = Optional.of(Instant.ofEpochMilli(Long.parseLong(m.group(1))));
      }
    }
    Optional<Instant> depsReady = Stream.of(loadedAt, markerAt).flatMap(Optional::stream).max(Comparator.naturalOrder());
    Optional<Duration> depsAfterWorker = Optional.empty();
    Optional<Duration> reaction = Optional.empty();
    if (workerStartedAt != null && depsReady.isPresent()) {
      Duration d = Duration.between(workerStartedAt, depsReady.get());
      depsAfterWorker = Optional.of(d.isNegative() ? Duration.ZERO : d);
      if (!d.isNegative() && gatePassedAt.isPresent()) {
        reaction = Optional.of(Duration.between(depsReady.get(), gatePassedAt.get()));
      }
    }
    return new RunReconciliation.Figures(coldStart, waitMs.map(Duration::ofMillis), loading, depsAfterWorker, reaction,
        exit(workerProcess), exit(backendProcess));
  }

  private static Optional<Integer> exit(Process p) {
    return p == null || p.isAlive() ? Optional.empty() : Optional.of(p.exitValue());
  }

  private Process start(ProcessSpec spec, Map<String, String> contract, Path log) {
    ProcessBuilder pb = new ProcessBuilder(spec.command());
    Map<String, String> env = pb.environment();
    Map<String, String> inherited = new LinkedHashMap<>(env);
    env.clear();
    for (String keep : List.of("PATH", "HOME", "LANG", "LC_ALL", "TMPDIR", "JAVA_HOME", "TZ")) {
      if (inherited.containsKey(keep)) {
        env.put(keep, inherited.get(keep));
      }
    }
    env.putAll(contract);
    spec.env().forEach((k, v) -> env.put(k, substitute(v, contract)));
    pb.redirectErrorStream(true);
    pb.redirectOutput(log.toFile());
    try {
      return pb.start();
    } catch (IOException e) {
      throw new UncheckedIOException("could not start " + spec + ": " + e.getMessage(), e);
    }
  }

  /** Replaces {@code ${NAME}} with the contract variable's value (e.g. {@code CACHE_URL=${REDIS_URL}}). */
  static String substitute(String value, Map<String, String> contract) {
    String out = value;
    for (Map.Entry<String, String> e : contract.entrySet()) {
      out = out.replace("${" + e.getKey() + "}", e.getValue());
    }
    return out;
  }

  private void stop(Process p, String name, int run) {
    if (p == null) {
      return;
    }
    if (p.isAlive()) {
      p.destroy(); // SIGTERM: the worker drains and prints its ledger summary
      try {
        if (!p.waitFor(10, TimeUnit.SECONDS)) {
          listener.event(run, name + " ignored SIGTERM for 10 s: killing it");
          p.destroyForcibly();
          p.waitFor(5, TimeUnit.SECONDS);
        }
      } catch (InterruptedException e) {
        p.destroyForcibly();
        Thread.currentThread().interrupt();
      }
    }
    p.descendants().forEach(ProcessHandle::destroyForcibly);
  }

  /** Adds the ids of the outcome lines (processed, rejected, failed) among {@code lines}; true when there was one. */
  private static boolean outcomes(List<String> lines, Set<String> withOutcome) {
    boolean any = false;
    for (String line : lines) {
      Matcher m = StackContract.JOB_LINE.matcher(line);
      if (m.find() && !m.group(2).equals("received")) {
        withOutcome.add(m.group(1));
        any = true;
      }
    }
    return any;
  }

  private List<String> forward(int run, Tail tail, String process) {
    List<String> lines = tail.next();
    for (String line : lines) {
      if (!StackContract.JOB_LINE.matcher(line).find()) {
        listener.processLine(run, process, line);
      }
    }
    return lines;
  }

  /** Reads new complete lines of a growing file. */
  private static final class Tail {
    private final Path file;
    private long offset;
    private String partial = "";

    Tail(Path file) {
      this.file = file;
    }

    List<String> next() {
      if (!Files.exists(file)) {
        return List.of();
      }
      try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "r")) {
        long length = raf.length();
        if (length <= offset) {
          return List.of();
        }
        byte[] bytes = new byte[(int) (length - offset)];
        raf.seek(offset);
        raf.readFully(bytes);
        offset = length;
        String text = partial + new String(bytes, StandardCharsets.UTF_8);
        int lastNewline = text.lastIndexOf('\n');
        if (lastNewline < 0) {
          partial = text;
          return List.of();
        }
        partial = text.substring(lastNewline + 1);
        return List.of(text.substring(0, lastNewline).split("\n", -1));
      } catch (IOException e) {
        return List.of();
      }
    }
  }

  private static Map<String, String> readManifest(Path manifest) {
    return Reconciler.parseManifest(readLines(manifest));
  }

  private static List<String> readLines(Path file) {
    try {
      return Files.exists(file) ? Files.readAllLines(file, StandardCharsets.UTF_8) : List.of();
    } catch (IOException e) {
      throw new UncheckedIOException("could not read " + file, e);
    }
  }

  private static void copyRedisLog(StackServices.RedisHandle redis, Path dir) {
    Path log = redis.logFile();
    if (log != null && Files.exists(log)) {
      try {
        Files.copy(log, dir.resolve("redis.log"), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
      } catch (IOException e) {
        // the run's verdict does not depend on the copy
      }
    }
  }

  private static void createDirectories(Path dir) {
    try {
      Files.createDirectories(dir);
    } catch (IOException e) {
      throw new UncheckedIOException("could not create the run directory " + dir, e);
    }
  }

  private static void writeString(Path file, String text) {
    try {
      Files.writeString(file, text, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("could not write " + file, e);
    }
  }

  private static void deleteTree(Path dir) {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> walk = Files.walk(dir)) {
      walk.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException e) {
      // leftover files of a passed run are harmless
    }
  }

  private static void deleteIfEmpty(Path dir) {
    try (Stream<Path> list = Files.exists(dir) ? Files.list(dir) : Stream.empty()) {
      if (Files.exists(dir) && list.findAny().isEmpty()) {
        Files.delete(dir);
      }
    } catch (IOException e) {
      // nothing to clean
    }
  }

  private static Instant latest(Instant... instants) {
    Instant out = Instant.MIN;
    for (Instant i : instants) {
      if (i != null && i.isAfter(out)) {
        out = i;
      }
    }
    return out;
  }

  private static void sleep(long millis) {
    if (millis <= 0) {
      return;
    }
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while running a cold start", e);
    }
  }

  /** Builds a {@link ColdStart}; every setting has a default but the worker and the backend. */
  public static final class Builder {
    private ProcessSpec worker;
    private ProcessSpec backend;
    private Broker broker = Broker.REDIS_LIST;
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

    /** The backend that populates Redis and enqueues the jobs (required). */
    public Builder backend(ProcessSpec spec) {
      this.backend = Objects.requireNonNull(spec, "backend");
      return this;
    }

    /** What carries the jobs (default a Redis list). */
    public Builder broker(Broker value) {
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
     * A run stops when the worker, once it has printed its first line, shows no new outcome for
     * this long after the backend finished (default 5 s).
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
      if (worker == null || backend == null) {
        throw new IllegalStateException("ColdStart needs worker(ProcessSpec) and backend(ProcessSpec): the harness "
            + "starts them as processes");
      }
      if (skewed > jobs) {
        throw new IllegalStateException("skewed (" + skewed + ") cannot exceed jobs (" + jobs + ")");
      }
      if (fixedOrder != null) {
        List<Component> needed = new ArrayList<>(List.of(Component.REDIS, Component.BACKEND, Component.WORKER));
        if (broker == Broker.AMQP) {
          needed.add(Component.BROKER);
        }
        if (fixedOrder.size() != needed.size() || !fixedOrder.containsAll(needed)) {
          throw new IllegalStateException("order(...) must name each of " + needed + " once, was " + fixedOrder);
        }
      }
      return new ColdStart(this);
    }
  }
}
