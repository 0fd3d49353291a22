package dev.guard.ready.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.guard.ExitCodes;
import dev.guard.ready.Probe;
import dev.guard.ready.ProbeResult;
import dev.guard.ready.ProbeState;
import dev.guard.ready.Probes;
import dev.guard.ready.ReadinessGate;
import dev.guard.ready.ReadinessReport;
import dev.guard.ready.Recorder;
import dev.guard.ready.Warm;
import dev.guard.testing.LocalAddress;
import dev.guard.testing.MachineServices;
import dev.guard.testing.Patience;
import dev.guard.testing.RedisClusterSet;
import dev.guard.testing.RedisServer;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The Cluster target against a real cluster (three masters with a replica each, made by
 * {@code redis-cli --cluster create} from the installed redis-server): ready with every node listed,
 * the loopback announce trap, a replica still loading, a master killed and failed over, a master
 * and its replica down ({@code cluster_state:fail}), a seed without cluster mode.
 */
class RedisClusterProbeTest {

    @BeforeAll
    static void warmUp() {
        Warm.clients();
    }

    @Test
    void readyListsEveryNodeWithItsRoleAndSlots() {
        try (RedisClusterSet cluster = RedisClusterSet.builder().build().start();
             Probe probe = Probes.forUrl(cluster.uri())) {
            assertEquals("redis-cluster", probe.kind());
            ProbeResult r = probe.check(Patience.REPLY);
            assertEquals(ProbeState.READY, r.state(), r.toString());
            assertTrue(r.detail().startsWith("cluster_state:ok, 16384 of 16384 slots ok (16384 assigned, 0 pfail, 0 fail),"
                    + " 3 masters, 6 nodes"), r.detail());
            assertEquals(6, r.nodes().size(), r.nodes().toString());
            assertEquals(3, r.nodes().stream().filter(n -> n.role().equals("master") && n.detail().startsWith("slots ")).count());
            assertEquals(3, r.nodes().stream().filter(n -> n.role().equals("replica") && n.detail().startsWith("replica of 127.0.0.1:")).count());
            assertTrue(r.nodes().stream().anyMatch(n -> n.detail().equals("slots 0-5460")), r.nodes().toString());
            assertTrue(r.nodes().stream().allMatch(n -> n.state() == ProbeState.READY), r.nodes().toString());
            // a key: EXISTS on the master of its slot, wherever that is
            RedisServer any = cluster.masters().get(0);
            try (Probe keyed = Probes.forUrl(cluster.uri() + "&key=jobs")) {
                ProbeResult missing = keyed.check(Patience.REPLY);
                assertEquals(ProbeState.MISSING, missing.state(), missing.toString());
                String slot = any.command("CLUSTER", "KEYSLOT", "jobs").substring(1);
                assertTrue(missing.detail().startsWith("key 'jobs' (slot " + slot + ", master 127.0.0.1:"), missing.detail());
                String owner = missing.detail().replaceAll(".*master 127\\.0\\.0\\.1:(\\d+)\\).*", "$1");
                RedisServer master = cluster.nodes().stream().filter(n -> n.port() == Integer.parseInt(owner)).findFirst()
                        .orElseThrow();
                assertEquals(":1", master.command("RPUSH", "jobs", "x"));
                assertEquals(ProbeState.READY, keyed.check(Patience.REPLY).state());
            }
            assertTrue(any.isRunning());
        }
    }

    @Test
    void nodesAnnouncedAtLoopbackToAClientThatCameInByAnotherAddressAreTheTrap() {
        String outside = LocalAddress.nonLoopback();
        try (RedisClusterSet cluster = RedisClusterSet.builder().alsoBind(outside).build().start()) {
            try (ReadinessGate gate = ReadinessGate.builder().probe(Probes.forUrl(cluster.uri(outside)))
                    .deadline(Patience.WAIT).attemptTimeout(Patience.REPLY).build()) {
                ReadinessReport report = gate.await();
                assertEquals(ReadinessReport.Outcome.NOT_RETRYABLE, report.outcome(), report.render());
                assertEquals(ExitCodes.CONFIG, report.exitCode());
                ProbeResult r = report.results().get(0);
                assertEquals(ProbeState.ANNOUNCED, r.state(), r.toString());
                assertTrue(r.detail().contains("announces its nodes at 127.0.0.1:"), r.detail());
                assertTrue(r.detail().contains("cluster-announce-ip"), r.detail());
                assertEquals(6, r.nodes().stream().filter(n -> n.state() == ProbeState.ANNOUNCED).count(), r.nodes().toString());
            }
            try (Probe probe = Probes.forUrl(cluster.uri())) {
                assertEquals(ProbeState.READY, probe.check(Patience.REPLY).state(), "the same cluster by loopback");
            }
        }
        // announcing the outside address is the cure
        try (RedisClusterSet cluster = RedisClusterSet.builder().announceIp(outside).build().start();
             Probe probe = Probes.forUrl(cluster.uri(outside))) {
            ProbeResult r = probe.check(Patience.REPLY);
            assertEquals(ProbeState.READY, r.state(), r.toString());
            assertTrue(r.nodes().stream().allMatch(n -> n.address().startsWith(outside + ":")), r.nodes().toString());
        }
    }

