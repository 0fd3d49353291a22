package dev.guard.examples.coldstart;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.guard.examples.stack.Backend;
import dev.guard.examples.stack.Demo;
import dev.guard.testing.NoLeakedProcesses;
import dev.guard.testing.coldstart.JobBroker;
import dev.guard.testing.coldstart.ColdStart;
import dev.guard.testing.coldstart.ColdStartListener;
import dev.guard.testing.coldstart.ColdStartReport;
import dev.guard.testing.coldstart.Component;
import dev.guard.testing.coldstart.ProcessSpec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The same harness and worker with the jobs going through Kafka: a private KRaft broker (a JVM from
 * the Maven Central jars on the test class path) that really starts in its turn of the order and
 * takes seconds to, guard's KafkaQueue (offsets committed after the outcome), dead letters produced
 * to {@code <topic>.dead} and read back from the topic by the reconciliation. Two runs: a broker
 * start costs 5 to 20 s on 2 busy cores.
 */
@ExtendWith(NoLeakedProcesses.class)
class ColdStartKafkaTest {

  @Test
  void twoColdStartsThroughKafkaEveryJobReconciled() {
    ColdStartReport report = ColdStart.builder()
        .worker(Demo.guardedWorker())
        .backend(ProcessSpec.java(Backend.class))
        .broker(JobBroker.KAFKA)
        .localServices()
        // a broker JVM booting beside the worker's on 2 busy cores: 26 s cold starts were seen here
        .runTimeout(java.time.Duration.ofSeconds(180))
        .listener(ColdStartListener.printing(System.out))
        .build()
        .run(2);
    report.assertAllPassed();
    assertEquals("reconciled: runs=2 received=200 processed=194 rejected=6 failed=0 missing=0", report.reconciledLine());
    assertTrue(report.runs().stream().allMatch(r -> r.order().contains(Component.BROKER)), report.render());
  }
}
