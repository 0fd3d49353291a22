package dev.guard.examples.coldstart;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.guard.examples.stack.Backend;
import dev.guard.examples.stack.Demo;
import dev.guard.testing.NoLeakedProcesses;
import dev.guard.testing.coldstart.JobBroker;
import dev.guard.testing.coldstart.ColdStart;
import dev.guard.testing.coldstart.ColdStartReport;
import dev.guard.testing.coldstart.Component;
import dev.guard.testing.coldstart.ProcessSpec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The broker does not matter: the same harness and worker with the jobs going through a RabbitMQ
 * queue (manual ack, AMQP dead-letter queue), the broker refused until its turn in the order.
 */
@ExtendWith(NoLeakedProcesses.class)
class ColdStartAmqpTest {

  @Test
  void threeColdStartsThroughRabbitMqEveryJobReconciled() {
    ColdStartReport report = ColdStart.builder()
        .worker(Demo.guardedWorker())
        .backend(ProcessSpec.java(Backend.class))
        .broker(JobBroker.AMQP)
        .localServices()
        .build()
        .run(3);
    System.out.println(report.render());
    report.assertAllPassed();
    assertEquals("reconciled: runs=3 received=300 processed=291 rejected=9 failed=0 missing=0", report.reconciledLine());
    assertTrue(report.runs().stream().allMatch(r -> r.order().contains(Component.BROKER)), report.render());
  }
}
