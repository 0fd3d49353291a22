package dev.guard.examples.python;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.failsafe.Failsafe;
import dev.failsafe.RetryPolicy;
import dev.guard.testing.NoLeakedProcesses;
import dev.guard.testing.coldstart.ColdStart;
import dev.guard.testing.coldstart.ColdStartListener;
import dev.guard.testing.coldstart.ColdStartReport;
import dev.guard.testing.coldstart.Component;
import dev.guard.testing.coldstart.EnqueuedJob;
import dev.guard.testing.coldstart.OutcomeStore;
import dev.guard.testing.coldstart.ProcessSpec;
import dev.guard.testing.coldstart.Producer;
import dev.guard.testing.coldstart.RunReconciliation;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisException;
import io.lettuce.core.api.StatefulRedisConnection;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The harness on a stack that is not ours: a Python worker written with redis-py (Debian's
 * python3-redis), started as a command, its jobs produced by a Python script or by a Java
 * callback, every run reconciled by id against what the worker's results hash and dead-letter
 * list hold. The worker and the producer are in {@code examples/python}. One run of each in the
 * default run (the worker before Redis), three in random orders under {@code -Pproof}.
 */
@ExtendWith(NoLeakedProcesses.class)
class PythonWorkerColdStartTest {
  private static final Path SCRIPTS = Path.of("python").toAbsolutePath();
  /**
   * Debian's interpreter, which python3-redis installs into (a {@code python3} earlier on the PATH,
   * e.g. pyenv's, does not see it); {@code -Dguard.python=...} picks another.
   */
  private static final String PYTHON = System.getProperty("guard.python",
      Files.isExecutable(Path.of("/usr/bin/python3")) ? "/usr/bin/python3" : "python3");

  @BeforeAll
  static void python3WithRedisPyIsInstalled() throws Exception {
    Process p = new ProcessBuilder(PYTHON, "-c", "import redis; print(redis.__version__)").redirectErrorStream(true)
        .start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
    assertTrue(p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0, "this test runs examples/python/worker.py, which "
        + "needs python3 with redis-py: apt-get install python3-redis (.ci/run installs it), or -Dguard.python=<a python3 "
        + "with redis-py>; " + PYTHON + " said: " + out);
    assertTrue(Files.isRegularFile(SCRIPTS.resolve("worker.py")), "no worker.py in " + SCRIPTS
        + ": run the test from the examples module (Maven does)");
  }

  /** The worker reads its own variable for the queue; the harness's value is mapped onto it. */
  private static ProcessSpec pythonWorker() {
    return ProcessSpec.command(PYTHON, "-u", SCRIPTS.resolve("worker.py").toString())
        .withEnv("THUMBNAIL_QUEUE", "${JOB_QUEUE}");
  }

  private static ColdStart.Builder underTest() {
    return ColdStart.builder()
        .worker(pythonWorker())
        // the worker's own stores, named as it names them
        .results(OutcomeStore.redisHash("${JOB_QUEUE}:results"))
        .deadLetters(OutcomeStore.redisList("${JOB_QUEUE}:dead"))
        .quietPeriod(Duration.ofSeconds(4))
        .listener(ColdStartListener.printing(System.out));
  }

  @Test
  void aPythonWorkerAndAPythonProducerReconcileByWhatTheStoresHold() {
    ColdStartReport report = pythonStack().order(Component.WORKER, Component.REDIS, Component.BACKEND).build().run(1);
    report.assertAllPassed();
    assertEquals("reconciled: runs=1 received=100 processed=97 rejected=3 failed=0 missing=0", report.reconciledLine());
    RunReconciliation run = report.runs().get(0);
    assertEquals(run.skewedIds(), run.rejectedIds(), run.render());
  }

  @Test
  @Tag("proof")
  void threeColdStartsOfThePythonStackInRandomOrdersReconcile() {
    ColdStartReport report = pythonStack().build().run(3);
    report.assertAllPassed();
    assertEquals("reconciled: runs=3 received=300 processed=291 rejected=9 failed=0 missing=0", report.reconciledLine());
    for (RunReconciliation run : report.runs()) {
      assertEquals(run.skewedIds(), run.rejectedIds(), run.render());
    }
  }

