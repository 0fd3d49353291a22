package dev.guard.ready.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.guard.ready.Probe;
import dev.guard.ready.ProbeResult;
import dev.guard.ready.ProbeState;
import dev.guard.ready.Probes;
import dev.guard.ready.ReadinessGate;
import dev.guard.ready.ReadinessReport;
import dev.guard.ready.Recorder;
import dev.guard.testing.FreePorts;
import dev.guard.testing.KafkaBroker;
import dev.guard.testing.MachineServices;
import dev.guard.testing.NoLeakedProcesses;
import dev.guard.testing.Patience;
import dev.guard.testing.TcpProxy;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtendWith;

/** The Kafka probe against one real KRaft broker per class, started late by the first test. */
@ExtendWith(NoLeakedProcesses.class)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class KafkaProbeTest {

    private static KafkaBroker broker;

    @BeforeAll
    static void reservePort() {
        broker = KafkaBroker.builder().build();
    }

    @AfterAll
    static void stopBroker() {
        broker.close();
    }

    private static KafkaBroker running() {
        if (!broker.isRunning()) {
            broker.start();
        }
        return broker;
    }

    @Test
    @Order(1)
    void brokerStartedLateIsRefusedThenReady() throws Exception {
        Recorder rec = new Recorder();
        CountDownLatch refused = rec.when(r -> r.state() == ProbeState.REFUSED);
        try (ReadinessGate gate = ReadinessGate.builder().probe(Probes.kafka(broker.bootstrapServers()))
                .deadline(Patience.PROCESS).attemptTimeout(Duration.ofSeconds(2)).listener(rec).build()) {
            CompletableFuture<ReadinessReport> waiting = CompletableFuture.supplyAsync(gate::await);
            rec.await(refused, Patience.WAIT, "refused before the broker starts");
            running();
            ReadinessReport report = waiting.get(Patience.PROCESS.toSeconds(), TimeUnit.SECONDS);
            assertTrue(report.ready(), report.render());
            List<ProbeState> states = rec.states(broker.bootstrapServers());
            assertEquals(ProbeState.REFUSED, states.get(0), states.toString());
            assertEquals(ProbeState.READY, states.get(states.size() - 1), states.toString());
            assertEquals("1 broker(s)", report.results().get(0).detail());
        }
    }

    @Test
    @Order(2)
    void topicCreatedLateIsMissingThenReady() throws Exception {
        String bootstrap = running().bootstrapServers();
        String topic = MachineServices.uniqueName("guard-ready-topic");
        Recorder rec = new Recorder();
        CountDownLatch missing = rec.when(r -> r.state() == ProbeState.MISSING);
        Probe probe = Probes.forUrl("kafka://" + bootstrap + "?topics=" + topic + "&brokers=1");
        try (ReadinessGate gate = ReadinessGate.builder().probe(probe).deadline(Patience.WAIT)
                .attemptTimeout(Patience.REPLY).listener(rec).build();
             Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
            CompletableFuture<ReadinessReport> waiting = CompletableFuture.supplyAsync(gate::await);
            rec.await(missing, Patience.WAIT, "missing topic");
            assertEquals("topic(s) '" + topic + "' do not exist yet",
                    rec.first(bootstrap, ProbeState.MISSING).current().detail());
            admin.createTopics(List.of(new NewTopic(topic, 2, (short) 1))).all().get(Patience.REPLY.toSeconds(), TimeUnit.SECONDS);
            ReadinessReport report = waiting.get(Patience.WAIT.toSeconds(), TimeUnit.SECONDS);
            assertTrue(report.ready(), report.render());
            List<ProbeState> states = rec.states(bootstrap);
            assertEquals(ProbeState.MISSING, states.get(0), states.toString());
            assertEquals(ProbeState.READY, states.get(states.size() - 1), states.toString());
            assertEquals("1 broker(s), topic(s) " + topic + " have leaders and their min.insync.replicas in sync",
                    report.results().get(0).detail());
        }
    }

    @Test
    @Order(3)
    void aGroupIsReadyWhenItsCoordinatorAnswersAndAcksOneSkipsTheInSyncCount() throws Exception {
        String bootstrap = running().bootstrapServers();
        String topic = MachineServices.uniqueName("guard-ready-group");
        String group = MachineServices.uniqueName("guard-ready-workers");
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
            admin.createTopics(List.of(new NewTopic(topic, 1, (short) 1))).all().get(Patience.REPLY.toSeconds(), TimeUnit.SECONDS);
        }
        Probe probe = Probes.forUrl("kafka://" + bootstrap + "?topics=" + topic + "&group=" + group + "&acks=1");
        try (ReadinessGate gate = ReadinessGate.builder().probe(probe).deadline(Patience.WAIT)
                .attemptTimeout(Patience.REPLY).build()) {
            ReadinessReport report = gate.await();
            assertTrue(report.ready(), report.render());
            assertEquals("1 broker(s), topic(s) " + topic + " have leaders (in-sync replicas not checked: acks=1), group '"
                    + group + "' coordinator answers (no such group yet)", report.results().get(0).detail());
        }
    }

    /**
     * A single broker with {@code offsets.topic.replication.factor=3} (a production setting copied into
     * a one-broker cluster) never creates __consumer_offsets: no group ever has a coordinator, and a
     * consumer retries FindCoordinator forever without an error. The gate names it and waits.
     */
    @Test
    @Order(4)
    void aGroupWithoutACoordinatorIsNotReadyAndSaysWhy() throws Exception {
        try (KafkaBroker misconfigured = KafkaBroker.builder().setting("offsets.topic.replication.factor", "3").build()) {
            misconfigured.start();
            String bootstrap = misconfigured.bootstrapServers();
            try (ReadinessGate gate = ReadinessGate.builder().probe(Probes.forUrl("kafka://" + bootstrap + "?group=workers"))
                    .deadline(Duration.ofSeconds(8)).attemptTimeout(Duration.ofSeconds(3)).build()) {
                ReadinessReport report = gate.await();
                assertEquals(ReadinessReport.Outcome.DEADLINE, report.outcome(), report.render());
                ProbeResult r = report.results().get(0);
                assertEquals(ProbeState.LOADING, r.state(), r.toString());
                assertTrue(r.detail().startsWith("no coordinator answers for group 'workers' yet"), r.detail());
                assertTrue(r.detail().contains("offsets.topic.replication.factor is larger than the number of brokers"),
                        r.detail());
            }
            // without the group, the same broker is ready: it is the coordinator that is missing
            Probe withoutGroup = Probes.kafka(bootstrap);
            try {
                ProbeResult plain = withoutGroup.check(Patience.REPLY);
                assertEquals(ProbeState.READY, plain.state(), plain.toString());
            } finally {
                withoutGroup.close();
            }
        }
    }

    @Test
    @Order(5)
    void tooFewBrokersUntilTheDeadlineSaysHowManyWereFound() {
        String bootstrap = running().bootstrapServers();
        // the attempt timeout is the whole deadline: on a busy machine no attempt may end as a TIMEOUT
        // before the broker has answered with its one broker (an attempt cut short by the deadline
        // keeps the last full attempt's state)
        try (ReadinessGate gate = ReadinessGate.builder().probe(Probes.kafkaBuilder(bootstrap).minBrokers(3).build())
                .deadline(Duration.ofSeconds(10)).attemptTimeout(Duration.ofSeconds(10)).build()) {
            ReadinessReport report = gate.await();
            assertEquals(ReadinessReport.Outcome.DEADLINE, report.outcome(), report.render());
            ProbeResult r = report.results().get(0);
            assertEquals(ProbeState.LOADING, r.state(), r.toString());
            assertEquals("1 of the required 3 broker(s) registered", r.detail());
            assertTrue(report.render().contains("FAIL kafka " + bootstrap + ": loading (1 of the required 3 broker(s) registered)"),
                    report.render());
        }
    }

    @Test
    @Order(6)
    void closedPortIsRefusedUnknownHostIsDnsBlackHoleIsTimeout() {
        ProbeResult closed = Probes.kafka("127.0.0.1:" + FreePorts.next()).check(Patience.REPLY);
        assertEquals(ProbeState.REFUSED, closed.state(), closed.toString());
        ProbeResult dns = Probes.kafka("no-such-host.invalid:9092").check(Patience.REPLY);
        assertEquals(ProbeState.DNS, dns.state(), dns.toString());
        try (TcpProxy proxy = TcpProxy.forward("127.0.0.1", running().port())) {
            proxy.mode(TcpProxy.Mode.BLACKHOLE);
            Probe probe = Probes.kafka("127.0.0.1:" + proxy.port());
            try {
                ProbeResult r = probe.check(Duration.ofMillis(800));
                assertEquals(ProbeState.TIMEOUT, r.state(), r.toString());
                assertTrue(r.detail().startsWith("port open, but no cluster metadata within"), r.detail());
            } finally {
                probe.close();
            }
        }
    }
}
