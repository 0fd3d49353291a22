package dev.guard.queue.amqp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import dev.guard.drain.Durability;
import dev.guard.drain.Durability.Verdict;
import dev.guard.testing.MachineServices;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What the machine's RabbitMQ says of queues declared each way a team does: durable classic,
 * quorum, transient, auto-delete, and exclusive to another connection. The answers are the
 * broker's own 406/405 refusals of an equivalent declaration, read as {@link AmqpDurability} does.
 */
class AmqpDurabilityTest {

    private final String queue = MachineServices.uniqueName("guard-durability");
    private Connection admin;
    private Channel adminChannel;
    private Connection worker;

    @BeforeEach
    void connect() throws Exception {
        admin = AmqpQueueTest.factory(MachineServices.amqpUri()).newConnection("guard-test-admin");
        adminChannel = admin.createChannel();
        worker = AmqpQueueTest.factory(MachineServices.amqpUri()).newConnection("guard-test-worker");
    }

    @AfterEach
    void cleanUp() throws Exception {
        worker.close();
        Channel c = admin.createChannel();
        c.queueDelete(queue);
        c.queueDelete(queue + ":dead");
        admin.close();
    }

    private Durability asked(boolean quorumFlag) {
        try (AmqpQueue q = AmqpQueue.builder(worker, queue).declare(false).quorum(quorumFlag)
                .pollTimeout(Duration.ofMillis(100)).build()) {
            return q.durability();
        }
    }

    @Test
    void aDurableClassicQueueAndAQuorumQueueAreKept() throws Exception {
        adminChannel.queueDeclare(queue, true, false, false, null);
        Durability classic = asked(false);
        assertEquals(Verdict.KEPT, classic.verdict(), classic.render());
        assertTrue(classic.found().contains("only messages published persistent, delivery_mode 2"), classic.found());
        assertTrue(classic.broker().startsWith("rabbitmq queue '" + queue + "' on RabbitMQ 3."), classic.broker());
        adminChannel.queueDelete(queue);

        adminChannel.queueDeclare(queue, true, false, false, Map.of("x-queue-type", "quorum"));
        Durability quorum = asked(false); // not told it is one: the broker's answer says so
        assertEquals(Verdict.KEPT, quorum.verdict(), quorum.render());
        assertTrue(quorum.found().contains("x-queue-type") && quorum.found().contains("quorum"), quorum.found());
        assertEquals(Verdict.KEPT, asked(true).verdict());
    }

    @Test
    void aTransientQueueIsLostOnRestart() throws Exception {
        adminChannel.queueDeclare(queue, false, false, false, null);
        Durability d = asked(false);
        assertEquals(Verdict.LOST_ON_RESTART, d.verdict(), d.render());
        assertTrue(d.found().startsWith("durable false (406 PRECONDITION_FAILED - inequivalent arg 'durable'"), d.found());
        assertTrue(d.loses().contains("deleted when RabbitMQ restarts"), d.loses());
        assertTrue(worker.isOpen(), "asking closes only its own channel");
    }

    @Test
    void anAutoDeleteQueueLosesItsJobsWithItsLastConsumer() throws Exception {
        adminChannel.queueDeclare(queue, true, false, true, null);
        Durability d = asked(false);
        assertEquals(Verdict.LOST_ON_RESTART, d.verdict(), d.render());
        assertTrue(d.found().startsWith("auto-delete (406"), d.found());
    }

    @Test
    void anExclusiveQueueOfAnotherConnectionIsLostWithIt() throws Exception {
        adminChannel.queueDeclare(queue, true, true, false, null);
        Durability d = AmqpDurability.of(worker, queue, false);
        assertEquals(Verdict.LOST_ON_RESTART, d.verdict(), d.render());
        assertTrue(d.found().startsWith("exclusive to another connection (405"), d.found());
    }

    /** On a durable classic queue a job published transient dies with the broker: counted, and the first one logged. */
    @Test
    void transientJobsOnAClassicQueueAreNoticed() throws Exception {
        adminChannel.queueDeclare(queue, true, false, false, null);
        try (AmqpQueue q = AmqpQueue.builder(worker, queue).declare(false).pollTimeout(Duration.ofMillis(200))
                .idOf((payload, messageId) -> payload).build()) {
            assertEquals(Verdict.KEPT, q.durability().verdict());
            adminChannel.basicPublish("", queue, com.rabbitmq.client.MessageProperties.PERSISTENT_TEXT_PLAIN,
                    "kept".getBytes(java.nio.charset.StandardCharsets.UTF_8));
            adminChannel.basicPublish("", queue, com.rabbitmq.client.MessageProperties.TEXT_PLAIN,
                    "transient".getBytes(java.nio.charset.StandardCharsets.UTF_8));
            for (String expected : java.util.List.of("kept", "transient")) {
                AmqpJob job = null;
                for (long until = System.nanoTime() + 10_000_000_000L; job == null && System.nanoTime() < until; ) {
                    job = q.fetch().orElse(null);
                }
                assertEquals(expected, job == null ? null : job.id());
                q.ack(job);
                assertEquals(expected.equals("kept") ? 0 : 1, q.transientJobs(), expected);
            }
        }
    }
}