  @Test
  void aJavaCallbackProducerFeedsThePythonWorkerAndTheStoresAloneDecide() {
    ColdStartReport report = underTest()
        .producer(PythonWorkerColdStartTest::produceWithLettuce)
        .jobLines(false)
        .build()
        .run(1);
    report.assertAllPassed();
    assertEquals("reconciled: runs=1 received=100 processed=97 rejected=3 failed=0 missing=0", report.reconciledLine());
  }

  /** The Python worker fed by the Python producer. */
  private static ColdStart.Builder pythonStack() {
    return underTest()
        .backend(ProcessSpec.command(PYTHON, "-u", SCRIPTS.resolve("producer.py").toString())
            .withEnv("THUMBNAIL_QUEUE", "${JOB_QUEUE}"));
  }

  @Test
  void aPythonWorkerThatLogsRejectedButDropsItsDeadLettersFails() {
    ColdStartReport report = underTest()
        .worker(pythonWorker().withEnv("DROP_DEAD_LETTERS", "1"))
        .backend(ProcessSpec.command(PYTHON, "-u", SCRIPTS.resolve("producer.py").toString())
            .withEnv("THUMBNAIL_QUEUE", "${JOB_QUEUE}"))
        .build()
        .run(1);
    RunReconciliation run = report.runs().get(0);
    assertFalse(report.passed(), "the worker's log says every job had an outcome, its dead-letter list holds none: "
        + run.render());
    assertEquals(100, run.received(), "its lines say it received every job: " + run.render());
    assertEquals(0, run.rejected(), run.render());
    assertEquals(run.skewedIds(), new TreeSet<>(run.missingIds()), run.render());
    String dead = "Redis list guard:coldstart:" + run.runId() + ":dead";
    assertTrue(run.violations().contains("log == stores failed: the worker logged 'rejected' or 'failed' for 3 jobs that "
        + dead + " does not hold, e.g. " + String.join(", ", run.skewedIds()) + ": their dead letters were dropped"),
        run.render());
    assertTrue(run.logs().isPresent(), "a failed run keeps its logs: " + run.render());
  }

  /**
   * A team's producer in Java: lettuce, retrying until Redis takes the jobs (refused while it is
   * down, LOADING while it loads), jobs in the worker's format, three of them in an older one.
   */
  private static List<EnqueuedJob> produceWithLettuce(Producer.Run run) throws IOException {
    String queue = run.env("JOB_QUEUE");
    List<EnqueuedJob> sent = new ArrayList<>();
    List<String> payloads = new ArrayList<>();
    for (int i = 0; i < run.jobs(); i++) {
      String id = run.runId() + "-j" + i;
      boolean skew = i % (run.jobs() / run.skewed()) == 7;
      payloads.add(skew
          ? "{\"id\":\"" + id + "\",\"type\":\"thumbnail\",\"image\":\"images/" + i + ".png\",\"width\":320}"
          : "{\"job_id\":\"" + id + "\",\"type\":\"thumbnail\",\"image\":\"images/" + i + ".png\",\"width\":320}");
      sent.add(skew ? EnqueuedJob.skewed(id, "renamed-id") : EnqueuedJob.ok(id));
    }
    RetryPolicy<Object> untilRedisTakesThem = RetryPolicy.builder().handle(RedisException.class)
        .withBackoff(Duration.ofMillis(100), Duration.ofSeconds(1)).withMaxDuration(Duration.ofSeconds(60))
        .withMaxRetries(-1).onRetry(e -> run.log("Redis not taking jobs yet: " + e.getLastException())).build();
    RedisClient client = RedisClient.create(run.env("REDIS_URL"));
    try {
      Failsafe.with(untilRedisTakesThem).run(() -> {
        try (StatefulRedisConnection<String, String> connection = client.connect()) {
          connection.sync().ping();
          // all at once: a retry after a partial push would enqueue some jobs twice
          connection.sync().lpush(queue, payloads.toArray(String[]::new));
        }
      });
    } finally {
      client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
    }
    run.log("enqueued " + sent.size() + " jobs to " + queue);
    return sent;
  }
}
