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
  void aWorkerAndABackendAreRequired() {
    IllegalStateException e = assertThrows(IllegalStateException.class, () -> ColdStart.builder().build());
    assertEquals("ColdStart needs worker(ProcessSpec) and backend(ProcessSpec): the harness starts them as processes",
        e.getMessage());
  }

  @Test
  void aFixedOrderMustNameEveryComponentOnce() {
    ColdStart.Builder b = ColdStart.builder().worker(ProcessSpec.java("W")).backend(ProcessSpec.java("B"))
        .broker(Broker.AMQP).order(Component.WORKER, Component.REDIS, Component.BACKEND);
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
    List<String> cmd = ProcessSpec.java(ColdStart.class).command();
    assertTrue(cmd.containsAll(ProcessSpec.FAST_START_FLAGS), cmd.toString());
    assertEquals("dev.guard.testing.coldstart.ColdStart", cmd.get(cmd.size() - 1));
    String here = Path.of(URI.create(ColdStart.class.getProtectionDomain().getCodeSource().getLocation().toString())).toString();
    assertTrue(List.of(cmd.get(cmd.size() - 2).split(File.pathSeparator)).stream().anyMatch(e -> Path.of(e).toString().equals(here)),
        "the class path of this JVM, with " + here + ": " + cmd.get(cmd.size() - 2));
  }
}
