package dev.guard.queue.amqp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import com.rabbitmq.client.GetResponse;
import dev.guard.drain.JobClock;
import dev.guard.drain.SourceLostException;
import dev.guard.testing.MachineServices;
import dev.guard.testing.TcpProxy;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link AmqpQueue} against the machine's RabbitMQ, on a classic and on a quorum queue: ack after
 * the handler, hand-back counted as an interruption, the dead-letter queue at the limit and on
 * failure, prefetched deliveries returned at close, and a worker whose connection drops (a proxy
 * that closes it, as a dead node would) whose job the next consumer gets; and a quorum queue's own
 * delivery limit and dead-letter target against guard's limit.
 */
class AmqpQueueTest {

    private final String queue = MachineServices.uniqueName("guard-amqp");
    private final List<AutoCloseable> closing = new ArrayList<>();
    private Connection admin;
    private Channel adminChannel;

    @BeforeEach
    void connect() throws Exception {
        admin = factory(MachineServices.amqpUri()).newConnection("guard-test-admin");
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

    static ConnectionFactory factory(String uri) throws Exception {
        ConnectionFactory f = new ConnectionFactory();
        f.setUri(uri);
        f.setAutomaticRecoveryEnabled(false);
        return f;
    }

    private Connection connection() throws Exception {
        Connection c = factory(MachineServices.amqpUri()).newConnection("guard-test-worker");
        closing.add(() -> {
            if (c.isOpen()) {
                c.close();
            }
        });
        return c;
    }

    private AmqpQueue source(Connection c, boolean quorum, int maxInterruptions) {
        AmqpQueue q = AmqpQueue.builder(c, queue).quorum(quorum).maxInterruptions(maxInterruptions)
                .pollTimeout(Duration.ofMillis(200)).idOf((payload, messageId) -> payload).build();
        closing.add(q);
        return q;
    }

    private void publish(String... bodies) throws Exception {
        for (String b : bodies) {
            adminChannel.basicPublish("", queue, new AMQP.BasicProperties.Builder().deliveryMode(2).build(),
                    b.getBytes(StandardCharsets.UTF_8));
        }
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

    private long count(String name) throws Exception {
        // passive declare gives the ready count; unacked deliveries are not in it
        return adminChannel.queueDeclarePassive(name).getMessageCount();
    }

    private void awaitCount(String name, long expected) throws Exception {
        long until = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (count(name) != expected) {
            if (System.nanoTime() > until) {
                throw new AssertionError(name + " holds " + count(name) + " ready messages, expected " + expected);
            }
            Thread.sleep(50);
        }
    }

    @ParameterizedTest(name = "quorum={0}")
    @ValueSource(booleans = {false, true})
    void ackedAfterTheHandlerTheJobIsGone(boolean quorum) throws Exception {
        AmqpQueue q = source(connection(), quorum, 3);
        publish("job-a1");
        AmqpJob job = fetch(q);
        assertEquals("job-a1", job.id());
        assertEquals(0, job.interruptions());
        q.ack(job);
        q.close();
        awaitCount(queue, 0);
    }

    @ParameterizedTest(name = "quorum={0}")
    @ValueSource(booleans = {false, true})
    void aHandBackComesBackCountedAndTheLimitDeadLettersIt(boolean quorum) throws Exception {
        AmqpQueue q = source(connection(), quorum, 2);
        publish("job-h1");
        AmqpJob first = fetch(q);
        q.handBack(first);
        AmqpJob again = fetch(q);
        assertEquals("job-h1", again.id());
        assertEquals(1, again.interruptions(), again.toString());
        q.handBack(again);
        assertEquals(Optional.empty(), q.fetch(), "the second interruption of 2 is the limit: not handed out again");
        awaitCount(queue + ":dead", 1);
        GetResponse dead = adminChannel.basicGet(queue + ":dead", true);
        assertEquals("job-h1", new String(dead.getBody(), StandardCharsets.UTF_8));
        assertEquals("interrupted 2 times (limit 2)", String.valueOf(dead.getProps().getHeaders().get("guard.reason")));
        awaitCount(queue, 0);
    }

    @ParameterizedTest(name = "quorum={0}")
    @ValueSource(booleans = {false, true})
    void aFailedJobIsDeadLetteredWithItsReason(boolean quorum) throws Exception {
        AmqpQueue q = source(connection(), quorum, 3);
        publish("job-f1");
        q.fail(fetch(q), new IllegalStateException("thumbnail service said 500"));
        awaitCount(queue + ":dead", 1);
        GetResponse dead = adminChannel.basicGet(queue + ":dead", true);
        assertTrue(String.valueOf(dead.getProps().getHeaders().get("guard.reason")).contains("thumbnail service said 500"));
        q.close();
        awaitCount(queue, 0);
    }

    @ParameterizedTest(name = "quorum={0}")
    @ValueSource(booleans = {false, true})
    void closeReturnsWhatWasPrefetchedAndNotTaken(boolean quorum) throws Exception {
        Connection c = connection();
        AmqpQueue q = AmqpQueue.builder(c, queue).quorum(quorum).prefetch(5).pollTimeout(Duration.ofMillis(200)).build();
        publish("p1", "p2", "p3");
        AmqpJob taken = fetch(q);
        q.ack(taken);
        Thread.sleep(300); // the other two arrive in the consumer's buffer
        q.close();
        awaitCount(queue, 2);
    }

    @ParameterizedTest(name = "quorum={0}")
    @ValueSource(booleans = {false, true})
    void aWorkerWhoseConnectionDropsLosesNothingAndTheNextOneCountsIt(boolean quorum) throws Exception {
        source(connection(), quorum, 3).close(); // declare the queue before the proxied worker
        URI uri = URI.create(MachineServices.amqpUri());
        try (TcpProxy proxy = TcpProxy.forward(uri.getHost(), uri.getPort() < 0 ? 5672 : uri.getPort())) {
            String viaProxy = uri.getScheme() + "://" + uri.getRawUserInfo() + "@" + proxy.host() + ":" + proxy.port();
            Connection dying = factory(viaProxy).newConnection("guard-test-dying-worker");
            closing.add(() -> dying.abort());
            AmqpQueue a = AmqpQueue.builder(dying, queue).quorum(quorum).declare(false)
                    .pollTimeout(Duration.ofMillis(200)).idOf((payload, messageId) -> payload).build();
            publish("job-k1");
            assertEquals("job-k1", fetch(a).id());
            proxy.mode(TcpProxy.Mode.REFUSE); // the broker sees the TCP connection close: the worker's node is gone
            SourceLostException lost = assertThrows(SourceLostException.class, () -> {
                for (int i = 0; i < 100; i++) {
                    a.fetch();
                }
            });
            assertTrue(lost.getMessage().contains("unacked deliveries go back to the queue"), lost.getMessage());
            AmqpJob picked = fetch(source(connection(), quorum, 3));
            assertEquals("job-k1", picked.id());
            assertTrue(picked.redelivered());
            assertEquals(1, picked.interruptions(), picked.toString());
        }
    }

    /**
     * A quorum source's dead letters go to a quorum queue too (a classic one lives on one node: the
     * fault matrix's RabbitMQ failover stopped every new worker with "home node ... is down"); a
     * dead-letter queue that exists already is kept as it is, not declared over (which would fail).
     */
    @Test
    void aQuorumSourceDeclaresAQuorumDeadLetterQueueAndKeepsAnExistingOne() throws Exception {
        source(connection(), true, 3);
        assertEquals("quorum", queueType(queue + ":dead"));

        String other = MachineServices.uniqueName("guard-amqp-kept");
        adminChannel.queueDeclare(other + ":dead", true, false, false, null);
        try (AmqpQueue q = AmqpQueue.builder(connection(), other).quorum(true).pollTimeout(Duration.ofMillis(200)).build()) {
            assertEquals("classic", queueType(other + ":dead"));
        } finally {
            adminChannel.queueDelete(other);
            adminChannel.queueDelete(other + ":dead");
        }
    }

    /** The queue's type as the machine's node reports it ({@code rabbitmqctl list_queues name type}). */
    private static String queueType(String name) throws Exception {
        Process p = new ProcessBuilder("rabbitmqctl", "list_queues", "name", "type", "--quiet", "--no-table-headers")
                .redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, java.util.concurrent.TimeUnit.SECONDS), "rabbitmqctl did not end");
        for (String line : out.split("\n")) {
            String[] cols = line.trim().split("\t");
            if (cols.length == 2 && cols[0].equals(name)) {
                return cols[1];
            }
        }
        throw new AssertionError("rabbitmqctl list_queues does not list " + name + ":\n" + out);
    }

