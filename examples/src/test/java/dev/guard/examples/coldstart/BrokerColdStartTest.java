package dev.guard.examples.coldstart;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.guard.examples.stack.Backend;
import dev.guard.examples.stack.Demo;
import dev.guard.testing.NoLeakedProcesses;
import dev.guard.testing.coldstart.ColdStart;
import dev.guard.testing.coldstart.ColdStartListener;
import dev.guard.testing.coldstart.ColdStartReport;
import dev.guard.testing.coldstart.Component;
import dev.guard.testing.coldstart.JobBroker;
import dev.guard.testing.coldstart.ProcessSpec;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.EnumSource.Mode;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The broker does not matter: the same harness and guarded worker with the jobs going through
 * RabbitMQ (manual ack, an AMQP dead-letter queue), NATS JetStream (a private nats-server; explicit
 * ack after the outcome, dead letters published to {@code <subject>.dead} and read back from the
 * stream) or Kafka (a private KRaft broker, a JVM from the Maven Central jars on the test class
 * path; offsets committed after the outcome, dead letters produced to {@code <topic>.dead} and read
 * back from the topic). Each broker is refused until its turn in the order, and really starts then.
 *
 * <p>The default run starts each stack once, the worker first and its broker after it (the race);
 * the proof profile ({@code -Pproof}) starts each three times in a row in random orders.
 */
@ExtendWith(NoLeakedProcesses.class)
class BrokerColdStartTest {
  static final List<Component> RACE = List.of(Component.WORKER, Component.BROKER, Component.REDIS, Component.BACKEND);

  @ParameterizedTest
  @EnumSource(value = JobBroker.class, mode = Mode.EXCLUDE, names = "REDIS_LIST")
  void theWorkerStartedBeforeTheBrokerReconcilesEveryJob(JobBroker broker) {
    ColdStartReport report = stack(broker).order(RACE.toArray(Component[]::new)).build().run(1);
    report.assertAllPassed();
    assertEquals("reconciled: runs=1 received=100 processed=97 rejected=3 failed=0 missing=0", report.reconciledLine());
    assertEquals(RACE, report.runs().get(0).order(), report.render());
  }

  @Tag("proof")
  @ParameterizedTest
  @EnumSource(value = JobBroker.class, mode = Mode.EXCLUDE, names = "REDIS_LIST")
  void threeColdStartsInRandomOrdersEveryJobReconciled(JobBroker broker) {
    ColdStartReport report = stack(broker).build().run(3);
    report.assertAllPassed();
    assertEquals("reconciled: runs=3 received=300 processed=291 rejected=9 failed=0 missing=0", report.reconciledLine());
    assertTrue(report.runs().stream().allMatch(r -> r.order().contains(Component.BROKER)), report.render());
  }

  private static ColdStart.Builder stack(JobBroker broker) {
    return ColdStart.builder()
        .worker(Demo.guardedWorker())
        .backend(ProcessSpec.java(Backend.class))
        .broker(broker)
        .localServices()
        // a Kafka broker JVM booting beside the worker's on 2 busy cores: 26 s cold starts were seen here
        .runTimeout(Duration.ofSeconds(180))
        // a run that passes ends at its last outcome, so this costs only a failing run: a Kafka
        // worker says nothing between "ready" and its first job while its consumer joins the group
        // (the offsets topic is created by the first join), seconds on 2 busy cores
        .quietPeriod(Duration.ofSeconds(15))
        .listener(ColdStartListener.printing(System.out));
  }
}
