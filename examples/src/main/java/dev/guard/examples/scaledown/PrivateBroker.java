package dev.guard.examples.scaledown;

import dev.guard.testing.KafkaBroker;
import dev.guard.testing.KafkaCluster;
import dev.guard.testing.LocalServer;
import dev.guard.testing.NatsCluster;
import dev.guard.testing.NatsServer;
import dev.guard.testing.RabbitMqCluster;
import dev.guard.testing.RabbitMqNode;
import dev.guard.testing.RedisSentinelSet;
import dev.guard.testing.RedisServer;
import java.time.Duration;
import java.util.Map;

/**
 * A broker of the fault matrix's own, one per cell, that the matrix may kill and start again:
 * never the machine's shared servers. Each keeps what it holds the way the stack declares it
 * (guard's persistence check at boot accepts every one): Redis with {@code appendonly yes}
 * ({@code appendfsync everysec}), a RabbitMQ node with a durable queue and persistent messages,
 * JetStream with file storage, Kafka's log. Each listens where a worker in the matrix's network
 * namespace reaches it ({@code host}, an address of this machine).
 *
 * <p>{@link #replicated} gives the failover cells theirs: a Redis master and replica (both with
 * the append-only file) watched by three sentinels, three clustered {@code nats-server}s with
 * the stream stored three times, three KRaft nodes with topics replicated three ways
 * ({@code min.insync.replicas=2}), three RabbitMQ nodes with the jobs on a quorum queue.
 */
final class PrivateBroker implements AutoCloseable {

    private static final Duration FAILOVER_WAIT = Duration.ofSeconds(60);

    private final Transport.Kind kind;
    private final LocalServer<?> server;
    private final String host;
    private final RedisSentinelSet sentinels;
    private final NatsCluster natsCluster;
    private final KafkaCluster kafkaCluster;
    private final RabbitMqCluster rabbitCluster;
    /** What {@link #killLeader} killed, for {@link #awaitNewLeader}. */
    private Object killed;

    private PrivateBroker(Transport.Kind kind, LocalServer<?> server, String host, RedisSentinelSet sentinels,
            NatsCluster natsCluster, KafkaCluster kafkaCluster) {
        this(kind, server, host, sentinels, natsCluster, kafkaCluster, null);
    }

    private PrivateBroker(Transport.Kind kind, LocalServer<?> server, String host, RedisSentinelSet sentinels,
            NatsCluster natsCluster, KafkaCluster kafkaCluster, RabbitMqCluster rabbitCluster) {
        this.rabbitCluster = rabbitCluster;
        this.kind = kind;
        this.server = server;
        this.host = host;
        this.sentinels = sentinels;
        this.natsCluster = natsCluster;
        this.kafkaCluster = kafkaCluster;
    }

    /** Builds and starts the broker of {@code kind}, reachable at {@code host}. */
    static PrivateBroker start(Transport.Kind kind, String host) {
        LocalServer<?> server = switch (kind) {
            case REDIS -> RedisServer.builder().alsoBind(host).args("--appendonly", "yes", "--appendfsync", "everysec")
                    .build();
            case RABBITMQ -> RabbitMqNode.builder().listenOn("0.0.0.0").build();
            case NATS -> NatsServer.builder().listenOn("0.0.0.0").build();
            case KAFKA -> KafkaBroker.builder().advertisedHost(host).build();
        };
        PrivateBroker broker = new PrivateBroker(kind, server, host, null, null, null);
        try {
            server.start();
            return broker;
        } catch (RuntimeException e) {
            server.close();
            throw e;
        }
    }

    /** The replicated form of {@code kind}, on 127.0.0.1 (no worker of a failover cell is in the namespace). */
    static PrivateBroker replicated(Transport.Kind kind) {
        return switch (kind) {
            case REDIS -> new PrivateBroker(kind, null, "127.0.0.1", RedisSentinelSet.builder()
                    .masterArgs("--appendonly", "yes", "--appendfsync", "everysec")
                    .replicaArgs("--appendonly", "yes", "--appendfsync", "everysec").build().start(), null, null);
            case NATS -> new PrivateBroker(kind, null, "127.0.0.1", null, NatsCluster.start(3, "127.0.0.1"), null);
            case KAFKA -> new PrivateBroker(kind, null, "127.0.0.1", null, null, KafkaCluster.start(3, null));
            case RABBITMQ -> new PrivateBroker(kind, null, "127.0.0.1", null, null, null,
                    RabbitMqCluster.start(3, "127.0.0.1"));
        };
    }

    Transport.Kind kind() {
        return kind;
    }

    /** The orchestrator's view of it (queue, pending, dead letters), by the address workers use too. */
    Transport transport() throws Exception {
        if (sentinels != null) {
            return new RedisTransport(sentinels.uri(host));
        }
        if (natsCluster != null) {
            return new NatsTransport(natsCluster.url(host), 3);
        }
        if (kafkaCluster != null) {
            return new KafkaTransport(kafkaCluster.bootstrapServers(), (short) 3, () -> { }, "the nodes' broker.log");
        }
        if (rabbitCluster != null) {
            return new AmqpTransport(rabbitCluster.uri(host));
        }
        return switch (kind) {
            case REDIS -> new RedisTransport("redis://" + host + ":" + server.port());
            case RABBITMQ -> new AmqpTransport(((RabbitMqNode) server).uri(host));
            case NATS -> new NatsTransport("nats://" + host + ":" + server.port());
            case KAFKA -> new KafkaTransport((KafkaBroker) server);
        };
    }

