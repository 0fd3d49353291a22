package dev.guard.ready.nats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.guard.ready.CountedProbe;
import dev.guard.ready.Probe;
import dev.guard.ready.ProbeResult;
import dev.guard.ready.ProbeState;
import dev.guard.ready.Probes;
import dev.guard.ready.ReadinessGate;
import dev.guard.ready.ReadinessReport;
import dev.guard.ready.Recorder;
import dev.guard.ready.Warm;
import dev.guard.testing.MachineServices;
import dev.guard.testing.NatsServer;
import dev.guard.testing.NoLeakedProcesses;
import dev.guard.testing.Patience;
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
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The NATS probe against real nats-server processes. */
@ExtendWith(NoLeakedProcesses.class)
class NatsProbeTest {

    /**
     * Attempt timeout for the wrong-password case: jnats reports the server's Authorization
     * Violation only when its connection timeout (the attempt timeout) ends, so this one costs
     * its full length; long enough that a warm client always gets the server's -ERR first.
     */
    private static final Duration AUTH_ATTEMPT = Duration.ofSeconds(5);

    @BeforeAll
    static void warmUp() {
        Warm.clients(); // the first jnats connection in a JVM loads classes for seconds on a busy machine
    }

    @Test
    void natsStartedLateIsRefusedThenReady() throws Exception {
        try (NatsServer nats = NatsServer.builder().build()) {
            Recorder rec = new Recorder();
            CountDownLatch refused = rec.when(r -> r.state() == ProbeState.REFUSED);
            CountedProbe probe = new CountedProbe(Probes.nats(nats.url()));
            try (ReadinessGate gate = ReadinessGate.builder().probe(probe)
                    .deadline(Patience.WAIT).attemptTimeout(Patience.REPLY).listener(rec).build()) {
                CompletableFuture<ReadinessReport> waiting = CompletableFuture.supplyAsync(gate::await);
                rec.await(refused, Patience.WAIT, "refused before the server starts");
                probe.awaitChecks(3, Patience.WAIT); // it keeps retrying the closed (held) port
                nats.start();
                ReadinessReport report = waiting.get(Patience.WAIT.toSeconds(), TimeUnit.SECONDS);
                assertTrue(report.ready(), report.render());
                List<ProbeState> states = rec.states("127.0.0.1:" + nats.port());
                // refused before the start, ready after it; in between, a nats-server that already
                // accepts TCP but does not serve yet may show as one transitional TIMEOUT (seen in CI)
                assertEquals(ProbeState.REFUSED, states.get(0), states.toString());
                assertEquals(ProbeState.READY, states.get(states.size() - 1), states.toString());
                assertTrue(states.subList(1, states.size() - 1).stream().allMatch(s -> s == ProbeState.TIMEOUT),
                        "only a transitional TIMEOUT may come between REFUSED and READY: " + states);
                assertEquals("PING/PONG ok", report.results().get(0).detail());
                assertTrue(report.results().get(0).attempt() >= 4, "3 refused attempts, then ready: " + report.render());
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
        try (ReadinessGate gate = ReadinessGate.builder().probe(probe).deadline(Patience.WAIT)
                .attemptTimeout(Patience.REPLY).listener(rec).build();
             Connection c = Nats.connect(url)) {
            CompletableFuture<ReadinessReport> waiting = CompletableFuture.supplyAsync(gate::await);
            rec.await(missing, Patience.WAIT, "missing stream");
            assertEquals("JetStream stream '" + stream + "' does not exist yet",
                    rec.first(probe.target(), ProbeState.MISSING).current().detail());
            JetStreamManagement jsm = c.jetStreamManagement();
            jsm.addStream(StreamConfiguration.builder().name(stream).subjects(stream.toLowerCase() + ".>")
                    .storageType(StorageType.Memory).build());
            try {
                ReadinessReport report = waiting.get(Patience.WAIT.toSeconds(), TimeUnit.SECONDS);
                assertTrue(report.ready(), report.render());
                assertEquals("PING/PONG ok, stream '" + stream + "' exists", report.results().get(0).detail());
            } finally {
                jsm.deleteStream(stream);
            }
        }
    }

    /**
     * A consumer that must exist and deliver, on the machine's NATS (2.9: no pause there, so the
     * paused case is {@link #aPausedConsumerIsNotReadyAndSaysUntilWhen} from the API's own fields).
     */
    @Test
    void aRequiredConsumerIsMissingUntilCreatedThenDelivers() throws Exception {
        String url = MachineServices.natsUrl();
        String stream = MachineServices.uniqueName("GUARD_READY_C").replace('-', '_').toUpperCase();
        try (Connection c = Nats.connect(url)) {
            JetStreamManagement jsm = c.jetStreamManagement();
            jsm.addStream(StreamConfiguration.builder().name(stream).subjects(stream.toLowerCase() + ".>")
                    .storageType(StorageType.Memory).build());
            Probe probe = Probes.forUrl(url + "?stream=" + stream + "&consumer=workers");
            try {
                ProbeResult missing = probe.check(Patience.REPLY);
                assertEquals(ProbeState.MISSING, missing.state(), missing.toString());
                assertEquals("JetStream consumer 'workers' of stream '" + stream + "' does not exist yet", missing.detail());
                jsm.addOrUpdateConsumer(stream, io.nats.client.api.ConsumerConfiguration.builder().durable("workers")
                        .ackPolicy(io.nats.client.api.AckPolicy.Explicit).build());
                ProbeResult ready = probe.check(Patience.REPLY);
                assertEquals(ProbeState.READY, ready.state(), ready.toString());
                assertEquals("PING/PONG ok, stream '" + stream + "' exists, consumer 'workers' delivers", ready.detail());
            } finally {
                probe.close();
                jsm.deleteStream(stream);
            }
        }
    }

    /**
     * The consumer info a NATS 2.11 server sends for a paused consumer, with the fields the JetStream
     * API reference names (https://docs.nats.io/reference/jetstream/api/consumer/pause and the consumer
     * info: {@code paused}, {@code pause_remaining} in nanoseconds, {@code config.pause_until}), read by
     * jnats as it reads the server's reply. No 2.11 server runs here (Debian has 2.9.10).
     */
    @Test
    void aPausedConsumerIsNotReadyAndSaysUntilWhen() {
        String reply = "{\"type\":\"io.nats.jetstream.api.v1.consumer_info_response\",\"stream_name\":\"JOBS\","
                + "\"name\":\"workers\",\"created\":\"2026-12-06T20:00:00Z\","
                + "\"config\":{\"durable_name\":\"workers\",\"ack_policy\":\"explicit\","
                + "\"pause_until\":\"2026-12-07T09:00:00Z\"},"
                + "\"delivered\":{\"consumer_seq\":0,\"stream_seq\":0},\"ack_floor\":{\"consumer_seq\":0,\"stream_seq\":0},"
                + "\"num_ack_pending\":0,\"num_redelivered\":0,\"num_waiting\":0,\"num_pending\":12,"
                + "\"paused\":true,\"pause_remaining\":3600000000000}";
        io.nats.client.api.ConsumerInfo info = new io.nats.client.api.ConsumerInfo(
                io.nats.client.support.JsonParser.parseUnchecked(reply));
        assertEquals("JetStream consumer 'workers' of stream 'JOBS' is paused until 2026-12-07T09:00:00Z (3600 s from now):"
                + " a worker bound to it receives nothing until then. Resume it with `nats consumer resume JOBS workers`"
                + " (or JetStreamManagement.resumeConsumer)", JnatsProbe.pausedDetail("JOBS", info));
        String unpaused = reply.replace("\"paused\":true,\"pause_remaining\":3600000000000", "\"paused\":false");
        assertEquals(null, JnatsProbe.pausedDetail("JOBS", new io.nats.client.api.ConsumerInfo(
                io.nats.client.support.JsonParser.parseUnchecked(unpaused))));
        String before211 = reply.replace(",\"paused\":true,\"pause_remaining\":3600000000000", "");
        assertEquals(null, JnatsProbe.pausedDetail("JOBS", new io.nats.client.api.ConsumerInfo(
                io.nats.client.support.JsonParser.parseUnchecked(before211))), "a server before 2.11 sends no pause fields");
    }

    @Test
    void wrongPasswordIsAuthWithoutRetryAndPasswordNeverPrinted() throws Exception {
        try (NatsServer nats = NatsServer.builder().user("worker", "right-pw").build().start()) {
            String wrong = "nats://worker:wrong-pw@127.0.0.1:" + nats.port();
            try (ReadinessGate gate = ReadinessGate.builder().probe(Probes.nats(wrong)).deadline(Patience.WAIT)
                    .attemptTimeout(AUTH_ATTEMPT).build()) {
                ReadinessReport report = gate.await();
                ProbeResult r = report.results().get(0);
                assertEquals(ProbeState.AUTH, r.state(), report.render());
                assertEquals(1, r.attempt());
                assertTrue(r.cause().toLowerCase().contains("authorization violation"), r.cause());
                assertFalse(report.render().contains("wrong-pw") || report.toJson().contains("wrong-pw"));
            }
            ProbeResult ok = Probes.nats(nats.url()).check(Patience.REPLY);
            assertEquals(ProbeState.READY, ok.state(), ok.toString());
        }
    }

    @Test
    void killedServerIsRefusedAndOtherProtocolIsNotReady() throws Exception {
        try (NatsServer nats = NatsServer.builder().jetStream(false).build().start()) {
            Probe probe = Probes.nats(nats.url());
            assertEquals(ProbeState.READY, probe.check(Patience.REPLY).state());
            nats.kill();
            ProbeResult down = probe.check(Patience.REPLY);
            assertEquals(ProbeState.REFUSED, down.state(), down.toString());
            assertEquals("nothing accepts connections on 127.0.0.1:" + nats.port(), down.detail());
            nats.restart();
            assertEquals(ProbeState.READY, probe.check(Patience.REPLY).state());
            // JetStream off: a required stream can never appear, the result says why
            ProbeResult js = Probes.natsBuilder(nats.url()).requireStream("JOBS").build().check(Patience.REPLY);
            assertEquals(ProbeState.MISSING, js.state(), js.toString());
            assertEquals("JetStream did not answer (is it enabled on this server?)", js.detail());
        }
        ProbeResult dns = Probes.nats("nats://no-such-host.invalid:4222").check(Patience.REPLY);
        assertEquals(ProbeState.DNS, dns.state(), dns.toString());
    }
}
