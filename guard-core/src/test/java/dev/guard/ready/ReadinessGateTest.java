package dev.guard.ready;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.guard.testing.FreePorts;
import dev.guard.testing.MachineServices;
import dev.guard.testing.NoLeakedProcesses;
import dev.guard.testing.Patience;
import dev.guard.testing.TcpProxy;
import java.net.URI;
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

    /** host:port of the machine's Redis, as reports print it. */
    private static String machineRedis() {
        return MachineServices.hostPort(MachineServices.redisUri());
    }

    @Test
    void deadlineReachedListsEveryTargetsLastState() {
        int closed = FreePorts.next();
        URI redis = URI.create("tcp://" + machineRedis());
        try (TcpProxy hole = TcpProxy.forward(redis.getHost(), redis.getPort())) {
            hole.mode(TcpProxy.Mode.BLACKHOLE);
            List<Probe> probes = Probes.forUrls(List.of(
                    MachineServices.redisUri(),
                    "redis://127.0.0.1:" + closed,
                    "redis://127.0.0.1:" + hole.port(),
                    "nats://no-such-host.invalid:4222"));
            // the deadline leaves room for several attempt timeouts of the black hole, and for the
            // machine's Redis to answer within an attempt even when the machine is busy
            try (ReadinessGate gate = ReadinessGate.builder().probes(probes).deadline(Duration.ofSeconds(10))
                    .attemptTimeout(Duration.ofSeconds(2)).build()) {
                ReadinessReport report = gate.await();
                assertEquals(ReadinessReport.Outcome.DEADLINE, report.outcome());
                assertFalse(report.ready());
                String text = report.render();
                assertTrue(text.startsWith("readiness: NOT READY: deadline of 10s reached after "), text);
                assertTrue(text.contains("; 3 of 4 target(s) not ready (last state of each below)\n"), text);
                // (the attempt number is not asserted: a cold lettuce may need more than one attempt for its first connect)
                assertTrue(text.contains("  ok   redis " + machineRedis() + ": ready (PONG), attempt "), text);
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
                // and the refused one retried, but never faster than the backoff allows (load can only
                // make it slower; the exact schedule is ReadinessGateLogicTest's, on a fake clock)
                int refusedAttempts = report.results().get(1).attempt();
                int cap = (int) Math.ceil(Backoff.DEFAULT.maxAttemptsPerSecond() * 10) + 20; // + the first second's burst
                assertTrue(refusedAttempts >= 2 && refusedAttempts <= cap, "attempts in 10 s: " + refusedAttempts
                        + " (at most " + cap + ")");
            }
        }
    }

    @Test
    void interruptReturnsPromptlyWithWhatItHas() throws Exception {
        AtomicReference<ReadinessReport> out = new AtomicReference<>();
        Recorder rec = new Recorder();
        java.util.concurrent.CountDownLatch refused = rec.when(r -> r.state() == ProbeState.REFUSED);
        try (ReadinessGate gate = ReadinessGate.builder()
                .probe(Probes.redis("redis://127.0.0.1:" + FreePorts.next()))
                .deadline(Duration.ofSeconds(600)).listener(rec).build()) {
            Thread waiter = new Thread(() -> {
                out.set(gate.await());
                out.set(new ReadinessReport(out.get().outcome(), out.get().results(), out.get().elapsed(),
                        Thread.currentThread().isInterrupted() ? Duration.ofSeconds(1) : Duration.ZERO));
            });
            waiter.start();
            rec.await(refused, Patience.WAIT, "refused"); // it is in the wait, with a state to report
            waiter.interrupt();
            // a hang guard, not a speed claim: without the interrupt it would wait out the 600 s deadline
            waiter.join(Patience.WAIT.toMillis());
            assertFalse(waiter.isAlive(), "await() did not return within " + Patience.WAIT.toSeconds()
                    + " s of the interrupt (deadline 600 s)");
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
                MachineServices.natsUrl(), "tcp://" + machineRedis()));
        // attempt 1 must be ready: give one attempt all the time a busy machine may need
        try (ReadinessGate gate = ReadinessGate.builder().probes(probes).deadline(Patience.WAIT)
                .attemptTimeout(Patience.REPLY).build()) {
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
        Recorder rec = new Recorder();
        java.util.concurrent.CountDownLatch refused = rec.when(r -> r.state() == ProbeState.REFUSED);
        Probe closed = Probes.redis("redis://127.0.0.1:" + FreePorts.next());
        // the AMQP check starts once the closed target has a state of its own, so that "keeps its
        // last state" has a state to keep whichever client answers first on a busy machine
        Probe amqpAfterRefused = new CountedProbe(Probes.forUrl(wrong), () -> {
            try {
                rec.await(refused, Patience.WAIT, "the closed target refused");
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        try (ReadinessGate gate = ReadinessGate.builder().probe(closed).probe(amqpAfterRefused)
                .deadline(Duration.ofSeconds(600)).attemptTimeout(Patience.REPLY).listener(rec).build()) {
            ReadinessReport report = gate.await();
            // stopped by the auth error, not by the 600 s deadline
            assertEquals(ReadinessReport.Outcome.NOT_RETRYABLE, report.outcome(), report.render());
            assertEquals(ProbeState.AUTH, report.blocker().orElseThrow().state());
            assertEquals(1, report.blocker().orElseThrow().attempt(), report.render());
            assertEquals(ProbeState.REFUSED, report.results().get(0).state(), "the other target keeps its last state");
            assertFalse(report.render().contains("wrong-pw"));
        }
    }
}
