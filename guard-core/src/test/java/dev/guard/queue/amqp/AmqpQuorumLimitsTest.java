package dev.guard.queue.amqp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.GetResponse;
import dev.guard.testing.MachineServices;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A quorum queue's own limits against guard's, on the machine's RabbitMQ with the 4.x settings set
 * explicitly ({@code x-delivery-limit}, a dead-letter target): the limit read from the queue at
 * build, a limit below guard's refused unless the broker dead-letters too, guard's hand-back
 * counted by the broker up to a limit equal to guard's (the job reaches guard's dead-letter queue,
 * not the broker's drop), and the dead-letter target guard gives a queue it declares.
 */
class AmqpQuorumLimitsTest {

    private final String queue = MachineServices.uniqueName("guard-amqp-limit");
    private final List<AutoCloseable> closing = new ArrayList<>();
    private Connection admin;
    private Channel adminChannel;

    @BeforeEach
    void connect() throws Exception {
        admin = AmqpQueueTest.factory(MachineServices.amqpUri()).newConnection("guard-test-admin");
        adminChannel = admin.createChannel();
    }

    @AfterEach
    void cleanUp() throws Exception {
        for (int i = closing.size() - 1; i >= 0; i--) {
            try {
                closing.get(i).close();
            } catch (Exception ignored) {
                // already closed by the test
            }
        }
        adminChannel.queueDelete(queue);
        adminChannel.queueDelete(queue + ":dead");
        admin.close();
    }

    private Connection connection() throws Exception {
        Connection c = AmqpQueueTest.factory(MachineServices.amqpUri()).newConnection("guard-test-worker");
        closing.add(() -> {
            if (c.isOpen()) {
                c.close();
            }
        });
        return c;
    }

    private AmqpQueue source(int maxInterruptions) throws Exception {
        AmqpQueue q = AmqpQueue.builder(connection(), queue).quorum(true).maxInterruptions(maxInterruptions)
                .pollTimeout(Duration.ofMillis(200)).idOf((payload, messageId) -> payload).build();
        closing.add(q);
        return q;
    }

    private static AmqpJob fetch(AmqpQueue q) {
        for (int i = 0; i < 50; i++) {
            Optional<AmqpJob> job = q.fetch();
            if (job.isPresent()) {
                return job.get();
            }
        }
        throw new AssertionError("no delivery in 50 polls of 200 ms");
    }

    private void publish(String body) throws Exception {
        adminChannel.basicPublish("", queue, new AMQP.BasicProperties.Builder().deliveryMode(2).build(),
                body.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void aDeliveryLimitBelowGuardsWithoutADeadLetterTargetIsRefusedAtBuild() throws Exception {
        adminChannel.queueDeclare(queue, true, false, false, Map.of("x-queue-type", "quorum", "x-delivery-limit", 2));
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> source(3));
        assertTrue(e.getMessage().contains("RabbitMQ drops a job interrupted more than 2 times (x-delivery-limit 2, no"
                + " dead-letter exchange), before guard dead-letters it at 3"), e.getMessage());
        assertTrue(e.getMessage().contains("Action: maxInterruptions(2) or less"), e.getMessage());
        source(2); // at the limit: builds
        Map<String, Object> args = AmqpQueueArgs.read(admin, queue, Map.of("x-queue-type", "quorum")).args();
        assertEquals(Map.of("x-queue-type", "quorum", "x-delivery-limit", 2), args, "read, and left as it was");
    }

    @Test
    void aLowerLimitWithADeadLetterTargetBuildsSinceTheBrokerDeadLettersToo() throws Exception {
        adminChannel.queueDeclare(queue, true, false, false, Map.of("x-queue-type", "quorum", "x-delivery-limit", 1,
                "x-dead-letter-exchange", "", "x-dead-letter-routing-key", queue + ":dead"));
        source(3);
        AmqpQueueArgs.Result read = AmqpQueueArgs.read(admin, queue, Map.of("x-queue-type", "quorum"));
        assertEquals(1, read.args().get("x-delivery-limit"));
        assertEquals("", read.args().get("x-dead-letter-exchange"));
        assertEquals(queue + ":dead", read.args().get("x-dead-letter-routing-key"));
    }

    @Test
    void guardsHandBacksAreCountedByTheBrokerAndAJobAtALimitEqualToGuardsReachesGuardsDeadLetterQueue()
            throws Exception {
        adminChannel.queueDeclare(queue, true, false, false, Map.of("x-queue-type", "quorum", "x-delivery-limit", 2));
        AmqpQueue q = source(2);
        publish("job-q1");
        AmqpJob first = fetch(q);
        assertEquals(0, first.interruptions());
        q.handBack(first);
        AmqpJob second = fetch(q);
        assertEquals(1, second.interruptions(), "a basic.reject hand-back counts in x-delivery-count");
        q.handBack(second);
        assertEquals(Optional.empty(), q.fetch(), "the third delivery (count 2) was dead-lettered by guard, not run");
        GetResponse dead = null;
        for (int i = 0; i < 50 && dead == null; i++) {
            dead = adminChannel.basicGet(queue + ":dead", true);
            if (dead == null) {
                Thread.sleep(100);
            }
        }
        assertNotNull(dead, "guard's dead-letter queue holds the job: the broker's limit of 2 did not drop it first");
        assertEquals("interrupted 2 times (limit 2)", String.valueOf(dead.getProps().getHeaders().get("guard.reason")));
        assertEquals("job-q1", new String(dead.getBody(), StandardCharsets.UTF_8));
    }

    @Test
    void aQueueGuardDeclaresDeadLettersWhatTheBrokerDropsToGuardsDeadLetterQueue() throws Exception {
        source(3).close(); // declared; its consumer gone, so the message below waits for basic.get
        AmqpQueueArgs.Result read = AmqpQueueArgs.read(admin, queue, Map.of("x-queue-type", "quorum"));
        assertEquals(Map.of("x-queue-type", "quorum", "x-dead-letter-exchange", "",
                "x-dead-letter-routing-key", queue + ":dead"), read.args());
        // a message the broker gives up on (here: rejected without requeue by another consumer) lands there
        publish("job-q2");
        GetResponse r = null;
        for (int i = 0; i < 50 && r == null; i++) {
            r = adminChannel.basicGet(queue, false);
            if (r == null) {
                Thread.sleep(100);
            }
        }
        assertNotNull(r);
        if (!"job-q2".equals(new String(r.getBody(), StandardCharsets.UTF_8))) {
            throw new AssertionError("unexpected message");
        }
        adminChannel.basicReject(r.getEnvelope().getDeliveryTag(), false);
        GetResponse dead = null;
        for (int i = 0; i < 50 && dead == null; i++) {
            dead = adminChannel.basicGet(queue + ":dead", true);
            if (dead == null) {
                Thread.sleep(100);
            }
        }
        assertNotNull(dead, "dead-lettered by the broker into guard's dead-letter queue");
        assertNotNull(dead.getProps().getHeaders().get("x-death"), "with the broker's x-death record");
    }

    @Test
    void aClassicQueueBuiltAsQuorumIsRefusedWithTheBrokersWords() throws Exception {
        adminChannel.queueDeclare(queue, true, false, false, null);
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> source(3));
        assertTrue(e.getMessage().contains("was built as a quorum queue (quorum(true)), but RabbitMQ has it otherwise:"
                + " 406 PRECONDITION_FAILED - inequivalent arg 'x-queue-type'"), e.getMessage());
        assertNull(AmqpQueueArgs.read(admin, queue, Map.of()).mismatch(), "read with nothing expected: equivalent");
    }
}
