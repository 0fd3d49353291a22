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
import dev.guard.testing.KafkaCluster;
import dev.guard.testing.MachineServices;
import dev.guard.testing.NoLeakedProcesses;
import dev.guard.testing.Patience;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Readiness on a real three-node KRaft cluster (each node broker and controller) where a node dies:
 * a topic whose only replica was on it has no leader, a topic replicated on it and one other node
 * has fewer in-sync replicas than its {@code min.insync.replicas}. The cluster's metadata still
 * answers and names a "controller" the whole time, which is what the probe used to call ready.
 */
@ExtendWith(NoLeakedProcesses.class)
class KafkaLeadersTest {

    @Test
    void aTopicWithoutALeaderOrWithoutEnoughInSyncReplicasHoldsTheGateUntilItsBrokerIsBack() throws Exception {
        String leaderless = MachineServices.uniqueName("guard-leaderless");
        String underReplicated = MachineServices.uniqueName("guard-under-isr");
        String tooFewReplicas = MachineServices.uniqueName("guard-rf1");
        try (KafkaCluster cluster = KafkaCluster.start(3, null)) {
            String bootstrap = cluster.bootstrapServers();
            try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
                admin.createTopics(List.of(
                        new NewTopic(leaderless, Map.of(0, List.of(3))).configs(Map.of("min.insync.replicas", "1")),
                        new NewTopic(tooFewReplicas, 1, (short) 1), // the cluster's min.insync.replicas is 2
                        new NewTopic(underReplicated, Map.of(0, List.of(2, 3))).configs(Map.of("min.insync.replicas", "2"))))
                        .all().get(Patience.WAIT.toSeconds(), TimeUnit.SECONDS);
            }
            Probe both = Probes.forUrl("kafka://" + bootstrap + "?topics=" + leaderless + "," + underReplicated);
            ProbeResult before = both.check(Patience.REPLY);
            assertEquals(ProbeState.READY, before.state(), before.toString());
            assertEquals("3 broker(s), topic(s) " + leaderless + "," + underReplicated
                    + " have leaders and their min.insync.replicas in sync", before.detail());
            both.close();
            Probe rf1 = Probes.forUrl("kafka://" + bootstrap + "?topics=" + tooFewReplicas);
            ProbeResult never = rf1.check(Patience.REPLY);
            rf1.close();
            assertEquals(ProbeState.CONFIG, never.state(), never.toString());
            assertTrue(never.detail().startsWith("topic '" + tooFewReplicas + "' partition 0 has 1 replica(s), fewer than"
                    + " its min.insync.replicas=2: every write with acks=all fails"), never.detail());

            cluster.broker(3).kill();
            // metadata still answers, from the two live nodes; once the controller fences node 3 (its
            // heartbeats stop: broker.session.timeout.ms, 9 s) the first topic has no leader, and the
            // second topic's ISR shrinks to node 2
            Probe leaderOnly = Probes.forUrl("kafka://" + bootstrap + "?topics=" + leaderless);
            Probe isrOnly = Probes.forUrl("kafka://" + bootstrap + "?topics=" + underReplicated);
            Probe isrAcksOne = Probes.forUrl("kafka://" + bootstrap + "?topics=" + underReplicated + "&acks=1");
            try {
                ProbeResult r = awaitState(leaderOnly, ProbeState.LOADING);
                // in sync: what the controller last recorded (3, or none where it empties the ISR, KIP-966)
                assertTrue(r.detail().startsWith("topic '" + leaderless + "' partition 0 has no leader (replicas on"
                        + " broker(s) 3, in sync: "), r.detail());
                assertTrue(r.detail().endsWith("): reads and writes to it fail until one of its replicas' brokers is back"),
                        r.detail());
                ProbeResult isr = awaitState(isrOnly, ProbeState.LOADING);
                assertEquals("topic '" + underReplicated + "' partition 0 has 1 in-sync replica(s) (broker(s) 2) of the"
                        + " min.insync.replicas=2 a producer with acks=all needs: its writes fail with NOT_ENOUGH_REPLICAS"
                        + " until a replica catches up (a worker that only consumes, or produces with acks=1: acks=1 in"
                        + " the target)", isr.detail());
                ProbeResult relaxed = isrAcksOne.check(Patience.REPLY);
                assertEquals(ProbeState.READY, relaxed.state(), relaxed.toString());

                // a gate started now waits, then opens when node 3 is back
                Recorder rec = new Recorder();
                CountDownLatch waits = rec.when(x -> x.state() == ProbeState.LOADING);
                try (ReadinessGate gate = ReadinessGate.builder()
                        .probe(Probes.forUrl("kafka://" + bootstrap + "?topics=" + leaderless + "," + underReplicated))
                        .deadline(Patience.PROCESS).attemptTimeout(Patience.REPLY).listener(rec).build()) {
                    CompletableFuture<ReadinessReport> waiting = CompletableFuture.supplyAsync(gate::await);
                    rec.await(waits, Patience.WAIT, "the gate reports the leaderless partition");
                    assertTrue(rec.first(bootstrap, ProbeState.LOADING).current().detail().contains("has no leader"),
                            rec.changes().toString());
                    assertTrue(!waiting.isDone(), "the gate still waits: " + rec.states(bootstrap));
                    cluster.broker(3).start();
                    ReadinessReport report = waiting.get(Patience.PROCESS.toSeconds(), TimeUnit.SECONDS);
                    assertTrue(report.ready(), report.render());
                    assertEquals(List.of(ProbeState.LOADING, ProbeState.READY), rec.states(bootstrap).subList(
                            rec.states(bootstrap).size() - 2, rec.states(bootstrap).size()), rec.changes().toString());
                }
            } finally {
                leaderOnly.close();
                isrOnly.close();
                isrAcksOne.close();
            }
        }
    }

    /** Checks until the probe reports {@code state} (the cluster's view settles within seconds), bounded. */
    private static ProbeResult awaitState(Probe probe, ProbeState state) throws InterruptedException {
        long until = System.nanoTime() + Patience.PROCESS.toNanos();
        ProbeResult last;
        do {
            last = probe.check(Patience.REPLY);
            if (last.state() == state) {
                return last;
            }
            Thread.sleep(200);
        } while (System.nanoTime() < until);
        throw new AssertionError("no " + state + " within " + Patience.PROCESS.toSeconds() + " s; last: " + last);
    }
}
