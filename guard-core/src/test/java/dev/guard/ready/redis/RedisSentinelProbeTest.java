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
import dev.guard.testing.FreePorts;
import dev.guard.testing.LocalAddress;
import dev.guard.testing.Patience;
import dev.guard.testing.RedisSentinelSet;
import dev.guard.testing.RedisServer;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The Sentinel target against real sentinels (three {@code redis-server --sentinel}, a master and a
 * replica from the installed redis-server): agreement, a real failover waited out, the loopback
 * announce trap before and after a failover, an unknown master name, sentinels that are down.
 */
class RedisSentinelProbeTest {

    @BeforeAll
    static void warmUp() {
        Warm.clients();
    }

    @Test
    void readyWhenTheSentinelsAgreeAndTheMasterAnswersAsMaster() {
        try (RedisSentinelSet set = RedisSentinelSet.builder().build().start();
             Probe probe = Probes.forUrl(set.uri())) {
            assertEquals("redis-sentinel", probe.kind());
            ProbeResult r = probe.check(Patience.REPLY);
            assertEquals(ProbeState.READY, r.state(), r.toString());
            String master = "127.0.0.1:" + set.master().port();
            assertEquals("master 'mymaster' at " + master + " (3 of 3 sentinels agree), PONG, role master", r.detail());
            assertEquals(4, r.nodes().size(), r.nodes().toString());
            assertEquals(List.of("sentinel", "sentinel", "sentinel", "master"), r.nodes().stream().map(ProbeResult.Node::role).toList());
            assertTrue(r.nodes().stream().allMatch(n -> n.state() == ProbeState.READY), r.nodes().toString());
            assertEquals(master, r.nodes().get(3).address());
            // a second attempt reuses the connections and says the same
            assertEquals(ProbeState.READY, probe.check(Patience.REPLY).state());
        }
    }

    @Test
    void aMasterLoadingUnderSentinelIsLoadingNamingItAndSentinelDoesNotFailItOver() throws Exception {
        try (RedisSentinelSet set = RedisSentinelSet.builder().masterArgs("--enable-debug-command", "yes").build().start();
             Probe probe = Probes.forUrl(set.uri())) {
            RedisServer master = set.master();
            assertTrue(master.command("DEBUG", "POPULATE", "100000", "guard:preload", "16").contains("OK"), "populate");
            master.command("CONFIG", "SET", "loading-process-events-interval-bytes", "1024");
            master.command("CONFIG", "SET", "key-load-delay", "50");
            // DEBUG RELOAD saves and loads the dataset again in place: the server stays up and answers -LOADING,
            // which Sentinel takes as a live master (no +sdown): the state a restarted master is in, without the restart
            CompletableFuture<String> reload = CompletableFuture.supplyAsync(() -> master.command("DEBUG", "RELOAD"));
            long until = System.nanoTime() + Patience.PROCESS.toNanos();
            while (!master.isLoading() && System.nanoTime() < until) {
                Thread.sleep(10);
            }
            assertTrue(master.isLoading(), "DEBUG RELOAD never made the master answer -LOADING: " + master.ping());
            ProbeResult r = probe.check(Patience.REPLY);
            String at = "127.0.0.1:" + master.port();
            assertEquals(ProbeState.LOADING, r.state(), r.toString());
            assertTrue(r.detail().contains(at), "names the master the sentinels announce: " + r.detail());
            assertTrue(r.nodes().stream().anyMatch(n -> n.role().equals("master") && n.address().equals(at)
                    && n.state() == ProbeState.LOADING), r.nodes().toString());
            assertTrue(set.masterAddressSeenBy(0).endsWith("\n" + master.port()), "no failover: " + set.masterAddressSeenBy(0));
            master.finishLoading();
            try (ReadinessGate gate = ReadinessGate.builder().probe(Probes.forUrl(set.uri()))
                    .deadline(Patience.WAIT).attemptTimeout(Duration.ofSeconds(5)).build()) {
                ReadinessReport report = gate.await();
                assertTrue(report.ready(), report.render());
                assertTrue(report.results().get(0).detail().contains("at " + at), "the same master, loaded: "
                        + report.results().get(0).detail());
            }
            reload.get(Patience.WAIT.toSeconds(), TimeUnit.SECONDS);
        }
    }

    @Test
    void gateWaitsOutAFailoverAndReportsTheNewMaster() throws Exception {
        try (RedisSentinelSet set = RedisSentinelSet.builder().build().start()) {
            Recorder rec = new Recorder();
            String target = set.uri().substring("redis-sentinel://".length());
            set.master().kill();
            Instant killed = Instant.now();
            try (ReadinessGate gate = ReadinessGate.builder().probe(Probes.forUrl(set.uri()))
                    .deadline(Patience.WAIT).attemptTimeout(Duration.ofSeconds(5)).listener(rec).build()) {
                ReadinessReport report = gate.await();
                Duration toReady = Duration.between(killed, Instant.now());
                assertTrue(report.ready(), report.render());
                List<ProbeState> states = rec.states(target);
                assertEquals(ProbeState.READY, states.get(states.size() - 1), states.toString());
                assertFalse(states.get(0) == ProbeState.READY, "the dead master is never called ready: " + states);
                ProbeResult last = report.results().get(0);
                assertTrue(last.detail().contains("at 127.0.0.1:" + set.replica().port()), last.detail());
                System.out.println("[failover] sentinel: master killed to gate ready " + toReady.toMillis() + " ms, states "
                        + states + "\n" + report.render());
            }
        }
    }

