package dev.guard.ready;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.guard.testing.FreePorts;
import dev.guard.testing.MachineServices;
import dev.guard.testing.NoLeakedProcesses;
import dev.guard.testing.TcpProxy;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The gate over several real targets at once. */
@ExtendWith(NoLeakedProcesses.class)
class ReadinessGateTest {

    @org.junit.jupiter.api.BeforeAll
    static void warmUp() {
        Warm.clients();
    }

    @Test
    void deadlineReachedListsEveryTargetsLastState() {
        int closed = FreePorts.next();
        try (TcpProxy hole = TcpProxy.forward("127.0.0.1", 6379)) {
            hole.mode(TcpProxy.Mode.BLACKHOLE);
            List<Probe> probes = Probes.forUrls(List.of(
                    MachineServices.redisUri(),
                    "redis://127.0.0.1:" + closed,
                    "redis://127.0.0.1:" + hole.port(),
                    "nats://no-such-host.invalid:4222"));
            try (ReadinessGate gate = ReadinessGate.builder().probes(probes).deadline(Duration.ofSeconds(3))
                    .attemptTimeout(Duration.ofMillis(500)).build()) {
                ReadinessReport report = gate.await();
                assertEquals(ReadinessReport.Outcome.DEADLINE, report.outcome());
                assertFalse(report.ready());
                String text = report.render();
                assertTrue(text.startsWith("readiness: NOT READY: deadline of 3s reached after "), text);
                assertTrue(text.contains("; 3 of 4 target(s) not ready (last state of each below)\n"), text);
                // (the attempt number is not asserted: a cold lettuce may need more than 500 ms for its first connect)
                assertTrue(text.contains("  ok   redis 127.0.0.1:6379: ready (PONG), attempt "), text);
                assertTrue(text.contains("  FAIL redis 127.0.0.1:" + closed + ": refused, attempt "), text);
                assertTrue(text.contains("       do: start the service, or fix the host/port if it runs elsewhere\n"), text);
                assertTrue(text.contains("  FAIL redis 127.0.0.1:" + hole.port() + ": timeout (connected, but no reply within "),
                        text);
                assertTrue(text.contains("  FAIL nats no-such-host.invalid:4222: dns (host 'no-such-host.invalid' does not resolve), attempt "),
                        text);
                assertTrue(text.contains("       do: check the host name (in Compose/Kubernetes: the service name)"), text);
                // every attempt on the black hole waited its own timeout, not the whole deadline
                ProbeResult hung = report.results().get(2);
                assertTrue(hung.attempt() >= 2, "black hole retried after each attempt timeout: " + hung);
                // and the refused one retried quickly, but at most ~20 attempts per second
                int refusedAttempts = report.results().get(1).attempt();
                assertTrue(refusedAttempts >= 10 && refusedAttempts <= 3 * 20, "attempts in 3 s: " + refusedAttempts);
            }
        }
    }

    @Test
    void interruptReturnsPromptlyWithWhatItHas() throws Exception {
        AtomicReference<ReadinessReport> out = new AtomicReference<>();
        try (ReadinessGate gate = ReadinessGate.builder()
                .probe(Probes.redis("redis://127.0.0.1:" + FreePorts.next()))
                .deadline(Duration.ofSeconds(60)).build()) {
            Thread waiter = new Thread(() -> {
                out.set(gate.await());
                out.set(new ReadinessReport(out.get().outcome(), out.get().results(), out.get().elapsed(),
                        Thread.currentThread().isInterrupted() ? Duration.ofSeconds(1) : Duration.ZERO));
            });
            waiter.start();
            Thread.sleep(500);
            waiter.interrupt();
            waiter.join(5_000);
            assertFalse(waiter.isAlive(), "await() did not return within 5 s of the interrupt");
            ReadinessReport report = out.get();
            assertEquals(ReadinessReport.Outcome.INTERRUPTED, report.outcome());
            assertEquals(Duration.ofSeconds(1), report.deadline(), "the interrupt flag is kept");
            assertEquals(ProbeState.REFUSED, report.results().get(0).state());
            assertTrue(report.render().startsWith("readiness: NOT READY: interrupted after "), report.render());
        }
    }

    @Test
    void machineServicesAllReadyInOneCheckAndInAWait() {
        List<Probe> probes = Probes.forUrls(List.of(MachineServices.redisUri(), MachineServices.amqpUri(),
                MachineServices.natsUrl(), "tcp://127.0.0.1:6379"));
        try (ReadinessGate gate = ReadinessGate.builder().probes(probes).deadline(Duration.ofSeconds(20)).build()) {
            ReadinessReport once = gate.checkOnce();
            assertTrue(once.ready(), once.render());
            assertEquals(List.of("redis", "amqp", "nats", "tcp"), once.results().stream().map(ProbeResult::kind).toList());
            ReadinessReport waited = gate.await();
            assertTrue(waited.ready(), waited.render());
            waited.results().forEach(r -> assertEquals(1, r.attempt(), r.toString()));
            assertTrue(waited.toJson().contains("\"ready\" : true"), waited.toJson());
        }
    }

    @Test
    void wrongPasswordOnOneTargetStopsTheWholeWaitAtOnce() {
        String amqp = MachineServices.amqpUri();
        String wrong = amqp.replaceFirst("://([^:]+):[^@]+@", "://$1:wrong-pw@");
        List<Probe> probes = Probes.forUrls(List.of("redis://127.0.0.1:" + FreePorts.next(), wrong));
        try (ReadinessGate gate = ReadinessGate.builder().probes(probes).deadline(Duration.ofSeconds(60)).build()) {
            ReadinessReport report = gate.await();
            assertEquals(ReadinessReport.Outcome.NOT_RETRYABLE, report.outcome(), report.render());
            assertEquals(ProbeState.AUTH, report.blocker().orElseThrow().state());
            assertTrue(report.elapsed().compareTo(Duration.ofSeconds(20)) < 0, report.render());
            assertEquals(ProbeState.REFUSED, report.results().get(0).state(), "the other target keeps its last state");
            assertFalse(report.render().contains("wrong-pw"));
        }
    }
}
