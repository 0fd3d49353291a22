package dev.guard.queue.nats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.guard.drain.CheckLevel;
import dev.guard.drain.DrainConfig;
import dev.guard.drain.JobClock;
import dev.guard.drain.SourceLostException;
import dev.guard.drain.TimeoutBudget;
import dev.guard.testing.MachineServices;
import io.nats.client.Connection;
import io.nats.client.JetStreamApiException;
import io.nats.client.JetStreamManagement;
import io.nats.client.Nats;
import io.nats.client.Options;
import io.nats.client.api.AckPolicy;
import io.nats.client.api.ConsumerConfiguration;
import io.nats.client.api.MessageInfo;
import io.nats.client.api.StreamConfiguration;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@link NatsQueue} against the machine's NATS with JetStream: ack after the handler, nak as a
 * counted hand-back, the dead-letter subject at the limit and on failure, a worker that dies
 * holding a job (its connection closed, nothing acked) whose job the next one gets after AckWait,
 * and in-progress acks that keep a long job from a second worker.
 */
class NatsQueueTest {

    private final String name = MachineServices.uniqueName("guardq").replace('-', '_');
    private final String subject = name + ".jobs";
    private final List<AutoCloseable> closing = new ArrayList<>();
    private Connection admin;
    private JetStreamManagement jsm;

    @BeforeEach
    void connect() throws Exception {
        admin = Nats.connect(MachineServices.natsUrl());
        jsm = admin.jetStreamManagement();
    }

    @AfterEach
    void cleanUp() throws Exception {
        for (int i = closing.size() - 1; i >= 0; i--) {
            try {
                closing.get(i).close();
            } catch (Exception ignored) {
                // closed by the test
            }
        }
        try {
            jsm.deleteStream(name);
        } finally {
            admin.close();
        }
    }

    private Connection connection() throws Exception {
        Connection c = Nats.connect(new Options.Builder().server(MachineServices.natsUrl()).build());
        closing.add(c::close);
        return c;
    }

    private NatsQueue source(Connection c, Duration ackWait, int maxInterruptions) {
        NatsQueue q = NatsQueue.builder(c, name, subject, "workers").ackWait(ackWait).maxInterruptions(maxInterruptions)
                .pollTimeout(Duration.ofMillis(200)).idOf((payload, msgId) -> payload).build();
        closing.add(q);
        return q;
    }

    private void publish(String body) throws Exception {
        admin.jetStream().publish(subject, body.getBytes(StandardCharsets.UTF_8));
    }

    private static NatsJob fetch(NatsQueue q, Duration within) {
        long until = System.nanoTime() + within.toNanos();
        while (System.nanoTime() < until) {
            Optional<NatsJob> job = q.fetch();
            if (job.isPresent()) {
                return job.get();
            }
        }
        throw new AssertionError("no message within " + within.toMillis() + " ms");
    }

    private long unacked() throws Exception {
        var info = jsm.getConsumerInfo(name, "workers");
        return info.getNumAckPending() + info.getNumPending();
    }

    @Test
    void ackedAfterTheHandlerTheJobIsDone() throws Exception {
        NatsQueue q = source(connection(), Duration.ofSeconds(30), 3);
        publish("job-n1");
        NatsJob job = fetch(q, Duration.ofSeconds(10));
        assertEquals("job-n1", job.id());
        assertEquals(0, job.interruptions());
        q.ack(job);
        assertEquals(0, unacked());
    }

    @Test
    void aNakComesBackAtOnceCountedAndTheLimitDeadLettersIt() throws Exception {
        NatsQueue q = source(connection(), Duration.ofSeconds(30), 2);
        publish("job-n2");
        q.handBack(fetch(q, Duration.ofSeconds(10)));
        NatsJob again = fetch(q, Duration.ofSeconds(5)); // well before the 30 s AckWait
        assertEquals("job-n2", again.id());
        assertEquals(1, again.interruptions());
        q.handBack(again);
        assertEquals(Optional.empty(), q.fetch(), "the second interruption of 2 is the limit");
        MessageInfo dead = jsm.getLastMessage(name, subject + ".dead");
        assertEquals("job-n2", new String(dead.getData(), StandardCharsets.UTF_8));
        assertEquals("interrupted 2 times (limit 2)", dead.getHeaders().getFirst("guard.reason"));
        assertEquals(0, unacked());
    }

    @Test
    void aFailedJobIsDeadLetteredWithItsReason() throws Exception {
        NatsQueue q = source(connection(), Duration.ofSeconds(30), 3);
        publish("job-n3");
        q.fail(fetch(q, Duration.ofSeconds(10)), new IllegalStateException("thumbnail service said 500"));
        MessageInfo dead = jsm.getLastMessage(name, subject + ".dead");
        assertTrue(dead.getHeaders().getFirst("guard.reason").contains("thumbnail service said 500"));
        assertEquals(0, unacked());
    }

