package dev.guard.testing.coldstart;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * One cold start of a series ({@link ColdStart#run}), in four steps: start the parts in the drawn
 * order with the drawn pauses; wait, bounded, until every enqueued job has an outcome (in the
 * stores, or in the worker's lines) or nothing more can happen; stop the processes and read the
 * stores, then stop the servers; reconcile by job id and keep the logs of a failed run.
 */
final class ColdStartRun {
  private final ColdStart settings;
  private final int run;
  private final int runs;
  private final StackServices.RedisHandle redis;
  /** The broker when it is a server of its own; null for a Redis list. */
  private final StackServices.BrokerHandle broker;
  private final StartOrder.Draw draw;
  private final String runId;
  private final String queue;
  private final RunDirectory dir;
  private final RunOutput output;
  private final ColdStartListener listener;
  /** What went wrong besides the reconciliation: a stall, a timeout, a harness failure. */
  private final List<String> problems = new ArrayList<>();
  private final ExecutorService watcher = Executors.newSingleThreadExecutor(r -> {
    Thread t = new Thread(r, "coldstart-redis-watch");
    t.setDaemon(true);
    return t;
  });

  private Instant startedAt;
  private Instant stoppedAt;
  private Map<String, String> env;
  private Part worker;
  private Part backend;
  private Instant workerStartedAt;
  private CompletableFuture<Instant> redisLoaded;
  /** The broker's start; on its own thread for a broker that starts slowly (Kafka), and the order goes on meanwhile. */
  private CompletableFuture<Void> brokerStarted;
  private boolean brokerStartTold;
  private StoreWatch stores;
  private Reconciler.Stored finalResults;
  private Reconciler.Stored finalDeadLetters;

  ColdStartRun(ColdStart settings, int run, int runs, StartOrder.Draw draw, StackServices.RedisHandle redis,
      StackServices.BrokerHandle broker, Path series) {
    this.settings = settings;
    this.run = run;
    this.runs = runs;
    this.draw = draw;
    this.redis = redis;
    this.broker = broker;
    this.listener = settings.listener;
    this.runId = "r" + run + "-" + UUID.randomUUID().toString().substring(0, 6);
    // a dotted name where it must be a subject (JetStream) or is usually one (AMQP)
    this.queue = settings.broker.separate() ? "guard.coldstart." + runId : "guard:coldstart:" + runId;
    this.dir = RunDirectory.create(series, run);
    this.output = new RunOutput(run, settings.worker.name(), dir, listener);
  }

  RunReconciliation execute() {
    env = contract();
    stores = new StoreWatch(settings.results, settings.deadLetters, env);
    listener.runStarting(run, runs, draw.order());
    startedAt = Instant.now();
    try {
      startInOrder();
      awaitOutcomes();
    } catch (RuntimeException e) {
      problems.add("the harness could not run the stack: " + e);
    } finally {
      stoppedAt = Instant.now();
      stopParts();
      awaitBrokerStart();
      readStores();
      stopServers();
    }
    output.poll();
    return reconcile();
  }

  /** The variables every process of this run gets ({@link StackContract}). */
  private Map<String, String> contract() {
    Map<String, String> vars = new LinkedHashMap<>();
    vars.put(StackContract.REDIS_URL, redis.uri());
    vars.put(StackContract.JOB_BROKER, settings.broker.envValue());
    if (broker != null) {
      vars.put(broker.variable(), broker.uri());
    }
    vars.put(StackContract.JOB_QUEUE, queue);
    if (settings.broker == JobBroker.JETSTREAM) {
      vars.put(StackContract.JOB_STREAM, "COLDSTART_" + runId);
    }
    vars.put(StackContract.JOB_COUNT, Integer.toString(settings.jobs));
    vars.put(StackContract.JOB_SKEWED, Integer.toString(settings.skewed));
    vars.put(StackContract.RUN_ID, runId);
    vars.put(StackContract.JOB_MANIFEST, dir.manifest().toAbsolutePath().toString());
    vars.put(StackContract.BACKEND_POPULATE_MS, Long.toString(settings.backendPopulate.toMillis()));
    // the harness stops the worker with SIGTERM; should the harness itself die, the worker still
    // exits once idle for longer than a run can last, instead of lingering
    vars.put(StackContract.WORKER_IDLE_EXIT_MS, Long.toString(settings.runTimeout.plusSeconds(30).toMillis()));
    // the run's Redis is a throwaway that keeps nothing on disk (it must load from a dump to answer
    // LOADING, and Redis 7 started with appendonly yes ignores the dump): a guarded worker would
    // refuse it before its first job, so guard's durability check warns here instead (a worker's
    // own withEnv can set it back to error)
    vars.put(StackContract.PERSISTENCE_CHECK, "warn");
    return vars;
  }

  private void startInOrder() {
    for (int i = 0; i < draw.order().size(); i++) {
      sleep(draw.gapsMillis().get(i));
      switch (draw.order().get(i)) {
        case REDIS -> {
          listener.event(run, "starting Redis on a dataset of " + settings.redisPreloadKeys
              + " keys (it should answer LOADING while it loads)");
          redis.start();
          redisLoaded = CompletableFuture.supplyAsync(() -> redis.awaitLoaded(settings.runTimeout), watcher);
          // what the start saw, not what it was meant to see: the handles return only after a real
          // -LOADING reply, and say so through loadingObservedAt
          listener.event(run, redis.loadingObservedAt() != null
              ? "Redis is up and answered LOADING while it loads its dataset"
              : "Redis is up, but no LOADING reply was seen: this run has no loading phase");
        }
        case BROKER -> {
          brokerStarted = CompletableFuture.runAsync(broker::start, broker.startsSlowly() ? runnable -> {
            Thread t = new Thread(runnable, "coldstart-broker-start");
            t.setDaemon(true);
            t.start();
          } : Runnable::run);
          try {
            brokerStarted.get(2, java.util.concurrent.TimeUnit.SECONDS);
          } catch (java.util.concurrent.TimeoutException slow) {
            listener.event(run, "starting " + settings.broker.label() + " (it takes seconds: the run goes on meanwhile)");
          } catch (java.util.concurrent.ExecutionException | InterruptedException failed) {
            // told by tellBrokerStart
          }
          tellBrokerStart();
        }
        case BACKEND -> {
          if (settings.producer != null) {
            backend = Part.producer(settings.producer, env, settings.jobs, settings.skewed, dir.manifest(),
                dir.backendLog());
            listener.event(run, "producer started (" + backend.describe() + "): enqueues " + settings.jobs + " jobs");
          } else {
            backend = Part.start(settings.backend, env, dir.backendLog());
            listener.event(run, settings.backend.name() + " started (" + backend.describe() + "): enqueues "
                + settings.jobs + " jobs");
          }
        }
        case WORKER -> {
          worker = Part.start(settings.worker, env, dir.workerLog());
          workerStartedAt = Instant.now();
          listener.event(run, settings.worker.name() + " started (" + worker.describe() + ")");
        }
      }
      // a worker may finish jobs while a later service is still starting: those outcomes count too
      // (a CI run lost the first 3 of 100 here while RabbitMQ, started last, came up in a container)
      output.poll();
    }
  }

  /** Says once that the broker accepts connections, or why it does not (then the run has a problem). */
  private void tellBrokerStart() {
    if (brokerStarted == null || brokerStartTold || !brokerStarted.isDone()) {
      return;
    }
    brokerStartTold = true;
    try {
      brokerStarted.join();
      listener.event(run, settings.broker.label() + " now accepts connections");
    } catch (java.util.concurrent.CompletionException e) {
      problems.add(settings.broker.label() + " did not start: " + e.getCause());
      listener.event(run, settings.broker.label() + " did not start: " + e.getCause());
    }
  }

  /** Waits, bounded, until every enqueued job has an outcome or nothing more can happen. */
  private void awaitOutcomes() {
    Instant deadline = startedAt.plus(settings.runTimeout);
    Map<String, String> manifestIds = Map.of();
    Instant backendDoneAt = null;
    Instant workerExitSeen = null;
    while (true) {
      output.poll();
      tellBrokerStart();
      if (backendDoneAt == null && !backend.isAlive()) {
        backendDoneAt = Instant.now();
        int code = backend.exit().orElse(-1);
        manifestIds = dir.manifestIds();
        listener.event(run, code == 0
            ? producerWord() + " enqueued " + manifestIds.size() + " jobs, "
                + manifestIds.values().stream().filter(v -> v.startsWith("skew")).count() + " with schema skew"
            : producerWord() + " exited with " + code + " (read " + dir.backendLog() + ")");
      }
      if (backendDoneAt != null && !manifestIds.isEmpty()) {
        if (stores.poll(manifestIds.keySet()) == manifestIds.size()) {
          listener.event(run, "every enqueued job has an outcome in the stores");
          return;
        }
        if (settings.jobLines && output.withOutcome().containsAll(manifestIds.keySet())) {
          listener.event(run, "the worker logged an outcome for every enqueued job");
          return;
        }
      }
      if (!worker.isAlive()) {
        if (workerExitSeen == null) {
          workerExitSeen = Instant.now();
          listener.event(run, settings.worker.name() + " exited with " + worker.exit().orElse(-1)
              + (backendDoneAt == null ? "; the producer goes on (its jobs are enqueued all the same)" : ""));
        }
        // the jobs are enqueued whether or not a worker is alive: let the backend finish (bounded)
        if (backendDoneAt != null && Duration.between(workerExitSeen, Instant.now()).toMillis() > 300) {
          return;
        }
      }
      if (backendDoneAt != null) {
        // quiet = the worker is running and says nothing: a JVM still booting on a busy machine
        // is not quiet yet, so the period counts from its latest line at the earliest; a worker
        // whose readiness wait ended after the producer finished is not quiet either (a Kafka
        // worker ready 29.7 s in was stopped here 5 s after the producer, before its group
        // join); a worker that never prints ends the run at the run timeout instead
        Instant since = latest(backendDoneAt, lastOutcomeAt(), output.workerLastLineAt());
        boolean workerShowedLife = output.workerFirstLineAt() != null || stores.lastGrowthAt() != null;
        if (workerShowedLife && Duration.between(since, Instant.now()).compareTo(settings.quietPeriod) > 0) {
          listener.event(run, "no new outcome for " + RunReconciliation.seconds(settings.quietPeriod)
              + " after the producer finished: stopping the run");
          problems.add("stalled: no new outcome for " + RunReconciliation.seconds(settings.quietPeriod)
              + " after the producer finished (" + outcomes(manifestIds) + ")");
          return;
        }
      }
      if (Instant.now().isAfter(deadline)) {
        problems.add("timed out: the run took longer than " + RunReconciliation.seconds(settings.runTimeout)
            + " (" + outcomes(manifestIds) + ")");
        return;
      }
      sleep(50);
    }
  }

  /** "backend" for a producer process (the example stack's word), "producer" for a callback. */
  private String producerWord() {
    return settings.producer != null ? "producer" : "backend";
  }

  /** How many jobs had an outcome, in the stores and in the worker's lines. */
  private String outcomes(Map<String, String> manifestIds) {
    return stores.covered() + " of " + manifestIds.size() + " jobs in the stores"
        + (settings.jobLines ? ", " + output.withOutcome().size() + " with an outcome line" : "");
  }

  private void stopParts() {
    if (worker != null) {
      worker.stop("worker", text -> listener.event(run, text));
    }
    if (backend != null) {
      backend.stop("producer", text -> listener.event(run, text));
    }
  }

  /**
   * Lets a broker start still under way end (bounded), before the stores are read (a dead-letter
   * store on the broker answers only then) and before the stop (a broker JVM half booted would be
   * left behind).
   */
  private void awaitBrokerStart() {
    if (brokerStarted != null) {
      try {
        brokerStarted.get(2, java.util.concurrent.TimeUnit.MINUTES);
      } catch (Exception e) {
        // told by tellBrokerStart; the stop ends a start that hangs
      }
    }
  }

  /** The stores' final contents, read while the servers are still up. */
  private void readStores() {
    finalResults = stores.readFinal(settings.results, problems);
    finalDeadLetters = stores.readFinal(settings.deadLetters, problems);
  }

  private void stopServers() {
    redis.stop();
    if (broker != null) {
      broker.stop();
      broker.cleanUp(queue);
    }
    watcher.shutdownNow();
  }

  private RunReconciliation reconcile() {
    List<String> workerLines = dir.workerLines();
    Reconciler.Tally tally = Reconciler.reconcile(new Reconciler.Evidence(dir.manifestIds(), workerLines,
        settings.jobLines, settings.jobs, finalResults, finalDeadLetters));
    RunReconciliation.Figures figures = RunFigures.of(new RunFigures.Observed(startedAt, lastOutcomeAt(),
        stoppedAt, workerStartedAt, redis.loadingObservedAt(), redisLoaded, worker, backend), tally, workerLines,
        dir.backendLines());
    boolean passed = problems.isEmpty() && tally.violations().isEmpty();
    boolean keep = !passed || settings.keepLogs;
    RunReconciliation r = new RunReconciliation(run, runId, draw.order(), settings.worker.toString(), settings.jobs,
        tally, problems, figures, keep ? dir.path() : null);
    dir.keepOrDelete(keep, redis.logFile(), r.render());
    return r;
  }

  /** The last new outcome, in the worker's lines or the stores; null if none was seen. */
  private Instant lastOutcomeAt() {
    Instant log = output.lastOutcomeAt();
    Instant store = stores.lastGrowthAt();
    return log == null ? store : store == null ? log : latest(log, store);
  }

  private static Instant latest(Instant... instants) {
    Instant out = Instant.EPOCH;
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
}
