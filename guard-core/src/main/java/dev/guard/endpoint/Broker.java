package dev.guard.endpoint;

import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The brokers guard probes and drains, with what every message about them needs: the service
 * word ("the Redis service"), the schemes and default port, an example value, the client
 * artifact that must be on the classpath, and the words that name the broker in a setting's name.
 */
public enum Broker {
    REDIS("Redis", "io.lettuce:lettuce-core", "redis://redis:6379", "redis:6379",
            List.of("redis", "rediss", "redis-sentinel", "rediss-sentinel", "redis-socket"),
            List.of("REDIS", "VALKEY", "KEYDB", "CACHE")),
    RABBITMQ("RabbitMQ", "com.rabbitmq:amqp-client", "amqp://rabbitmq:5672", "rabbitmq:5672",
            List.of("amqp", "amqps"), List.of("AMQP", "RABBIT", "RABBITMQ", "CLOUDAMQP")),
    NATS("NATS", "io.nats:jnats", "nats://nats:4222", "nats:4222",
            List.of("nats", "tls"), List.of("NATS")),
    KAFKA("Kafka", "org.apache.kafka:kafka-clients", "kafka://kafka-0.kafka:9092,kafka://kafka-1.kafka:9092",
            "kafka-0.kafka:9092,kafka-1.kafka:9092",
            List.of("kafka", "plaintext", "ssl", "sasl_plaintext", "sasl_ssl"), List.of("KAFKA", "BOOTSTRAP"));

    private final String product;
    private final String clientArtifact;
    private final String exampleUrl;
    private final String exampleHostList;
    private final List<String> schemes;
    private final List<String> nameWords;

    Broker(String product, String clientArtifact, String exampleUrl, String exampleHostList, List<String> schemes,
            List<String> nameWords) {
        this.product = product;
        this.clientArtifact = clientArtifact;
        this.exampleUrl = exampleUrl;
        this.exampleHostList = exampleHostList;
        this.schemes = schemes;
        this.nameWords = nameWords;
    }

    /** Its name: {@code Redis}, {@code RabbitMQ}, {@code NATS}, {@code Kafka}. */
    public String product() {
        return product;
    }

    /** How a message names the servers: {@code Redis service}, {@code Kafka brokers}. */
    public String service() {
        return product + (this == KAFKA ? " brokers" : " service");
    }

    /** The Maven coordinates of the client guard uses for it ({@code io.lettuce:lettuce-core}). */
    public String clientArtifact() {
        return clientArtifact;
    }

    /** An example URL for messages ({@code redis://redis:6379}). */
    public String exampleUrl() {
        return exampleUrl;
    }

    /** An example {@code host:port} list for messages ({@code kafka-0.kafka:9092,kafka-1.kafka:9092}). */
    public String exampleHostList() {
        return exampleHostList;
    }

    /** The upper-case words that name this broker in a setting's name ({@code REDIS}, {@code CACHE}). */
    public List<String> nameWords() {
        return nameWords;
    }

    /** Every URL scheme that means this broker, lower case, the plain one first. */
    public List<String> schemes() {
        return schemes;
    }

    /** The port a URL of this broker means when it names none (the plain scheme's). */
    public int defaultPort() {
        return Scheme.of(schemes.get(0)).map(Scheme::defaultPort).orElseThrow();
    }

    /** The broker a URL scheme means ({@code rediss} is Redis), if any. */
    public static Optional<Broker> ofScheme(String scheme) {
        return Scheme.of(scheme).map(Scheme::broker);
    }

    /**
     * The broker a setting's name is about, if it contains a word that says so: {@code REDIS_URL},
     * {@code CACHE_URL}, {@code SPRING_RABBITMQ_ADDRESSES}, {@code KAFKA_BOOTSTRAP_SERVERS},
     * {@code REDISURL}. For messages (examples, service words) only: {@code CACHE} may be
     * Memcached, so {@link #namedSurelyBy(String)} decides whether a scheme can be refused.
     */
    public static Optional<Broker> ofName(String name) {
        if (name == null) {
            return Optional.empty();
        }
        String n = name.toUpperCase(Locale.ROOT);
        for (Broker b : values()) {
            for (String w : b.nameWords) {
                if (n.contains(w)) {
                    return Optional.of(b);
                }
            }
        }
        return Optional.empty();
    }

    /** True when {@code name}'s words name this broker beyond doubt (not only a generic word like {@code CACHE}). */
    public boolean namedSurelyBy(String name) {
        if (name == null) {
            return false;
        }
        List<String> words = List.of(name.toUpperCase(Locale.ROOT).split("[^A-Z0-9]+"));
        return nameWords.stream().filter(w -> !w.equals("CACHE") && !w.equals("BOOTSTRAP")).anyMatch(words::contains);
    }
}
