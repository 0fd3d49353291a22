package dev.guard.examples.scaledown;

import dev.guard.testing.KafkaBroker;
import dev.guard.testing.LocalServer;
import dev.guard.testing.NatsServer;
import dev.guard.testing.RabbitMqNode;
import dev.guard.testing.RedisServer;

/**
 * A broker of the fault matrix's own, one per cell, that the matrix may kill and start again:
 * never the machine's shared servers. Each keeps what it holds the way the stack declares it
 * (guard's persistence check at boot accepts every one): Redis with {@code appendonly yes}
 * ({@code appendfsync everysec}), a RabbitMQ node with a durable queue and persistent messages,
 * JetStream with file storage, Kafka's log. Each listens where a worker in the matrix's network
 * namespace reaches it ({@code host}, an address of this machine).
 */
final class PrivateBroker implements AutoCloseable {

    private final Transport.Kind kind;
    private final LocalServer<?> server;
    private final String host;

    private PrivateBroker(Transport.Kind kind, LocalServer<?> server, String host) {
        this.kind = kind;
        this.server = server;
        this.host = host;
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
        PrivateBroker broker = new PrivateBroker(kind, server, host);
        try {
            server.start();
            return broker;
        } catch (RuntimeException e) {
            server.close();
            throw e;
        }
    }

    Transport.Kind kind() {
        return kind;
    }

    /** The orchestrator's view of it (queue, pending, dead letters), by the address workers use too. */
    Transport transport() throws Exception {
        return switch (kind) {
            case REDIS -> new RedisTransport("redis://" + host + ":" + server.port());
            case RABBITMQ -> new AmqpTransport(((RabbitMqNode) server).uri(host));
            case NATS -> new NatsTransport("nats://" + host + ":" + server.port());
            case KAFKA -> new KafkaTransport((KafkaBroker) server);
        };
    }

    /** The port clients use: what a partition cuts. */
    int clientPort() {
        return server.port();
    }

    /** SIGKILL: the broker dies at once, mid-write. */
    void kill() {
        server.kill();
    }

    /** Starts it again on its port and data; returns once it serves. */
    void restart() {
        server.start();
    }

    /** What keeps its data, for the matrix's header. */
    String persistence() {
        return switch (kind) {
            case REDIS -> "Redis appendonly yes, appendfsync everysec";
            case RABBITMQ -> "RabbitMQ durable classic queue, persistent messages, publisher confirms";
            case NATS -> "JetStream file storage";
            case KAFKA -> "Kafka log, acks=all (one broker: replication factor 1)";
        };
    }

    @Override
    public void close() {
        server.close();
    }
}