    @Test
    void loopbackAnnouncedToAClientThatCameInByAnotherAddressIsTheTrapAndNotRetried() {
        String outside = LocalAddress.nonLoopback();
        try (RedisSentinelSet set = RedisSentinelSet.builder().alsoBind(outside).build().start()) {
            try (Probe probe = Probes.forUrl(set.uri(outside))) {
                ProbeResult r = probe.check(Patience.REPLY);
                assertEquals(ProbeState.ANNOUNCED, r.state(), r.toString());
                assertTrue(r.detail().contains("announce master 'mymaster' at 127.0.0.1:" + set.master().port()
                        + ", a loopback address"), r.detail());
                assertTrue(r.detail().contains("sentinel monitor mymaster <address>"), r.detail());
                assertFalse(ProbeState.ANNOUNCED.retryable());
            }
            try (ReadinessGate gate = ReadinessGate.builder().probe(Probes.forUrl(set.uri(outside)))
                    .deadline(Patience.WAIT).attemptTimeout(Patience.REPLY).build()) {
                ReadinessReport report = gate.await();
                assertEquals(ReadinessReport.Outcome.NOT_RETRYABLE, report.outcome(), report.render());
                assertEquals(ExitCodes.CONFIG, report.exitCode());
                assertTrue(report.render().contains("node master 127.0.0.1:" + set.master().port() + " announced"),
                        report.render());
                assertTrue(report.toJson().contains("\"role\" : \"master\""), report.toJson());
            }
            // the same sentinels reached by loopback: the announced loopback master is this host's, and right
            try (Probe probe = Probes.forUrl(set.uri())) {
                assertEquals(ProbeState.READY, probe.check(Patience.REPLY).state());
            }
        }
    }

    @Test
    void aReplicaThatAnnouncesLoopbackBecomesTheTrapAfterTheFailover() {
        String outside = LocalAddress.nonLoopback();
        try (RedisSentinelSet set = RedisSentinelSet.builder().monitorAt(outside).replicaAnnounceIp("127.0.0.1").build()
                .start();
             Probe probe = Probes.forUrl(set.uri(outside))) {
            ProbeResult before = probe.check(Patience.REPLY);
            assertEquals(ProbeState.READY, before.state(), before.toString());
            assertTrue(before.detail().contains("at " + outside + ":" + set.master().port()), before.detail());
            set.master().kill();
            set.awaitMasterPort(set.replica().port(), Patience.WAIT);
            ProbeResult after = probe.check(Patience.REPLY);
            assertEquals(ProbeState.ANNOUNCED, after.state(), after.toString());
            assertTrue(after.detail().contains("at 127.0.0.1:" + set.replica().port() + ", a loopback address"), after.detail());
            assertTrue(after.detail().contains("replica-announce-ip"), after.detail());
        }
    }

    @Test
    void anUnknownMasterNameIsMissingAndNamesTheSentinelsConfig() {
        try (RedisSentinelSet set = RedisSentinelSet.builder().build().start();
             Probe probe = Probes.forUrl(set.uri().replace("#mymaster", "#primary"))) {
            ProbeResult r = probe.check(Patience.REPLY);
            assertEquals(ProbeState.MISSING, r.state(), r.toString());
            assertTrue(r.detail().contains("monitor no master named 'primary'"), r.detail());
            assertTrue(r.detail().contains("sentinel monitor <name>"), r.detail());
        }
    }

    @Test
    void sentinelsThatAreDownAreRefusedAndOneAnsweringSentinelIsEnough() {
        try (RedisSentinelSet set = RedisSentinelSet.builder().build().start();
             Probe probe = Probes.forUrl(set.uri())) {
            set.killSentinel(0);
            set.killSentinel(1);
            ProbeResult one = probe.check(Patience.REPLY);
            assertEquals(ProbeState.READY, one.state(), one.toString());
            assertTrue(one.detail().contains("(1 of 3 sentinels agree)"), one.detail());
            assertEquals(List.of(ProbeState.REFUSED, ProbeState.REFUSED, ProbeState.READY, ProbeState.READY),
                    one.nodes().stream().map(ProbeResult.Node::state).toList());
            set.killSentinel(2);
            ProbeResult none = probe.check(Patience.REPLY);
            assertEquals(ProbeState.REFUSED, none.state(), none.toString());
            assertTrue(none.detail().startsWith("none of the 3 sentinels answered: "), none.detail());
        }
        int closed = FreePorts.next();
        try (Probe probe = Probes.forUrl("redis-sentinel://127.0.0.1:" + closed + "#mymaster")) {
            assertEquals(ProbeState.REFUSED, probe.check(Patience.REPLY).state());
        }
    }

    @Test
    void malformedSentinelUrlsAreConfigErrorsThatNameTheForm() {
        ProbeResult noName = Probes.forUrl("redis-sentinel://:s3cret@s1:26379,s2:26379").check(Duration.ofSeconds(1));
        assertEquals(ProbeState.CONFIG, noName.state());
        assertTrue(noName.detail().contains("names no master: add '#'"), noName.detail());
        assertFalse(noName.detail().contains("s3cret"), noName.detail());
        ProbeResult badDb = Probes.forUrl("redis-sentinel://s1:26379/x#m").check(Duration.ofSeconds(1));
        assertEquals(ProbeState.CONFIG, badDb.state());
        assertTrue(badDb.detail().contains("database 'x' is not a number"), badDb.detail());
        // a query before the fragment: the key check is the probe's, the master name stays
        Probe withKey = Probes.forUrl("redis-sentinel://s1:26379,s2?key=jobs#m");
        assertEquals("s1:26379,s2:26379#m", withKey.target());
        assertTrue(withKey instanceof RedisSentinelProbe, withKey.toString());
        assertEquals("m", ((RedisSentinelProbe) withKey).masterName());
        withKey.close();
    }
}