    @Test
    void aWorkerThatDiesHoldingAJobLosesNothingTheNextGetsItAfterAckWait() throws Exception {
        Connection dying = connection();
        NatsQueue a = source(dying, Duration.ofSeconds(1), 3);
        publish("job-n4");
        assertEquals("job-n4", fetch(a, Duration.ofSeconds(10)).id());
        dying.close(); // nothing acked, no nak: as a SIGKILL leaves it
        assertThrows(SourceLostException.class, a::fetch);
        long t0 = System.nanoTime();
        NatsJob picked = fetch(source(connection(), Duration.ofSeconds(1), 3), Duration.ofSeconds(20));
        long ms = (System.nanoTime() - t0) / 1_000_000;
        assertEquals("job-n4", picked.id());
        assertEquals(2, picked.deliveries());
        System.out.println("FIGURE nats-pickup-after-death-ms " + ms + " (AckWait 1000 ms)");
    }

    @Test
    void inProgressAcksKeepALongJobFromASecondWorker() throws Exception {
        NatsQueue a = source(connection(), Duration.ofMillis(600), 3);
        NatsQueue b = source(connection(), Duration.ofMillis(600), 3);
        publish("job-n5");
        NatsJob job = fetch(a, Duration.ofSeconds(10));
        long until = System.nanoTime() + Duration.ofMillis(2500).toNanos(); // four AckWaits
        while (System.nanoTime() < until) {
            assertEquals(Optional.empty(), b.fetch(), "redelivered while a was still working on it");
        }
        a.ack(job);
        assertEquals(0, unacked());
    }

    @Test
    void theClocksAreTheConsumersOnTheServer() throws Exception {
        NatsQueue q = source(connection(), Duration.ofSeconds(2), 3);
        List<JobClock> clocks = q.clocks();
        assertEquals(2, clocks.size(), clocks.toString());
        JobClock ackWait = clocks.get(0);
        assertEquals("AckWait", ackWait.name());
        assertEquals(Duration.ofSeconds(2), ackWait.value());
        assertEquals(JobClock.Effect.RENEWED, ackWait.effect());
        assertEquals(Duration.ofMillis(666), ackWait.renewEvery());
        assertEquals("consumer info of 'workers'", ackWait.origin());
        assertEquals(JobClock.Effect.PICKUP, clocks.get(1).effect());
    }

    /**
     * The clock the budget names on a NATS consumer made elsewhere with an inactive threshold:
     * under a job that outlasts it, with in-progress acks further apart (AckWait 30 s: every 10 s),
     * JetStream deletes the consumer in the middle of the job, its record of the job in hand with
     * it. The budget refuses that worker with the numbers before its first job.
     */
    @Test
    void anInactiveThresholdShorterThanTheRenewalsDeletesTheConsumerUnderALongJob() throws Exception {
        jsm.addStream(StreamConfiguration.builder().name(name).subjects(subject, subject + ".dead").build());
        jsm.addOrUpdateConsumer(name, ConsumerConfiguration.builder().durable("workers").filterSubject(subject)
                .ackPolicy(AckPolicy.Explicit).ackWait(Duration.ofSeconds(30)).maxDeliver(-1)
                .inactiveThreshold(Duration.ofSeconds(2)).build());
        NatsQueue q = source(connection(), Duration.ofSeconds(30), 3);
        JobClock inactive = q.clocks().stream().filter(c -> c.name().equals("inactive threshold")).findFirst().orElseThrow();
        assertEquals(Duration.ofSeconds(2), inactive.value());
        assertEquals(JobClock.Effect.LIMITS_RUN, inactive.effect());

        TimeoutBudget budget = TimeoutBudget.evaluate("worker", new TimeoutBudget.Settings(CheckLevel.ERROR,
                Duration.ofSeconds(5), "test"), DrainConfig.builder().gracePeriod(Duration.ofSeconds(30)).build(), "default",
                q.clocks());
        assertEquals(1, budget.violations().size(), budget.render());
        String v = budget.violations().get(0).text();
        assertTrue(v.contains("outlasts inactive threshold (2 s, consumer info of 'workers')")
                && v.contains("every 10 s (AckWait / 3)") && v.contains("deletes the durable consumer"), v);

        // what the violation says happens, happening: a job held 4 s, the consumer gone under it
        publish("job-n9");
        NatsJob job = fetch(q, Duration.ofSeconds(5));
        Thread.sleep(4_000);
        JetStreamApiException gone = assertThrows(JetStreamApiException.class, () -> jsm.getConsumerInfo(name, "workers"));
        assertEquals(10014, gone.getApiErrorCode(), gone.getMessage()); // consumer not found
        assertEquals("job-n9", job.id());
    }
}