    /** A quorum source on {@link #queue}, over a connection of its own. */
    private AmqpQueue quorumSource(int maxInterruptions) throws Exception {
        AmqpQueue q = AmqpQueue.builder(connection(), queue).quorum(true).maxInterruptions(maxInterruptions)
                .pollTimeout(Duration.ofMillis(200)).idOf((payload, messageId) -> payload).build();
        closing.add(q);
        return q;
    }

    // a quorum queue's own limits against guard's, with the 4.x settings set explicitly
    // (x-delivery-limit, a dead-letter target): read at build, a limit below guard's refused unless
    // the broker dead-letters too, guard's hand-backs counted up to a limit equal to guard's (the job
    // reaches guard's dead-letter queue, not the broker's drop), and the target guard gives a queue

    @Test
    void aDeliveryLimitBelowGuardsWithoutADeadLetterTargetIsRefusedAtBuild() throws Exception {
        adminChannel.queueDeclare(queue, true, false, false, Map.of("x-queue-type", "quorum", "x-delivery-limit", 2));
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> quorumSource(3));
        assertTrue(e.getMessage().contains("RabbitMQ drops a job interrupted more than 2 times (x-delivery-limit 2, no"
                + " dead-letter exchange), before guard dead-letters it at 3"), e.getMessage());
        assertTrue(e.getMessage().contains("Action: maxInterruptions(2) or less"), e.getMessage());
        quorumSource(2); // at the limit: builds
        Map<String, Object> args = AmqpQueueArgs.read(admin, queue, Map.of("x-queue-type", "quorum")).args();
        assertEquals(Map.of("x-queue-type", "quorum", "x-delivery-limit", 2), args, "read, and left as it was");
    }

    @Test
    void aLowerLimitWithADeadLetterTargetBuildsSinceTheBrokerDeadLettersToo() throws Exception {
        adminChannel.queueDeclare(queue, true, false, false, Map.of("x-queue-type", "quorum", "x-delivery-limit", 1,
                "x-dead-letter-exchange", "", "x-dead-letter-routing-key", queue + ":dead"));
        quorumSource(3);
        AmqpQueueArgs.Result read = AmqpQueueArgs.read(admin, queue, Map.of("x-queue-type", "quorum"));
        assertEquals(1, read.args().get("x-delivery-limit"));
        assertEquals("", read.args().get("x-dead-letter-exchange"));
        assertEquals(queue + ":dead", read.args().get("x-dead-letter-routing-key"));
    }

    @Test
    void guardsHandBacksAreCountedByTheBrokerAndAJobAtALimitEqualToGuardsReachesGuardsDeadLetterQueue()
            throws Exception {
        adminChannel.queueDeclare(queue, true, false, false, Map.of("x-queue-type", "quorum", "x-delivery-limit", 2));
        AmqpQueue q = quorumSource(2);
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
        quorumSource(3).close(); // declared; its consumer gone, so the message below waits for basic.get
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
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> quorumSource(3));
        assertTrue(e.getMessage().contains("was built as a quorum queue (quorum(true)), but RabbitMQ has it otherwise:"
                + " 406 PRECONDITION_FAILED - inequivalent arg 'x-queue-type'"), e.getMessage());
        assertNull(AmqpQueueArgs.read(admin, queue, Map.of()).mismatch(), "read with nothing expected: equivalent");
    }

    /**
     * The clocks read from a quorum queue declared elsewhere with a message TTL and a consumer
     * timeout, and the consumer's own x-consumer-timeout sent on basic.consume; then what the TTL
     * row says, happening: a job returned to the queue after its TTL (the reject that is a quorum
     * queue's hand-back keeps the original expiry) is dropped, not delivered again.
     */
    @Test
    void theClocksAreTheQueuesAndAJobReturnedPastItsTtlIsGone() throws Exception {
        adminChannel.queueDeclare(queue, true, false, false, Map.of("x-queue-type", "quorum", "x-message-ttl", 1500,
                "x-consumer-timeout", 600_000));
        AmqpQueue q = AmqpQueue.builder(connection(), queue).quorum(true).consumerTimeout(Duration.ofMinutes(5))
                .pollTimeout(Duration.ofMillis(200)).idOf((payload, messageId) -> payload).build();
        closing.add(q);
        String version = AmqpQueue.serverVersion(admin);
        List<JobClock> clocks = q.clocks();
        JobClock timeout = clocks.stream().filter(c -> c.name().equals("consumer timeout")).findFirst().orElseThrow();
        assertEquals(JobClock.Effect.LIMITS_RUN, timeout.effect());
        if (AmqpQueue.atLeast(version, 3, 12)) {
            assertEquals(Duration.ofMinutes(5), timeout.value(), "the consumer's own argument takes precedence");
            assertEquals("x-consumer-timeout of this consumer", timeout.origin());
        } else {
            // this machine's 3.10.8: the arguments are accepted and ignored; the global default applies, assumed
            assertEquals(Duration.ofMinutes(30), timeout.value());
            assertTrue(timeout.assumed());
            assertTrue(timeout.origin().startsWith("RabbitMQ " + version + " ignores x-consumer-timeout"), timeout.origin());
        }
        JobClock ttl = clocks.stream().filter(c -> c.name().equals("message TTL")).findFirst().orElseThrow();
        assertEquals(Duration.ofMillis(1500), ttl.value());
        assertEquals(JobClock.Effect.LIMITS_AGE, ttl.effect());
        assertTrue(ttl.consequence().startsWith("is dropped by RabbitMQ"), ttl.consequence());

        publish("job-ttl");
        AmqpJob job = fetch(q);
        Thread.sleep(2_000);
        q.handBack(job);
        assertEquals(Optional.empty(), fetchWithin(q, Duration.ofSeconds(2)), "the job came back after its TTL");
        assertEquals(0, count(queue));
    }

    private static Optional<AmqpJob> fetchWithin(AmqpQueue q, Duration within) {
        long until = System.nanoTime() + within.toNanos();
        while (System.nanoTime() < until) {
            Optional<AmqpJob> job = q.fetch();
            if (job.isPresent()) {
                return job;
            }
        }
        return Optional.empty();
    }
}
