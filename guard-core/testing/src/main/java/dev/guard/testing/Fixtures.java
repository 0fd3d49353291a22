package dev.guard.testing;

/**
 * One entry point for the fixture servers, whatever provides them: a local binary when the
 * machine has it (here: redis-server, nats-server), else a Testcontainers container when a
 * Docker engine answers, else a failure naming what to install. Kafka always runs as a child
 * JVM from the test classpath. System property {@code guard.fixtures.backend=local|docker}
 * forces a backend.
 */
public final class Fixtures {

    private Fixtures() {}

    /** A private Redis, built (port and dir chosen), not started: call {@code start()} or {@code startLoading()}. */
    public static RedisServer redis() {
        return RedisServer.builder().build();
    }

    /** A Redis builder with the same backend choice, for a password or loading-mode settings. */
    public static RedisServer.Builder redisBuilder() {
        return RedisServer.builder();
    }

    /** A private NATS with JetStream, built (port reserved), not started. */
    public static NatsServer nats() {
        return NatsServer.builder().build();
    }

    /** A NATS builder with the same backend choice. */
    public static NatsServer.Builder natsBuilder() {
        return NatsServer.builder();
    }

    /** A single-node KRaft broker, built (ports reserved), not started. */
    public static KafkaBroker kafka() {
        return KafkaBroker.builder().build();
    }

    /** "local" or "docker": what {@link #redis()} and {@link #nats()} would use on this machine. */
    public static String backend() {
        return Children.localOrDocker("redis-server", "apt-get install redis-server").isPresent() ? "local" : "docker";
    }
}