    @Test
    void aReplicaStillLoadingHoldsTheGateUntilItHasLoaded() throws Exception {
        try (RedisClusterSet cluster = RedisClusterSet.builder().build().start()) {
            RedisServer replica = cluster.replicas().get(0);
            replica.kill();
            replica.startLoading();
            Recorder rec = new Recorder();
            try (ReadinessGate gate = ReadinessGate.builder().probe(Probes.forUrl(cluster.uri()))
                    .deadline(Patience.WAIT).attemptTimeout(Duration.ofSeconds(5)).listener(rec).build()) {
                CompletableFuture<ReadinessReport> waiting = CompletableFuture.supplyAsync(gate::await);
                rec.await(rec.when(r -> r.state() == ProbeState.LOADING), Patience.WAIT, "the loading replica seen");
                ProbeResult loading = rec.first(target(cluster), ProbeState.LOADING).current();
                assertTrue(loading.detail().startsWith("node 127.0.0.1:" + replica.port() + " (replica of 127.0.0.1:"), loading.detail());
                assertTrue(loading.detail().contains("is loading its dataset"), loading.detail());
                assertTrue(loading.nodes().stream().anyMatch(n -> n.address().endsWith(":" + replica.port())
                        && n.state() == ProbeState.LOADING), loading.nodes().toString());
                assertTrue(replica.isLoading(), "still held: " + replica.ping());
                replica.finishLoading();
                ReadinessReport report = waiting.get(Patience.WAIT.toSeconds(), TimeUnit.SECONDS);
                assertTrue(report.ready(), report.render());
                assertEquals(ProbeState.READY, report.results().get(0).state());
            }
        }
    }

    @Test
    void aKilledMasterIsFailedOverAndTheGateWaitsItOut() throws Exception {
        try (RedisClusterSet cluster = RedisClusterSet.builder().build().start()) {
            RedisServer master = cluster.masters().stream().filter(m -> m.port() != cluster.nodes().get(0).port())
                    .findFirst().orElseThrow();
            RedisServer replica = cluster.replicaOf(master).orElseThrow();
            Recorder rec = new Recorder();
            master.kill();
            Instant killed = Instant.now();
            try (ReadinessGate gate = ReadinessGate.builder().probe(Probes.forUrl(cluster.uri()))
                    .deadline(Patience.WAIT).attemptTimeout(Duration.ofSeconds(5)).stableFor(Duration.ofMillis(500))
                    .listener(rec).build()) {
                ReadinessReport report = gate.await();
                Duration toReady = Duration.between(killed, Instant.now());
                assertTrue(report.ready(), report.render());
                List<ProbeState> states = rec.states(target(cluster));
                assertFalse(states.get(0) == ProbeState.READY, "a dead master with slots is never ready: " + states);
                ProbeResult last = report.results().get(0);
                try (Probe after = Probes.forUrl(cluster.uri())) {
                    String readyDetail = after.check(Patience.REPLY).detail();
                    assertTrue(readyDetail.contains("1 node(s) marked fail by the cluster"), readyDetail);
                }
                assertTrue(last.nodes().stream().anyMatch(n -> n.address().endsWith(":" + master.port())
                        && n.detail().contains("marked fail by the cluster")), last.nodes().toString());
                assertTrue(last.nodes().stream().anyMatch(n -> n.address().endsWith(":" + replica.port())
                        && n.role().equals("master")), "the replica took over: " + last.nodes());
                System.out.println("[failover] cluster: master killed to gate ready " + toReady.toMillis() + " ms, states "
                        + states + "\n" + report.render());
            }
        }
    }