    /** The port clients use: what a partition cuts. */
    int clientPort() {
        requireSingle("a partition");
        return server.port();
    }

    /** SIGKILL: the broker dies at once, mid-write. */
    void kill() {
        requireSingle("a broker restart");
        server.kill();
    }

    /** Starts it again on its port and data; returns once it serves. */
    void restart() {
        requireSingle("a broker restart");
        server.start();
    }

    /**
     * SIGKILLs the leader of what the cell's jobs are on: the Redis master, the server that leads
     * the JetStream stream, the Kafka node that leads partition 0 of the jobs topic, the RabbitMQ
     * node that leads the quorum queue. Returns what it killed.
     */
    String killLeader(String prefix) throws Exception {
        if (sentinels != null) {
            killed = sentinels.master();
            sentinels.master().kill();
            return "Redis master :" + sentinels.master().port();
        }
        if (natsCluster != null) {
            String leader = natsCluster.leaderOf(NatsTransport.stream(prefix));
            killed = leader;
            natsCluster.server(leader).kill();
            return "nats-server " + leader + ", leader of stream " + NatsTransport.stream(prefix);
        }
        if (kafkaCluster != null) {
            Map<Integer, Integer> leaders = kafkaCluster.leaders(KafkaTransport.topic(prefix));
            int node = leaders.get(0);
            killed = node;
            long led = leaders.values().stream().filter(n -> n == node).count();
            kafkaCluster.broker(node).kill();
            return "Kafka node " + node + ", leader of " + led + " of " + leaders.size() + " partitions";
        }
        if (rabbitCluster != null) {
            String leader = rabbitCluster.leaderOf(prefix);
            if (leader == null) {
                throw new IllegalStateException("quorum queue " + prefix + " has no leader in " + rabbitCluster);
            }
            killed = leader;
            rabbitCluster.node(leader).kill();
            return "RabbitMQ node " + leader + ", leader of quorum queue " + prefix;
        }
        throw new IllegalStateException("a failover needs the replicated broker (PrivateBroker.replicated)");
    }

    /** Waits until what {@link #killLeader} killed is replaced; returns who leads now. */
    String awaitNewLeader(String prefix) throws Exception {
        long deadline = System.nanoTime() + FAILOVER_WAIT.toNanos();
        if (sentinels != null) {
            sentinels.awaitMasterPort(sentinels.replica().port(), FAILOVER_WAIT);
            return "Redis replica :" + sentinels.replica().port() + " promoted";
        }
        String last = "nothing yet";
        while (System.nanoTime() < deadline) {
            try {
                if (natsCluster != null) {
                    String leader = natsCluster.leaderOf(NatsTransport.stream(prefix));
                    if (leader != null && !leader.isEmpty() && !leader.equals(killed)) {
                        return "nats-server " + leader + " leads the stream";
                    }
                    last = "leader " + leader;
                } else if (rabbitCluster != null) {
                    String leader = rabbitCluster.leaderOf(prefix);
                    if (leader != null && !leader.isEmpty() && !leader.equals(killed)) {
                        return "RabbitMQ node " + leader + " leads the queue";
                    }
                    last = "leader " + leader;
                } else {
                    Map<Integer, Integer> leaders = kafkaCluster.leaders(KafkaTransport.topic(prefix));
                    if (leaders.values().stream().allMatch(n -> n > 0 && !n.equals(killed))) {
                        return "every partition led by a live node " + leaders;
                    }
                    last = "leaders " + leaders;
                }
            } catch (Exception e) {
                last = e.toString();
            }
            Thread.sleep(100);
        }
        throw new IllegalStateException("no new leader within " + FAILOVER_WAIT.toSeconds() + " s of the kill (last: "
                + last + ")");
    }

    /** What keeps its data, for the matrix's header. */
    String persistence() {
        if (sentinels != null) {
            return "Redis master + replica, appendonly yes, 3 sentinels (down-after 1 s)";
        }
        if (natsCluster != null) {
            return "3 clustered nats-servers, JetStream file storage, stream replicas 3";
        }
        if (kafkaCluster != null) {
            return "3 KRaft nodes, replication factor 3, min.insync.replicas 2, acks=all";
        }
        if (rabbitCluster != null) {
            return "3 RabbitMQ nodes, a quorum queue, persistent messages, publisher confirms";
        }
        return switch (kind) {
            case REDIS -> "Redis appendonly yes, appendfsync everysec";
            case RABBITMQ -> "RabbitMQ durable classic queue, persistent messages, publisher confirms";
            case NATS -> "JetStream file storage";
            case KAFKA -> "Kafka log, acks=all (one broker: replication factor 1)";
        };
    }

    private void requireSingle(String what) {
        if (server == null) {
            throw new IllegalStateException(what + " runs on a single broker, not on " + persistence());
        }
    }

    @Override
    public void close() {
        if (server != null) {
            server.close();
        }
        if (sentinels != null) {
            sentinels.close();
        }
        if (natsCluster != null) {
            natsCluster.close();
        }
        if (kafkaCluster != null) {
            kafkaCluster.close();
        }
        if (rabbitCluster != null) {
            rabbitCluster.close();
        }
    }
}
