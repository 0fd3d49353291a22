package dev.guard.examples.scaledown;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import com.rabbitmq.client.GetResponse;
import dev.guard.drain.JobSource;
import dev.guard.queue.amqp.AmqpQueue;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * RabbitMQ (the machine's, a queue per run): guard's {@link AmqpQueue}, manual ack after the job;
 * the first two rows ack on receipt (autoAck).
 */
final class AmqpTransport implements Transport {

    /**
     * The heartbeat a worker asks for: the broker closes a silent worker's connection (and requeues
     * what it held) after two missed beats, so a partitioned worker is noticed in about 10 s, not the
     * default 60 s heartbeat's two minutes.
     */
    static final int HEARTBEAT_SECONDS = 5;

    private final String uri;
    private final Connection connection;
    private final Channel channel;

    /**
     * On the node at {@code uri}, or on a cluster when it names several ({@code amqp://u:p@h:p1,h:p2,h:p3}):
     * then the jobs' queue is a quorum queue, replicated on the nodes.
     */
    AmqpTransport(String uri) throws Exception {
        this.uri = uri;
        ConnectionFactory f = factory(uri);
        // the orchestrator outlives a broker restart of the fault matrix (the workers do not: see factory)
        f.setAutomaticRecoveryEnabled(true);
        f.setNetworkRecoveryInterval(500);
        this.connection = connect(f, uri, "scaledown-orchestrator");
        this.channel = connection.createChannel();
    }

    /** True when {@code uri} names several nodes: a cluster, whose jobs are on a quorum queue. */
    static boolean cluster(String uri) {
        return uri.contains(",");
    }

    /**
     * A worker's: no automatic recovery (guard's AmqpQueue ends the worker on a lost connection; it is
     * restarted). Credentials and the first node from {@code uri}.
     */
    static ConnectionFactory factory(String uri) throws Exception {
        ConnectionFactory f = new ConnectionFactory();
        f.setUri(cluster(uri) ? uri.substring(0, uri.indexOf(',')) : uri);
        f.setAutomaticRecoveryEnabled(false);
        f.setRequestedHeartbeat(HEARTBEAT_SECONDS);
        return f;
    }

    /**
     * Connects to the first node of {@code uri} that answers, the list rotated by {@code name} so
     * that a fleet's connections spread over the nodes as behind a load balancer (and some are on
     * the node a failover kills).
     */
    static Connection connect(ConnectionFactory f, String uri, String name) throws Exception {
        if (!cluster(uri)) {
            return f.newConnection(name);
        }
        String hosts = uri.substring(uri.lastIndexOf('@') + 1);
        List<com.rabbitmq.client.Address> addresses = new java.util.ArrayList<>();
        for (String h : hosts.split(",")) {
            addresses.add(com.rabbitmq.client.Address.parseAddress(h.trim()));
        }
        java.util.Collections.rotate(addresses, Math.floorMod(name.hashCode(), addresses.size()));
        return f.newConnection(addresses, name);
    }

    @Override
    public Kind kind() {
        return Kind.RABBITMQ;
    }

    @Override
    public String endpoint() {
        return uri;
    }

    @Override
    public long enqueue(String prefix, List<String> ids) throws Exception {
        Map<String, Object> quorum = cluster(uri) ? Map.of("x-queue-type", "quorum") : null;
        channel.queueDeclare(prefix, true, false, false, quorum);
        channel.queueDeclare(prefix + ":dead", true, false, false, quorum);
        channel.confirmSelect();
        AMQP.BasicProperties persistent = new AMQP.BasicProperties.Builder().deliveryMode(2).build();
        for (String id : ids) {
            channel.basicPublish("", prefix, persistent, id.getBytes(StandardCharsets.UTF_8));
        }
        channel.waitForConfirmsOrDie(60_000);
        return channel.queueDeclarePassive(prefix).getMessageCount();
    }

    /** Ready messages plus those unacked by a live worker (the broker's consumers hold them). */
    @Override
    public long pending(String prefix) throws Exception {
        AMQP.Queue.DeclareOk ok = channel.queueDeclarePassive(prefix);
        // unacked deliveries are not in the ready count; a queue with consumers may still hold them,
        // so a queue is settled only once the sink has not moved for a while (Experiment.SETTLE)
        return ok.getMessageCount();
    }

    @Override
    public boolean pendingCountsHeld() {
        return false;
    }

    @Override
    public Set<String> dead(String prefix) throws Exception {
        Set<String> ids = new HashSet<>();
        for (GetResponse r; (r = channel.basicGet(prefix + ":dead", false)) != null; ) {
            ids.add(new String(r.getBody(), StandardCharsets.UTF_8));
        }
        channel.basicRecover(true); // leave them there
        return ids;
    }

    @Override
    public void cleanUp(String prefix) {
        try {
            channel.queueDelete(prefix);
            channel.queueDelete(prefix + ":dead");
        } catch (Exception e) {
            System.err.println("scaledown: could not delete queue " + prefix + ": " + e);
        }
    }

    @Override
    public void close() {
        try {
            connection.close();
        } catch (Exception ignored) {
            // gone already
        }
    }

    /** A worker's sources on its own connection ({@code quorum}: the queue is a quorum queue). */
    static Sources sources(Connection connection, boolean quorum) {
        return (mode, prefix, workerId, config) -> {
            JobSource<?> q = AmqpQueue.builder(connection, prefix).quorum(quorum).consumerName(workerId).pollTimeout(Worker.POLL)
                    .handBackTimeout(config.safetyMargin()).idOf((payload, messageId) -> payload).build();
            return mode.acksOnReceipt() ? new AckOnReceipt<>(q) : q;
        };
    }
}
