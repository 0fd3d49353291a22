package dev.guard.ready.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.guard.ready.CountedProbe;
import dev.guard.ready.Probe;
import dev.guard.ready.ProbeResult;
import dev.guard.ready.ProbeState;
import dev.guard.ready.Probes;
import dev.guard.ready.ReadinessGate;
import dev.guard.ready.ReadinessReport;
import dev.guard.ready.ReadinessListener;
import dev.guard.ready.Recorder;
import dev.guard.ready.Warm;
import dev.guard.testing.MachineServices;
import dev.guard.testing.NoLeakedProcesses;
import dev.guard.testing.Patience;
import dev.guard.testing.RedisServer;
import dev.guard.testing.TcpProxy;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The Redis probe against real redis-server processes (private ones from the fixture, and the machine's). */
@ExtendWith(NoLeakedProcesses.class)
class RedisProbeTest {

    @BeforeAll
    static void warmUp() {
        Warm.clients(); // the first lettuce connection in a JVM loads classes for seconds on a busy machine
    }

    @Test
    void reallyLoadingRedisIsLoadingWithProgressUntilLoadedThenReady() throws Exception {
        // held LOADING until the gate has seen it 3 times: the load ends when the test says so
        try (RedisServer redis = RedisServer.builder().preloadKeys(40_000).heldLoading().build().startLoading()) {
            Recorder rec = new Recorder();
            CountedProbe probe = new CountedProbe(Probes.redis(redis.uri()));
            try (ReadinessGate gate = ReadinessGate.builder().probe(probe)
                    .deadline(Patience.WAIT).attemptTimeout(Patience.REPLY).listener(rec).build()) {
                CompletableFuture<ReadinessReport> waiting = CompletableFuture.supplyAsync(gate::await);
                probe.awaitChecks(3, Patience.WAIT);
                assertTrue(redis.isLoading(), "still held in LOADING: " + redis.ping());
                // held at 2 ms per key, 40,000 keys take 80 s: the rate measured from the progress says so
                // (a slower machine only makes the estimate longer)
                ProbeResult third = probe.results().get(2);
                assertEquals(ProbeState.LOADING, third.state(), third.toString());
                assertTrue(third.expectedReadyIn() != null && third.expectedReadyIn().toSeconds() >= 10,
                        "estimate of the end from INFO persistence: " + third);
                redis.finishLoading();
                CompletableFuture<Instant> loaded = CompletableFuture.supplyAsync(
                        () -> redis.awaitLoaded(Patience.WAIT));
                ReadinessReport report = waiting.get(Patience.WAIT.toSeconds(), TimeUnit.SECONDS);
                String target = "127.0.0.1:" + redis.port();
                assertTrue(report.ready(), report.render());
                assertEquals(List.of(ProbeState.LOADING, ProbeState.READY), rec.states(target));
                ProbeResult loading = rec.first(target, ProbeState.LOADING).current();
                assertTrue(loading.detail().matches("dataset \\d+% loaded.*"), "progress from INFO persistence: " + loading.detail());
                assertTrue(loading.cause().contains("LOADING"), loading.cause());
                Instant loadedAt = loaded.get(Patience.WAIT.toSeconds(), TimeUnit.SECONDS);
                Instant readySeen = rec.first(target, ProbeState.READY).at();
                // Redis logs "DB loaded" (ms resolution) before it serves PONG: READY is never seen before that
                assertFalse(readySeen.isBefore(loadedAt.minusMillis(2)),
                        "READY seen at " + readySeen + " before loading ended at " + loadedAt);
                ProbeResult last = report.results().get(0);
                assertEquals("PONG", last.detail());
                assertTrue(last.attempt() >= 4, "3 attempts while loading, then the ready one: " + last);
            }
        }
    }

    /** An ACL user without {@code +info}: LOADING from PING alone, at every attempt, then READY. */
    @Test
    void aUserWhoMayNotAskInfoStillSeesLoadingThenReady() throws Exception {
        try (RedisServer redis = RedisServer.builder().preloadKeys(40_000).heldLoading()
                .args("--user", "probe", "on", ">probe-pw", "+ping", "+exists", "-info", "~*").build().startLoading();
             Probe probe = Probes.redis("redis://probe:probe-pw@127.0.0.1:" + redis.port())) {
            long pingsBefore = redis.commandStat("ping", "rejected_calls");
            for (int i = 0; i < 3; i++) {
                ProbeResult r = probe.check(Patience.REPLY);
                assertEquals(ProbeState.LOADING, r.state(), "attempt " + (i + 1) + ": " + r);
                assertEquals("dataset loading (progress unreadable)", r.detail(), r.toString());
                assertTrue(r.cause().contains("LOADING"), r.toString());
                assertFalse(r.toString().contains("probe-pw"), "password masked: " + r);
            }
            assertEquals(3, redis.commandStat("ping", "rejected_calls") - pingsBefore, "a PING in each attempt");
            redis.finishLoading();
            redis.awaitLoaded(Patience.WAIT);
            ProbeResult ready = probe.check(Patience.REPLY);
            assertEquals(ProbeState.READY, ready.state(), ready.toString());
        }
    }

    @Test
    void redisStartedLateIsRefusedThenReady() throws Exception {
        try (RedisServer redis = RedisServer.builder().build()) {
            Recorder rec = new Recorder();
            String target = "127.0.0.1:" + redis.port();
            CountDownLatch refused = rec.when(r -> r.state() == ProbeState.REFUSED);
            CountedProbe probe = new CountedProbe(Probes.redis(redis.uri()));
            try (ReadinessGate gate = ReadinessGate.builder().probe(probe)
                    .deadline(Patience.WAIT).attemptTimeout(Patience.REPLY).listener(rec).build()) {
                CompletableFuture<ReadinessReport> waiting = CompletableFuture.supplyAsync(gate::await);
                rec.await(refused, Patience.WAIT, "refused before the server starts");
                probe.awaitChecks(3, Patience.WAIT); // it keeps retrying the closed (held) port
                redis.start();
                ReadinessReport report = waiting.get(Patience.WAIT.toSeconds(), TimeUnit.SECONDS);
                assertTrue(report.ready(), report.render());
                assertEquals(List.of(ProbeState.REFUSED, ProbeState.READY), rec.states(target));
                assertTrue(report.results().get(0).attempt() >= 4, "3 refused attempts, then ready: " + report.render());
            }
        }
    }

    @Test
    void flipBackAfterRestartIsCaughtByTheStableWindow() throws Exception {
        try (RedisServer redis = RedisServer.builder().preloadKeys(20_000).heldLoading().build().startLoading()) {
            redis.finishLoading();
            redis.awaitLoaded(Patience.WAIT);
            Recorder rec = new Recorder();
            String target = "127.0.0.1:" + redis.port();
            // the flip happens inside the first READY report, on the gate's own thread: the gate
            // cannot finish its stable window before the server is down, however slow this machine is
            AtomicBoolean flipped = new AtomicBoolean();
            CountDownLatch loadingAgain = rec.when(r -> r.state() == ProbeState.LOADING);
            java.util.concurrent.atomic.AtomicReference<RuntimeException> flipFailed = new java.util.concurrent.atomic.AtomicReference<>();
            ReadinessListener flipOnFirstReady = (previous, current) -> {
                rec.onStateChange(previous, current);
                if (current.ready() && flipped.compareAndSet(false, true)) {
                    try {
                        redis.kill();
                        redis.restart(); // loading mode again, held until the gate has seen LOADING
                    } catch (RuntimeException e) {
                        flipFailed.set(e);
                        throw e;
                    }
                }
            };
            try (ReadinessGate gate = ReadinessGate.builder().probe(Probes.redis(redis.uri()))
                    .deadline(Patience.WAIT).attemptTimeout(Duration.ofSeconds(1))
                    .stableFor(Duration.ofMillis(1500)).listener(flipOnFirstReady).build()) {
                CompletableFuture<ReadinessReport> waiting = CompletableFuture.supplyAsync(gate::await);
                rec.await(loadingAgain, Patience.WAIT, "LOADING after the restart");
                redis.finishLoading();
                ReadinessReport report = waiting.get(Patience.WAIT.toSeconds(), TimeUnit.SECONDS);
                assertTrue(flipped.get(), "the server was never ready before the flip: " + rec.changes());
                if (flipFailed.get() != null) {
                    throw new AssertionError("kill and restart in loading mode failed", flipFailed.get());
                }
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
                    .deadline(Patience.WAIT).attemptTimeout(Patience.REPLY).build()) {
                ReadinessReport report = gate.await();
                ProbeResult r = report.results().get(0);
                assertEquals(ProbeState.AUTH, r.state(), report.render());
                assertEquals(1, r.attempt(), "not retried");
                // stopped at the auth error, not at the deadline
                assertEquals(ReadinessReport.Outcome.NOT_RETRYABLE, report.outcome());
                String text = report.render();
                assertTrue(text.contains("without retrying: redis 127.0.0.1:" + redis.port() + " is auth"), text);
                assertTrue(text.contains("WRONGPASS"), text);
                assertTrue(text.contains("do: fix the user/password"), text);
                assertFalse(text.contains("wrong-pw") || report.toJson().contains("wrong-pw"), "password printed: " + text);
            }
            // no password at all against a protected server: NOAUTH, also AUTH
            ProbeResult noPassword = Probes.redis("redis://127.0.0.1:" + redis.port()).check(Patience.REPLY);
            assertEquals(ProbeState.AUTH, noPassword.state(), noPassword.toString());
            assertTrue(noPassword.cause().contains("NOAUTH"), noPassword.cause());
            Probe right = Probes.redis("redis://:right-pw@127.0.0.1:" + redis.port() + "/2");
            ProbeResult ok = right.check(Patience.REPLY);
            right.close();
            assertEquals(ProbeState.READY, ok.state(), ok.toString());
            assertEquals("127.0.0.1:" + redis.port() + "/2", ok.target());
            // ACL form user:password (Redis 6+: the default user)
            Probe acl = Probes.redis("redis://default:right-pw@127.0.0.1:" + redis.port());
            ProbeResult aclOk = acl.check(Patience.REPLY);
            acl.close();
            assertEquals(ProbeState.READY, aclOk.state(), aclOk.toString());
            Probe aclWrong = Probes.redis("redis://worker:right-pw@127.0.0.1:" + redis.port());
            ProbeResult aclBad = aclWrong.check(Patience.REPLY);
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
        try (ReadinessGate gate = ReadinessGate.builder().probe(probe).deadline(Patience.WAIT)
                .attemptTimeout(Patience.REPLY).listener(rec).build();
             TestRedis r = new TestRedis(uri)) {
            CompletableFuture<ReadinessReport> waiting = CompletableFuture.supplyAsync(gate::await);
            rec.await(missing, Patience.WAIT, "missing key");
            assertEquals("key '" + key + "' does not exist yet (EXISTS returned 0)",
                    rec.first(probe.target(), ProbeState.MISSING).current().detail());
            r.connection.sync().set(key, "1");
            ReadinessReport report = waiting.get(Patience.WAIT.toSeconds(), TimeUnit.SECONDS);
            assertTrue(report.ready(), report.render());
            assertEquals("PONG, key '" + key + "' exists", report.results().get(0).detail());
            r.connection.sync().del(key);
        }
    }

    @Test
    void blackHoleIsTimeoutWithinTheAttemptTimeout() {
        URI machine = URI.create("tcp://" + MachineServices.hostPort(MachineServices.redisUri()));
        try (TcpProxy proxy = TcpProxy.forward(machine.getHost(), machine.getPort())) {
            proxy.mode(TcpProxy.Mode.BLACKHOLE);
            Probe probe = Probes.redis("redis://127.0.0.1:" + proxy.port());
            try {
                ProbeResult cold = probe.check(Duration.ofMillis(400)); // includes creating lettuce's resources
                assertEquals(ProbeState.TIMEOUT, cold.state(), cold.toString());
                ProbeResult r = probe.check(Duration.ofMillis(400));
                assertEquals(ProbeState.TIMEOUT, r.state(), r.toString());
                // ended by its own attempt timeout (lettuce's command timeout), nothing else
                assertTrue(r.cause().contains("timed out after 400 millisecond(s)"), r.cause());
                assertTrue(r.detail().startsWith("connected, but no reply within"), r.detail());
            } finally {
                probe.close();
            }
        }
    }

    @Test
    void otherProtocolOnThePortIsProtocolAndUnknownHostIsDnsAndClosedPortIsRefused() {
        // the machine's NATS greets with INFO {...}
        Probe nats = Probes.redis("redis://" + MachineServices.hostPort(MachineServices.natsUrl()));
        Probe dns = Probes.redis("redis://no-such-host.invalid:6379");
        Probe closed = Probes.redis("redis://127.0.0.1:" + dev.guard.testing.FreePorts.next());
        try {
            ProbeResult p = nats.check(Patience.REPLY);
            assertEquals(ProbeState.PROTOCOL, p.state(), p.toString());
            assertEquals("the reply is not Redis protocol", p.detail());
            ProbeResult d = dns.check(Patience.REPLY);
            assertEquals(ProbeState.DNS, d.state(), d.toString());
            assertTrue(d.cause().contains("UnknownHostException"), d.cause());
            ProbeResult c = closed.check(Patience.REPLY);
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
