package dev.guard.ready.kafka;

import dev.guard.config.Redaction;
import dev.guard.endpoint.Broker;
import dev.guard.endpoint.Endpoint;
import dev.guard.endpoint.Endpoints;
import dev.guard.ready.internal.ClientBoundProbe;
import dev.guard.ready.internal.Clients;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Cluster metadata ({@code describeCluster}) with at least {@code minBrokers} brokers and an
 * active controller; optional topics must exist (MISSING until they do) with a leader on every
 * partition. AdminClient against a closed port only times out, so each attempt first makes a
 * quick TCP connect to the bootstrap addresses to tell refused / DNS from timeout. One
 * AdminClient is reused across attempts and closed with {@code Duration.ZERO} by
 * {@link #close()}. The kafka-clients-bound half is loaded only after {@link Builder#build()}
 * checked kafka-clients is on the classpath.
 */
public final class KafkaProbe extends ClientBoundProbe {

    static final String CLIENT_CLASS = "org.apache.kafka.clients.admin.Admin";
    static final String ARTIFACT = Broker.KAFKA.clientArtifact();

    private final int minBrokers;
    private final List<String> topics;

    KafkaProbe(Builder b) {
        super("kafka", new KafkaAdminProbe(b));
        this.minBrokers = b.minBrokers;
        this.topics = List.copyOf(b.topics);
    }

    /** A builder for bootstrap servers {@code host:port[,host:port]}. */
    public static Builder builder(String bootstrapServers) {
        return new Builder(bootstrapServers);
    }



    public int minBrokers() {
        return minBrokers;
    }

    public List<String> requiredTopics() {
        return topics;
    }




    /** Builder; {@link #build()} checks the addresses and that kafka-clients is on the classpath. */
    public static final class Builder {
        final String bootstrapServers;
        List<Endpoint> bootstrap;
        int minBrokers = 1;
        final List<String> topics = new ArrayList<>();
        final Map<String, String> properties = new LinkedHashMap<>();

        Builder(String bootstrapServers) {
            this.bootstrapServers = Objects.requireNonNull(bootstrapServers, "bootstrapServers");
        }

        /** At least this many brokers must be registered (default 1). */
        public Builder minBrokers(int n) {
            if (n < 1) {
                throw new IllegalArgumentException("minBrokers must be >= 1, got " + n);
            }
            this.minBrokers = n;
            return this;
        }

        /** Topics that must exist with a leader on every partition. */
        public Builder requireTopics(String... names) {
            topics.addAll(List.of(names));
            return this;
        }

        /** An extra AdminClient setting (e.g. {@code security.protocol}, {@code sasl.jaas.config}). */
        public Builder property(String key, String value) {
            properties.put(Objects.requireNonNull(key, "key"), Objects.requireNonNull(value, "value"));
            return this;
        }

        /**
         * @throws IllegalArgumentException malformed bootstrap list
         * @throws IllegalStateException    kafka-clients is not on the classpath
         */
        public KafkaProbe build() {
            try {
                this.bootstrap = Endpoints.parseHostPorts(bootstrapServers, -1);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("malformed Kafka bootstrap servers '"
                        + Redaction.maskSettingValue(bootstrapServers) + "': " + e.getMessage());
            }
            Clients.require(CLIENT_CLASS, ARTIFACT, "kafka://");
            return new KafkaProbe(this);
        }
    }
}