    @Test
    void aMasterAndItsReplicaDownIsClusterStateFailNamingTheSlotsThenReadyWhenTheMasterReturns() throws Exception {
        try (RedisClusterSet cluster = RedisClusterSet.builder().build().start();
             Probe probe = Probes.forUrl(cluster.uri())) {
            RedisServer master = cluster.masters().stream().filter(m -> m.port() != cluster.nodes().get(0).port())
                    .findFirst().orElseThrow();
            RedisServer replica = cluster.replicaOf(master).orElseThrow();
            replica.kill();
            master.kill();
            // first the slots are pfail (one node's suspicion), then the cluster agrees: cluster_state:fail
            ProbeResult down = until(probe, r -> r.state() == ProbeState.TOPOLOGY && r.detail().startsWith("cluster_state:fail"));
            assertTrue(down.detail().startsWith("cluster_state:fail"), down.detail());
            assertTrue(down.detail().contains("no live master for 127.0.0.1:" + master.port() + " (slots "), down.detail());
            assertTrue(down.detail().contains("CLUSTERDOWN"), down.detail());
            master.start();
            ProbeResult back = until(probe, r -> r.state() != ProbeState.TOPOLOGY);
            // the replica is still down: the cluster serves every slot again, but a dead replica it has not marked
            // fail yet is unreachable; either way the gate ends ready once the cluster marks it
            ProbeResult ready = until(probe, r -> r.state() == ProbeState.READY);
            assertTrue(ready.detail().startsWith("cluster_state:ok"), ready.detail() + " (before: " + back + ")");
        }
    }

    @Test
    void aDeadSeedIsASinglePointOfFailureUntilTheProbeHasLearnedTheOtherNodes() {
        try (RedisClusterSet cluster = RedisClusterSet.builder().build().start()) {
            RedisServer seed = cluster.nodes().get(0);
            try (Probe learning = Probes.forUrl(cluster.uri())) {
                assertEquals(ProbeState.READY, learning.check(Patience.REPLY).state());
                seed.kill();
                ProbeResult r = learning.check(Patience.REPLY);
                assertFalse(r.detail().startsWith("no seed node answered"), "asked the nodes it learned: " + r);
                assertTrue(r.nodes().stream().anyMatch(n -> n.address().endsWith(":" + seed.port())
                        && n.state() != ProbeState.READY), r.nodes().toString());
            }
            try (Probe fresh = Probes.forUrl(cluster.uri())) {
                ProbeResult r = fresh.check(Patience.REPLY);
                assertEquals(ProbeState.REFUSED, r.state(), r.toString());
                assertTrue(r.detail().contains("single point of failure"), r.detail());
            }
        }
    }

    @Test
    void aSeedWithoutClusterModeIsAConfigErrorAndAMissingSeedIsRefused() {
        ProbeResult r = Probes.forUrl(MachineServices.redisUri() + "?cluster=true").check(Patience.REPLY);
        assertEquals(ProbeState.CONFIG, r.state(), r.toString());
        assertTrue(r.detail().contains("runs without cluster mode"), r.detail());
        ProbeResult bad = Probes.forUrl("redis://h:7000?cluster=maybe").check(Duration.ofSeconds(1));
        assertEquals(ProbeState.CONFIG, bad.state());
        assertTrue(bad.detail().contains("cluster=maybe is neither true nor false"), bad.detail());
        ProbeResult db = Probes.forUrl("redis://:pw@h:7000/3?cluster=true").check(Duration.ofSeconds(1));
        assertEquals(ProbeState.CONFIG, db.state());
        assertTrue(db.detail().contains("a cluster has only database 0"), db.detail());
        assertFalse(db.detail().contains(":pw@"), db.detail());
    }

    private static String target(RedisClusterSet cluster) {
        return "127.0.0.1:" + cluster.nodes().get(0).port();
    }

    /** Checks until {@code done} holds (at most {@link Patience#WAIT}); returns that result. */
    private static ProbeResult until(Probe probe, Predicate<ProbeResult> done) {
        long deadline = System.nanoTime() + Patience.WAIT.toNanos();
        ProbeResult last = null;
        while (System.nanoTime() < deadline) {
            last = probe.check(Duration.ofSeconds(5));
            if (done.test(last)) {
                return last;
            }
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        throw new AssertionError("not reached within " + Patience.WAIT.toSeconds() + " s; last: " + last);
    }
}
