package dev.guard.examples.coldstart;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.guard.examples.stack.Demo;
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
    List<String> cmd = ProcessSpec.java(Demo.class).command();
    assertTrue(cmd.containsAll(ProcessSpec.FAST_START_FLAGS), cmd.toString());
    assertEquals("dev.guard.examples.stack.Demo", cmd.get(cmd.size() - 1));
    assertTrue(cmd.get(cmd.size() - 2).contains("examples"), "class path: " + cmd.get(cmd.size() - 2));
  }
}
