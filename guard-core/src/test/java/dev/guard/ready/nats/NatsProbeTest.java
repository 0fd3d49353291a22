package dev.guard.ready.nats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.guard.ready.Probe;
import dev.guard.ready.ProbeResult;
import dev.guard.ready.ProbeState;
import dev.guard.ready.Probes;
import dev.guard.ready.ReadinessGate;
import dev.guard.ready.ReadinessReport;
import dev.guard.ready.Recorder;
import dev.guard.testing.MachineServices;
import dev.guard.testing.NatsServer;
import dev.guard.testing.NoLeakedProcesses;
import io.nats.client.Connection;
import io.nats.client.JetStreamManagement;
import io.nats.client.Nats;
import io.nats.client.api.StorageType;
import io.nats.client.api.StreamConfiguration;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The NATS probe against real nats-server processes. */
@ExtendWith(NoLeakedProcesses.class)
class NatsProbeTest {

    @Test
    void natsStartedLateIsRefusedThenReady() throws Exception {
        try (NatsServer nats = NatsServer.builder().build()) {
            Recorder rec = new Recorder();
            CountDownLatch refused = rec.when(r -> r.state() == ProbeState.REFUSED);
            try (ReadinessGate gate = ReadinessGate.builder().probe(Probes.nats(nats.url()))
                    .deadline(Duration.ofSeconds(30)).attemptTimeout(Duration.ofSeconds(5)).listener(rec).build()) {
                CompletableFuture<ReadinessReport> waiting = CompletableFuture.supplyAsync(gate::await);
                rec.await(refused, 10, "refused before the server starts");
                Thread.sleep(300);
                nats.start();
                ReadinessReport report = waiting.get(30, TimeUnit.SECONDS);
                assertTrue(report.ready(), report.render());
                List<ProbeState> states = rec.states("127.0.0.1:" + nats.port());
                // refused before the start, ready after it; in between, a nats-server that already
                // accepts TCP but does not serve yet may show as one transitional TIMEOUT (seen in CI)
                assertEquals(ProbeState.REFUSED, states.get(0), states.toString());
                assertEquals(ProbeState.READY, states.get(states.size() - 1), states.toString());
                assertTrue(states.subList(1, states.size() - 1).stream().allMatch(s -> s == ProbeState.TIMEOUT),
                        "only a transitional TIMEOUT may come between REFUSED and READY: " + states);
                assertEquals("PING/PONG ok", report.results().get(0).detail());
            }
        }
    }

    @Test
    void streamIsMissingUntilCreatedThenReady() throws Exception {
        String url = MachineServices.natsUrl();
        String stream = MachineServices.uniqueName("GUARD_READY").replace('-', '_').toUpperCase();
        Recorder rec = new Recorder();
        CountDownLatch missing = rec.when(r -> r.state() == ProbeState.MISSING);
        Probe probe = Probes.forUrl(url + "?stream=" + stream);
        try (ReadinessGate gate = ReadinessGate.builder().probe(probe).deadline(Duration.ofSeconds(20)).listener(rec)
                .build();
             Connection c = Nats.connect(url)) {
            CompletableFuture<ReadinessReport> waiting = CompletableFuture.supplyAsync(gate::await);
            rec.await(missing, 10, "missing stream");
            assertEquals("JetStream stream '" + stream + "' does not exist yet",
                    rec.first(probe.target(), ProbeState.MISSING).current().detail());
            JetStreamManagement jsm = c.jetStreamManagement();
            jsm.addStream(StreamConfiguration.builder().name(stream).subjects(stream.toLowerCase() + ".>")
                    .storageType(StorageType.Memory).build());
            try {
                ReadinessReport report = waiting.get(20, TimeUnit.SECONDS);
                assertTrue(report.ready(), report.render());
                assertEquals("PING/PONG ok, stream '" + stream + "' exists", report.results().get(0).detail());
            } finally {
                jsm.deleteStream(stream);
            }
        }
    }

    @Test
    void wrongPasswordIsAuthWithoutRetryAndPasswordNeverPrinted() throws Exception {
        try (NatsServer nats = NatsServer.builder().user("worker", "right-pw").build().start()) {
            String wrong = "nats://worker:wrong-pw@127.0.0.1:" + nats.port();
            try (ReadinessGate gate = ReadinessGate.builder().probe(Probes.nats(wrong)).deadline(Duration.ofSeconds(30))
                    .build()) {
                ReadinessReport report = gate.await();
                ProbeResult r = report.results().get(0);
                assertEquals(ProbeState.AUTH, r.state(), report.render());
                assertEquals(1, r.attempt());
                assertTrue(r.cause().toLowerCase().contains("authorization violation"), r.cause());
                assertFalse(report.render().contains("wrong-pw") || report.toJson().contains("wrong-pw"));
            }
            ProbeResult ok = Probes.nats(nats.url()).check(Duration.ofSeconds(2));
            assertEquals(ProbeState.READY, ok.state(), ok.toString());
        }
    }

    @Test
    void killedServerIsRefusedAndOtherProtocolIsNotReady() throws Exception {
        try (NatsServer nats = NatsServer.builder().jetStream(false).build().start()) {
            Probe probe = Probes.nats(nats.url());
            assertEquals(ProbeState.READY, probe.check(Duration.ofSeconds(2)).state());
            nats.kill();
            ProbeResult down = probe.check(Duration.ofSeconds(1));
            assertEquals(ProbeState.REFUSED, down.state(), down.toString());
            assertEquals("nothing accepts connections on 127.0.0.1:" + nats.port(), down.detail());
            nats.restart();
            assertEquals(ProbeState.READY, probe.check(Duration.ofSeconds(2)).state());
            // JetStream off: a required stream can never appear, the result says why
            ProbeResult js = Probes.natsBuilder(nats.url()).requireStream("JOBS").build().check(Duration.ofSeconds(2));
            assertEquals(ProbeState.MISSING, js.state(), js.toString());
            assertEquals("JetStream did not answer (is it enabled on this server?)", js.detail());
        }
        ProbeResult dns = Probes.nats("nats://no-such-host.invalid:4222").check(Duration.ofSeconds(1));
        assertEquals(ProbeState.DNS, dns.state(), dns.toString());
    }
}
