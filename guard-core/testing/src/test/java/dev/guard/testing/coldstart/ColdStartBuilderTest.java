package dev.guard.testing.coldstart;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.net.URI;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What the harness refuses to build, and how a worker's env refers to the contract's values. */
class ColdStartBuilderTest {

  @Test
  void aWorkerAndExactlyOneProducerAreRequired() {
    IllegalStateException none = assertThrows(IllegalStateException.class, () -> ColdStart.builder().build());
    assertEquals("ColdStart needs worker(ProcessSpec) and one producer, backend(ProcessSpec) or producer(Producer); "
        + "it had no worker, no backend and no producer", none.getMessage());
    IllegalStateException both = assertThrows(IllegalStateException.class, () -> ColdStart.builder()
        .worker(ProcessSpec.command("python3", "worker.py")).backend(ProcessSpec.java("B"))
        .producer(run -> List.of()).build());
    assertEquals("ColdStart needs worker(ProcessSpec) and one producer, backend(ProcessSpec) or producer(Producer); "
        + "it had a worker, a backend and a producer", both.getMessage());
  }

  @Test
  void aCommandRunsAsGivenAndIsNamedAfterItsScript() {
    ProcessSpec python = ProcessSpec.command("python3", "-u", "examples/python/worker.py", "--fast");
    assertEquals(List.of("python3", "-u", "examples/python/worker.py", "--fast"), python.commandLine());
    assertEquals("worker.py", python.name());
    assertEquals("worker.py(python3 -u examples/python/worker.py --fast)", python.toString());
    assertTrue(python.mainClass().isEmpty());
    assertEquals("redis-cli", ProcessSpec.command("/usr/bin/redis-cli").name());
    IllegalStateException e = assertThrows(IllegalStateException.class, () -> python.withJvmArgs(List.of("-Xmx1g")));
    assertEquals("withJvmArgs is for a Java process; worker.py(python3 -u examples/python/worker.py --fast) is a command",
        e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> ProcessSpec.command(new String[0]));
    assertThrows(IllegalArgumentException.class, () -> ProcessSpec.command("python3", ""));
  }

  @Test
  void aContainerIsNamedAfterItsImage() {
    ProcessSpec worker = ProcessSpec.container("localhost/team/thumbnail-worker:1.4.2", "python3", "-u", "worker.py")
        .withEnv("THUMBNAIL_QUEUE", "${JOB_QUEUE}");
    assertEquals("thumbnail-worker", worker.name());
    assertEquals("thumbnail-worker(container localhost/team/thumbnail-worker:1.4.2 python3 -u worker.py)",
        worker.toString());
    assertEquals(List.of("python3", "-u", "worker.py"), worker.commandLine());
    assertEquals("localhost/team/thumbnail-worker:1.4.2", worker.image().orElseThrow());
    assertEquals("guard-examples", ProcessSpec.container("guard-examples:0.1.0").name());
    assertEquals("redis", ProcessSpec.container("docker.io/library/redis@sha256:abc").name());
    assertEquals(List.of(), ProcessSpec.container("guard-examples:0.1.0").commandLine(), "the image's own command");
    IllegalStateException e = assertThrows(IllegalStateException.class, () -> worker.withClasspath("x.jar"));
    assertTrue(e.getMessage().endsWith("is a container"), e.getMessage());
    assertThrows(IllegalStateException.class, () -> worker.withWorkingDirectory(Path.of("/tmp")));
  }

  @Test
  void aProducersJobIdsAreManifestTokens() {
    assertEquals("r1-7 ok", EnqueuedJob.ok("r1-7").manifestLine());
    assertEquals("r1-8 skew:old-format-v1", EnqueuedJob.skewed("r1-8", "old format v1").manifestLine());
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> EnqueuedJob.ok("r1 7"));
    assertEquals("a job id must be non-blank without whitespace (it is a manifest token), was 'r1 7'", e.getMessage());
  }

  @Test
  void aFixedOrderMustNameEveryComponentOnce() {
    ColdStart.Builder b = ColdStart.builder().worker(ProcessSpec.java("W")).backend(ProcessSpec.java("B"))
        .broker(JobBroker.AMQP).order(Component.WORKER, Component.REDIS, Component.BACKEND);
    IllegalStateException e = assertThrows(IllegalStateException.class, b::build);
    assertEquals("order(...) must name each of [REDIS, BACKEND, WORKER, BROKER] once, was [WORKER, REDIS, BACKEND]",
        e.getMessage());
  }

  @Test
  void aSeedIsKeptSoASeriesCanBeReplayed() {
    ColdStart c = ColdStart.builder().worker(ProcessSpec.java("W")).backend(ProcessSpec.java("B")).seed(42).build();
    assertEquals(42, c.seed());
  }

  @Test
  void workerEnvMayReferToTheContractsValues() {
    assertEquals("redis://127.0.0.1:7000", ChildProcesses.substitute("${REDIS_URL}", Map.of("REDIS_URL", "redis://127.0.0.1:7000")));
  }

  @Test
  void childProcessesGetTheFastStartFlagsAndThisClassPath() {
    List<String> cmd = ProcessSpec.java(ColdStart.class).commandLine();
    assertTrue(cmd.containsAll(ProcessSpec.FAST_START_FLAGS), cmd.toString());
    assertEquals("dev.guard.testing.coldstart.ColdStart", cmd.get(cmd.size() - 1));
    String here = Path.of(URI.create(ColdStart.class.getProtectionDomain().getCodeSource().getLocation().toString())).toString();
    assertTrue(List.of(cmd.get(cmd.size() - 2).split(File.pathSeparator)).stream().anyMatch(e -> Path.of(e).toString().equals(here)),
        "the class path of this JVM, with " + here + ": " + cmd.get(cmd.size() - 2));
  }
}
