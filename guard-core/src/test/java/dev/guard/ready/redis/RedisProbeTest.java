package dev.guard.ready.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.guard.ready.Probe;
import dev.guard.ready.ProbeResult;
import dev.guard.ready.ProbeState;
import dev.guard.ready.Probes;
import dev.guard.ready.ReadinessGate;
import dev.guard.ready.ReadinessReport;
import dev.guard.ready.Recorder;
import dev.guard.testing.MachineServices;
import dev.guard.testing.NoLeakedProcesses;
import dev.guard.testing.RedisServer;
import dev.guard.testing.TcpProxy;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The Redis probe against real redis-server processes (private ones from the fixture, and the machine's). */
@ExtendWith(NoLeakedProcesses.class)
class RedisProbeTest {

    @Test
    void reallyLoadingRedisIsLoadingWithProgressUntilLoadedThenReady() throws Exception {
        try (RedisServer redis = RedisServer.builder().preloadKeys(40_000).build().startLoading()) {
            Recorder rec = new Recorder();
            try (ReadinessGate gate = ReadinessGate.builder().probe(Probes.redis(redis.uri()))
                    .deadline(Duration.ofSeconds(60)).attemptTimeout(Duration.ofSeconds(2)).listener(rec).build()) {
                CompletableFuture<Instant> loaded = CompletableFuture.supplyAsync(
                        () -> redis.awaitLoaded(Duration.ofSeconds(60)));
                ReadinessReport report = gate.await();
                String target = "127.0.0.1:" + redis.port();
                assertTrue(report.ready(), report.render());
                assertEquals(List.of(ProbeState.LOADING, ProbeState.READY), rec.states(target));
                ProbeResult loading = rec.first(target, ProbeState.LOADING).current();
                assertTrue(loading.detail().matches("dataset \\d+% loaded.*"), "progress from INFO persistence: " + loading.detail());
                assertTrue(loading.cause().contains("LOADING"), loading.cause());
                Instant loadedAt = loaded.get(60, TimeUnit.SECONDS);
                Instant readySeen = rec.first(target, ProbeState.READY).at();
                // Redis logs "DB loaded" (ms resolution) before it serves PONG: READY is never seen before that
                assertFalse(readySeen.isBefore(loadedAt.minusMillis(2)),
                        "READY seen at " + readySeen + " before loading ended at " + loadedAt);
                ProbeResult last = report.results().get(0);
                assertEquals("PONG", last.detail());
                assertTrue(last.attempt() > 2, "several attempts while loading, got " + last.attempt());
            }
        }
    }

    @Test
    void redisStartedLateIsRefusedThenReady() throws Exception {
        try (RedisServer redis = RedisServer.builder().build()) {
            Recorder rec = new Recorder();
            String target = "127.0.0.1:" + redis.port();
            CountDownLatch refused = rec.when(r -> r.state() == ProbeState.REFUSED);
            try (ReadinessGate gate = ReadinessGate.builder().probe(Probes.redis(redis.uri()))
                    .deadline(Duration.ofSeconds(30)).attemptTimeout(Duration.ofSeconds(5)).listener(rec).build()) {
                CompletableFuture<ReadinessReport> waiting = CompletableFuture.supplyAsync(gate::await);
                rec.await(refused, 10, "refused before the server starts");
                Thread.sleep(300); // let it retry against the closed port for a while
                redis.start();
                ReadinessReport report = waiting.get(30, TimeUnit.SECONDS);
                assertTrue(report.ready(), report.render());
                assertEquals(List.of(ProbeState.REFUSED, ProbeState.READY), rec.states(target));
                assertTrue(report.results().get(0).attempt() >= 3, report.render());
            }
        }
    }

    @Test
    void flipBackAfterRestartIsCaughtByTheStableWindow() throws Exception {
        try (RedisServer redis = RedisServer.builder().preloadKeys(20_000).build().startLoading()) {
            redis.awaitLoaded(Duration.ofSeconds(60));
            Recorder rec = new Recorder();
            String target = "127.0.0.1:" + redis.port();
            CountDownLatch firstReady = rec.when(ProbeResult::ready);
            try (ReadinessGate gate = ReadinessGate.builder().probe(Probes.redis(redis.uri()))
                    .deadline(Duration.ofSeconds(60)).attemptTimeout(Duration.ofSeconds(1))
                    .stableFor(Duration.ofMillis(1500)).listener(rec).build()) {
                CompletableFuture<ReadinessReport> waiting = CompletableFuture.supplyAsync(gate::await);
                rec.await(firstReady, 10, "first PONG");
                redis.kill();
                redis.restart(); // loading mode again: answers -LOADING for a while
                ReadinessReport report = waiting.get(60, TimeUnit.SECONDS);
                assertTrue(report.ready(), report.render());
                List<ProbeState> states = rec.states(target);
                assertEquals(ProbeState.READY, states.get(0), states.toString());
                assertTrue(states.contains(ProbeState.LOADING), "flip back to LOADING seen: " + states);
                assertEquals(ProbeState.READY, states.get(states.size() - 1), states.toString());
                assertTrue(report.results().get(0).detail().startsWith("stable for "), report.render());
            }
        }
    }

    @Test
    void wrongPasswordFailsFastWithAuthAndDoesNotRetry() {
        try (RedisServer redis = RedisServer.builder().password("right-pw").build().start()) {
            String uri = "redis://:wrong-pw@127.0.0.1:" + redis.port();
            try (ReadinessGate gate = ReadinessGate.builder().probe(Probes.redis(uri))
                    .deadline(Duration.ofSeconds(30)).build()) {
                ReadinessReport report = gate.await();
                ProbeResult r = report.results().get(0);
                assertEquals(ProbeState.AUTH, r.state(), report.render());
                assertEquals(1, r.attempt(), "not retried");
                assertEquals(ReadinessReport.Outcome.NOT_RETRYABLE, report.outcome());
                assertTrue(report.elapsed().compareTo(Duration.ofSeconds(10)) < 0, "stopped long before the deadline: "
                        + report.elapsed());
                String text = report.render();
                assertTrue(text.contains("without retrying: redis 127.0.0.1:" + redis.port() + " is auth"), text);
                assertTrue(text.contains("WRONGPASS"), text);
                assertTrue(text.contains("do: fix the user/password"), text);
                assertFalse(text.contains("wrong-pw") || report.toJson().contains("wrong-pw"), "password printed: " + text);
            }
            // no password at all against a protected server: NOAUTH, also AUTH
            ProbeResult noPassword = Probes.redis("redis://127.0.0.1:" + redis.port()).check(Duration.ofSeconds(2));
            assertEquals(ProbeState.AUTH, noPassword.state(), noPassword.toString());
            assertTrue(noPassword.cause().contains("NOAUTH"), noPassword.cause());
            Probe right = Probes.redis("redis://:right-pw@127.0.0.1:" + redis.port() + "/2");
            ProbeResult ok = right.check(Duration.ofSeconds(2));
            right.close();
            assertEquals(ProbeState.READY, ok.state(), ok.toString());
            assertEquals("127.0.0.1:" + redis.port() + "/2", ok.target());
            // ACL form user:password (Redis 6+: the default user)
            Probe acl = Probes.redis("redis://default:right-pw@127.0.0.1:" + redis.port());
            ProbeResult aclOk = acl.check(Duration.ofSeconds(2));
            acl.close();
            assertEquals(ProbeState.READY, aclOk.state(), aclOk.toString());
            Probe aclWrong = Probes.redis("redis://worker:right-pw@127.0.0.1:" + redis.port());
            ProbeResult aclBad = aclWrong.check(Duration.ofSeconds(2));
            aclWrong.close();
            assertEquals(ProbeState.AUTH, aclBad.state(), aclBad.toString());
            assertTrue(aclBad.cause().contains("WRONGPASS"), aclBad.cause());
        }
    }

    @Test
    void requiredKeyIsMissingUntilItIsSet() throws Exception {
        String uri = MachineServices.redisUri();
        String key = MachineServices.uniqueName("guard-ready-key");
        Recorder rec = new Recorder();
        CountDownLatch missing = rec.when(r -> r.state() == ProbeState.MISSING);
        Probe probe = Probes.forUrl(uri + "?key=" + key);
        try (ReadinessGate gate = ReadinessGate.builder().probe(probe).deadline(Duration.ofSeconds(20))
                .listener(rec).build();
             TestRedis r = new TestRedis(uri)) {
            CompletableFuture<ReadinessReport> waiting = CompletableFuture.supplyAsync(gate::await);
            rec.await(missing, 10, "missing key");
            assertEquals("key '" + key + "' does not exist yet (EXISTS returned 0)",
                    rec.first(probe.target(), ProbeState.MISSING).current().detail());
            r.connection.sync().set(key, "1");
            ReadinessReport report = waiting.get(20, TimeUnit.SECONDS);
            assertTrue(report.ready(), report.render());
            assertEquals("PONG, key '" + key + "' exists", report.results().get(0).detail());
            r.connection.sync().del(key);
        }
    }

    @Test
    void blackHoleIsTimeoutWithinTheAttemptTimeout() {
        try (TcpProxy proxy = TcpProxy.forward("127.0.0.1", 6379)) {
            proxy.mode(TcpProxy.Mode.BLACKHOLE);
            Probe probe = Probes.redis("redis://127.0.0.1:" + proxy.port());
            try {
                ProbeResult cold = probe.check(Duration.ofMillis(400)); // includes creating lettuce's resources
                assertEquals(ProbeState.TIMEOUT, cold.state(), cold.toString());
                ProbeResult r = probe.check(Duration.ofMillis(400));
                assertEquals(ProbeState.TIMEOUT, r.state(), r.toString());
                assertTrue(r.cause().contains("timed out after 400 millisecond(s)"), r.cause());
                assertTrue(r.elapsed().compareTo(Duration.ofMillis(380)) >= 0, "waited the attempt timeout: " + r);
                assertTrue(r.elapsed().compareTo(Duration.ofSeconds(3)) < 0, "bounded by the attempt timeout: " + r);
                assertTrue(r.detail().startsWith("connected, but no reply within"), r.detail());
            } finally {
                probe.close();
            }
        }
    }

    @Test
    void otherProtocolOnThePortIsProtocolAndUnknownHostIsDnsAndClosedPortIsRefused() {
        Probe nats = Probes.redis("redis://127.0.0.1:4222"); // the machine's NATS greets with INFO {...}
        Probe dns = Probes.redis("redis://no-such-host.invalid:6379");
        Probe closed = Probes.redis("redis://127.0.0.1:" + dev.guard.testing.FreePorts.next());
        try {
            MachineServices.natsUrl();
            ProbeResult p = nats.check(Duration.ofSeconds(2));
            assertEquals(ProbeState.PROTOCOL, p.state(), p.toString());
            assertEquals("the reply is not Redis protocol", p.detail());
            ProbeResult d = dns.check(Duration.ofSeconds(2));
            assertEquals(ProbeState.DNS, d.state(), d.toString());
            assertTrue(d.cause().contains("UnknownHostException"), d.cause());
            ProbeResult c = closed.check(Duration.ofSeconds(2));
            assertEquals(ProbeState.REFUSED, c.state(), c.toString());
        } finally {
            nats.close();
            dns.close();
            closed.close();
        }
    }

    @Test
    void loadingDetailParsesInfoPersistence() {
        assertEquals("dataset 40% loaded, eta 3s",
                LettuceProbe.loadingDetail("# Persistence\r\nloading:1\r\nloading_loaded_perc:40.27\r\nloading_eta_seconds:3\r\n"));
        assertEquals("dataset 0% loaded", LettuceProbe.loadingDetail("loading:1\r\nloading_loaded_perc:0.00\r\n"));
        assertEquals("dataset loading (progress unreadable)", LettuceProbe.loadingDetail("loading:1\r\n"));
    }

    /** A plain lettuce connection to the machine's Redis for test setup. */
    private static final class TestRedis implements AutoCloseable {
        final RedisClient client;
        final StatefulRedisConnection<String, String> connection;

        TestRedis(String uri) {
            client = RedisClient.create(uri);
            connection = client.connect();
        }

        @Override
        public void close() {
            connection.close();
            client.shutdown(Duration.ZERO, Duration.ofSeconds(1));
        }
    }
}
