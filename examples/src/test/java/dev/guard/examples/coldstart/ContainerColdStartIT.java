package dev.guard.examples.coldstart;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.guard.examples.stack.Backend;
import dev.guard.examples.stack.GuardedWorker;
import dev.guard.testing.coldstart.JobBroker;
import dev.guard.testing.coldstart.ColdStart;
import dev.guard.testing.coldstart.ColdStartListener;
import dev.guard.testing.coldstart.ColdStartReport;
import dev.guard.testing.coldstart.ProcessSpec;
import dev.guard.testing.coldstart.RunReconciliation;
import dev.guard.testing.coldstart.StackServices;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The cold-start harness on its Testcontainers path, against the container engine (.ci/engine;
 * failsafe gives this JVM DOCKER_HOST and the two Testcontainers settings podman needs): Redis
 * and RabbitMQ in containers, the worker and backend as local processes. The same guarantees as
 * the local path are checked, not assumed: every run saw a real LOADING phase, said so, kept the
 * Redis container's log, and reconciled. One run of each path in the default run; the repetitions
 * under {@code -Pproof}.
 */
class ContainerColdStartIT {

  /** The images ContainerServices runs, built here from this machine's packages (no registry), whatever IT ran first. */
  @BeforeAll
  static void standIns() throws Exception {
    dev.guard.testing.Engine.require();
    dev.guard.testing.Checkout.buildStandIns("redis", "rabbitmq");
  }

  @Test
  void aRedisColdStartOnContainersSawLoadingAndReconciled() throws Exception {
    redisOnContainers(1);
  }

  @Test
  @Tag("proof")
  void threeRedisColdStartsOnContainersSawLoadingAndReconciled() throws Exception {
    redisOnContainers(3);
  }

  @Test
  void anAmqpColdStartWithTheBrokerInAContainerReconciled() throws Exception {
    amqpOnContainers(1);
  }

  @Test
  @Tag("proof")
  void twoAmqpColdStartsWithTheBrokerInAContainerReconciled() throws Exception {
    amqpOnContainers(2);
  }

  @Test
  void aWorkerImageRunsAsAContainerAndReconciles() throws Exception {
    workerImage(1);
  }

  @Test
  @Tag("proof")
  void aWorkerImageRunsAsAContainerTwiceAndReconciles() throws Exception {
    workerImage(2);
  }

  static void redisOnContainers(int runs) throws Exception {
    List<String> events = new ArrayList<>();
    ColdStartListener listener = new ColdStartListener() {
      @Override
      public void event(int run, String text) {
        events.add(run + " " + text);
        System.out.println("[container-coldstart] run " + run + ": " + text);
      }
    };
    System.setProperty(StackServices.PROPERTY, "containers");
    try {
      ColdStart cs = ColdStart.builder()
          .worker(ProcessSpec.java(GuardedWorker.class).withEnv(GuardedWorker.ALLOW_LOOPBACK, "true"))
          .backend(ProcessSpec.java(Backend.class))
          .directory(Path.of(System.getProperty("guard.build.dir", "target"), "container-coldstart"))
          .keepLogs(true)
          .listener(listener)
          .build();
      ColdStartReport report = cs.run(runs);
      assertTrue(events.stream().anyMatch(e -> e.contains("servers: Testcontainers containers")), "the path is printed: " + events);
      assertEquals(runs, report.runs().size());
      for (RunReconciliation run : report.runs()) {
        assertTrue(run.passed(), run.render());
        assertTrue(run.figures().redisLoading().isPresent(), "a LOADING phase was measured: " + run.render());
        assertLogKept(run.logs().orElseThrow().resolve("redis.log"));
      }
      long saidLoading = events.stream().filter(e -> e.contains("Redis is up and answered LOADING")).count();
      assertEquals(runs, saidLoading, "each run says it saw LOADING: " + events);
      System.out.println("[container-coldstart] " + report.reconciledLine());
    } finally {
      System.clearProperty(StackServices.PROPERTY);
    }
  }

  static void amqpOnContainers(int runs) throws Exception {
    List<String> events = new ArrayList<>();
    System.setProperty(StackServices.PROPERTY, "containers");
    try {
      ColdStart cs = ColdStart.builder()
          .worker(ProcessSpec.java(GuardedWorker.class).withEnv(GuardedWorker.ALLOW_LOOPBACK, "true"))
          .backend(ProcessSpec.java(Backend.class))
          .broker(JobBroker.AMQP)
          .listener(new ColdStartListener() {
            @Override
            public void event(int run, String text) {
              events.add(run + " " + text);
            }
          })
          .build();
      ColdStartReport report = cs.run(runs);
      assertEquals(runs, report.runs().size());
      for (RunReconciliation run : report.runs()) {
        assertTrue(run.passed(), run.render());
      }
      assertTrue(events.stream().anyMatch(e -> e.contains("RabbitMQ now accepts connections")), events.toString());
      System.out.println("[container-coldstart] amqp: " + report.reconciledLine());
    } finally {
      System.clearProperty(StackServices.PROPERTY);
    }
  }

  /**
   * The worker as a container image (the example stack's own, guard-examples:0.1.0, which the build
   * wrote as an OCI tarball), on the host's network, beside a local Redis: the harness starts and
   * stops it like a process, reads its output into the run's log, and reconciles by the stores.
   */
  static void workerImage(int runs) throws Exception {
    dev.guard.testing.Engine.require().load(dev.guard.testing.Checkout.root()
        .resolve("examples/target/guard-examples-image.tar"));
    List<String> events = new ArrayList<>();
    ColdStart cs = ColdStart.builder()
        .worker(ProcessSpec.container("guard-examples:0.1.0", "dev.guard.examples.stack.GuardedWorker")
            .withEnv(GuardedWorker.ALLOW_LOOPBACK, "true"))
        .backend(ProcessSpec.java(Backend.class))
        .localServices()
        .listener(new ColdStartListener() {
          @Override
          public void event(int run, String text) {
            events.add(run + " " + text);
            System.out.println("[container-coldstart] worker image, run " + run + ": " + text);
          }
        })
        .build();
    ColdStartReport report = cs.run(runs);
    assertEquals(runs, report.runs().size());
    for (RunReconciliation run : report.runs()) {
      assertTrue(run.passed(), run.render());
      assertTrue(run.figures().workerWait().isPresent(), "the worker's own readiness line came through its log: "
          + run.render());
    }
    assertTrue(events.stream().anyMatch(e -> e.contains("guard-examples started (container ")), events.toString());
    assertEquals("reconciled: runs=" + runs + " received=" + 100 * runs + " processed=" + 97 * runs + " rejected=" + 3 * runs
        + " failed=0 missing=0", report.reconciledLine());
    System.out.println("[container-coldstart] worker image: " + report.reconciledLine());
  }

  /** The container's log, as the local path keeps redis-server's: the server's own startup and loading lines. */
  static void assertLogKept(Path log) {
    try {
      assertTrue(log != null && Files.isRegularFile(log), "the Redis container's log is kept: " + log);
      String text = Files.readString(log);
      assertTrue(text.contains("Ready to accept connections") || text.contains("DB loaded from disk"),
          "the log holds the server's own lines: " + text.substring(0, Math.min(400, text.length())));
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }
}
