package dev.guard.ready.amqp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import dev.guard.ready.Probe;
import dev.guard.ready.ProbeResult;
import dev.guard.ready.ProbeState;
import dev.guard.ready.Probes;
import dev.guard.ready.ReadinessGate;
import dev.guard.ready.ReadinessReport;
import dev.guard.ready.Recorder;
import dev.guard.testing.FreePorts;
import dev.guard.testing.MachineServices;
import dev.guard.testing.Patience;
import java.net.URI;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The AMQP probe against the machine's RabbitMQ. */
class AmqpProbeTest {

    @Test
    void handshakeAndChannelIsReady() {
        Probe probe = Probes.amqp(MachineServices.amqpUri());
        ProbeResult r = probe.check(Patience.REPLY);
        assertEquals(ProbeState.READY, r.state(), r.toString());
        assertEquals("handshake and channel ok", r.detail());
        assertEquals(MachineServices.hostPort(MachineServices.amqpUri()), r.target());
    }

    @Test
    void queueAndExchangeAreMissingUntilDeclaredThenReady() throws Exception {
        String uri = MachineServices.amqpUri();
        String queue = MachineServices.uniqueName("guard-ready-q");
        String exchange = MachineServices.uniqueName("guard-ready-x");
        Recorder rec = new Recorder();
        CountDownLatch missing = rec.when(r -> r.state() == ProbeState.MISSING);
        Probe probe = Probes.forUrl(uri + "?queues=" + queue + "&exchanges=" + exchange);
        ConnectionFactory f = new ConnectionFactory();
        f.setUri(uri);
        try (ReadinessGate gate = ReadinessGate.builder().probe(probe).deadline(Patience.WAIT)
                .attemptTimeout(Patience.REPLY).listener(rec).build();
             Connection c = f.newConnection();
             Channel ch = c.createChannel()) {
            CompletableFuture<ReadinessReport> waiting = CompletableFuture.supplyAsync(gate::await);
            rec.await(missing, Patience.WAIT.toSeconds(), "missing queue");
            assertEquals("queue '" + queue + "' does not exist yet (404 NOT_FOUND)",
                    rec.first(probe.target(), ProbeState.MISSING).current().detail());
            try {
                ch.queueDeclare(queue, false, false, true, null);
                ch.exchangeDeclare(exchange, "direct", false, true, null);
                ch.queueBind(queue, exchange, "k"); // auto-delete exchange needs a binding to live
                ReadinessReport report = waiting.get(Patience.WAIT.toSeconds(), TimeUnit.SECONDS);
                assertTrue(report.ready(), report.render());
                assertEquals("handshake and channel ok, required queues/exchanges exist",
                        report.results().get(0).detail());
            } finally {
                ch.queueDelete(queue);
                ch.exchangeDelete(exchange);
            }
        }
    }

    @Test
    void wrongPasswordIsAuthAtTheFirstAttempt() {
        URI base = URI.create(MachineServices.amqpUri());
        String user = base.getUserInfo().split(":")[0];
        String wrong = "amqp://" + user + ":wrong-pw@" + base.getHost() + ":" + base.getPort();
        // a generous attempt timeout: a cold AMQP client on a busy machine must not turn attempt 1 into a TIMEOUT
        try (ReadinessGate gate = ReadinessGate.builder().probe(Probes.amqp(wrong)).deadline(Patience.WAIT)
                .attemptTimeout(Patience.REPLY).build()) {
            ReadinessReport report = gate.await();
            ProbeResult r = report.results().get(0);
            assertEquals(ProbeState.AUTH, r.state(), report.render());
            assertEquals(1, r.attempt());
            assertTrue(r.cause().contains("ACCESS_REFUSED"), r.cause());
            assertTrue(report.render().contains("not retried: auth does not change by waiting"), report.render());
            assertFalse(report.render().contains("wrong-pw") || report.toJson().contains("wrong-pw"));
        }
    }

    @Test
    void unknownVhostIsAuthAndClosedPortIsRefused() {
        ProbeResult vhost = Probes.amqp(MachineServices.amqpUri() + "/" + MachineServices.uniqueName("no-such-vhost"))
                .check(Patience.REPLY);
        assertEquals(ProbeState.AUTH, vhost.state(), vhost.toString());
        assertTrue(vhost.cause().contains("NOT_ALLOWED"), vhost.cause());
        ProbeResult closed = Probes.amqp("amqp://guest:guest@127.0.0.1:" + FreePorts.next()).check(Patience.REPLY);
        assertEquals(ProbeState.REFUSED, closed.state(), closed.toString());
    }
}
