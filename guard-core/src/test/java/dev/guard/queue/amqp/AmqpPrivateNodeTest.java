package dev.guard.queue.amqp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import dev.guard.drain.SourceLostException;
import dev.guard.testing.NoLeakedProcesses;
import dev.guard.testing.RabbitMqNode;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@link AmqpQueue} on a private node of the machine's RabbitMQ (3.10.8), for what the shared one
 * must not be changed for: a {@code consumer_timeout} of 1 s with a channel tick of 200 ms (both
 * read when a channel opens; rabbit_channel: {@code get_consumer_timeout()},
 * {@code channel_tick_interval}), and a user without configure permission.
 */
@ExtendWith(NoLeakedProcesses.class)
class AmqpPrivateNodeTest {

    static RabbitMqNode node;

    @BeforeAll
    static void start() {
        node = RabbitMqNode.builder().build().start();
        node.ctl("eval", "application:set_env(rabbit, consumer_timeout, 1000),"
                + " application:set_env(rabbit, channel_tick_interval, 200).");
    }

    @AfterAll
    static void stop() {
        if (node != null) {
            node.close();
        }
    }

    /**
     * A job held past the consumer timeout: the broker closes the channel, the source names the
     * cause and what to do, and the job goes back to the queue, counted, for the next consumer.
     */
    @Test
    void aJobHeldPastTheConsumerTimeoutIsNamedAndComesBackCounted() throws Exception {
        try (Connection admin = AmqpQueueTest.factory(node.uri()).newConnection("admin");
                Connection worker = AmqpQueueTest.factory(node.uri()).newConnection("worker")) {
            Channel ch = admin.createChannel();
            AmqpQueue q = AmqpQueue.builder(worker, "jobs").quorum(true).pollTimeout(Duration.ofMillis(200))
                    .idOf((payload, messageId) -> payload).build();
            ch.basicPublish("", "jobs", new AMQP.BasicProperties.Builder().deliveryMode(2).build(),
                    "job-slow".getBytes(StandardCharsets.UTF_8));
            AmqpJob held = null;
            for (int i = 0; i < 50 && held == null; i++) {
                held = q.fetch().orElse(null);
            }
            assertEquals("job-slow", held.id());
            long until = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            SourceLostException lost = null;
            while (lost == null && System.nanoTime() < until) {
                Thread.sleep(200); // the job runs on, past the timeout
                try {
                    q.fetch();
                } catch (SourceLostException e) {
                    lost = e;
                }
            }
            assertTrue(lost != null, "the channel was not closed within 30 s");
            assertTrue(lost.getMessage().contains("RabbitMQ closed the channel because a job was held longer than its"
                    + " consumer timeout (406 PRECONDITION_FAILED - delivery acknowledgement on channel"), lost.getMessage());
            assertTrue(lost.getMessage().contains("Action: raise the timeout for this queue"), lost.getMessage());
            q.close();
            try (Connection next = AmqpQueueTest.factory(node.uri()).newConnection("next")) {
                AmqpQueue again = AmqpQueue.builder(next, "jobs").quorum(true).pollTimeout(Duration.ofMillis(200))
                        .idOf((payload, messageId) -> payload).build();
                Optional<AmqpJob> job = Optional.empty();
                for (int i = 0; i < 50 && job.isEmpty(); i++) {
                    job = again.fetch();
                }
                assertEquals("job-slow", job.orElseThrow().id(), "the timed-out job is in the queue again");
                assertEquals(1, job.get().interruptions(), "3.10 counts the return in x-delivery-count");
                again.ack(job.get());
                again.close();
            }
        }
    }

    /**
     * A worker whose user may read and write but not configure (the least privilege a consumer
     * needs): guard cannot read the queue's arguments by declaring it, says so with what to check,
     * and consumes.
     */
    @Test
    void aUserWithoutConfigurePermissionConsumesWithAWarningInsteadOfTheLimitCheck() throws Exception {
        try (Connection admin = AmqpQueueTest.factory(node.uri()).newConnection("admin")) {
            admin.createChannel().queueDeclare("limited", true, false, false, Map.of("x-queue-type", "quorum",
                    "x-delivery-limit", 1));
        }
        node.ctl("add_user", "worker", "worker-pass");
        node.ctl("set_permissions", "-p", "/", "worker", "^$", ".*", ".*");
        String uri = node.uri().replace("guest:guest", "worker:worker-pass");
        try (Connection worker = AmqpQueueTest.factory(uri).newConnection("worker")) {
            AmqpQueue q = AmqpQueue.builder(worker, "limited").quorum(true).declare(false)
                    .pollTimeout(Duration.ofMillis(200)).build();
            assertEquals(Optional.empty(), q.fetch(), "consuming: the queue is empty");
            q.close();
        }
        try (Connection worker = AmqpQueueTest.factory(uri).newConnection("worker")) {
            Exception e = org.junit.jupiter.api.Assertions.assertThrows(Exception.class,
                    () -> worker.createChannel().queueDeclare("limited", true, false, false,
                            Map.of("x-queue-type", "quorum", "x-delivery-limit", 1)));
            assertTrue(String.valueOf(AmqpQueueArgs.closeText(e)).startsWith("403 ACCESS_REFUSED"),
                    "the user may indeed not declare: " + AmqpQueueArgs.closeText(e));
        }
    }
}
