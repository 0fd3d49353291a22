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
 * The same harness and worker with the jobs going through NATS JetStream: a private nats-server
 * that really starts in its turn of the order (refused before), guard's NatsQueue (explicit ack
 * after the outcome), dead letters published to {@code <subject>.dead} and read back from the
 * stream by the reconciliation.
 */
@ExtendWith(NoLeakedProcesses.class)
class ColdStartJetStreamTest {

  @Test
  void threeColdStartsThroughJetStreamEveryJobReconciled() {
    ColdStartReport report = ColdStart.builder()
        .worker(Demo.guardedWorker())
        .backend(ProcessSpec.java(Backend.class))
        .broker(JobBroker.JETSTREAM)
        .localServices()
        .listener(ColdStartListener.printing(System.out))
        .build()
        .run(3);
    report.assertAllPassed();
    assertEquals("reconciled: runs=3 received=300 processed=291 rejected=9 failed=0 missing=0", report.reconciledLine());
    assertTrue(report.runs().stream().allMatch(r -> r.order().contains(Component.BROKER)), report.render());
  }
}
