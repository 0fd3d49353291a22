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
 * Ready when the cluster serves what a worker needs: at least {@code minBrokers} brokers in its
 * metadata; each required topic exists (MISSING until it does) with a leader on every partition
 * and, for an {@code acks=all} producer (kafka-clients' default since 3.0), at least the topic's
 * {@code min.insync.replicas} in sync; the named consumer group's coordinator answers. Not the
 * "active controller" of the cluster metadata: under KRaft that id is a live broker the server
 * picks, not the active controller (KAFKA-17404).
 *
 * <p>AdminClient against a closed port only times out, so each attempt first makes a quick TCP
 * connect to the bootstrap addresses to tell refused / DNS from timeout. One AdminClient is reused
 * across attempts and closed with {@code Duration.ZERO} by {@link #close()}. The
 * kafka-clients-bound half is loaded only after {@link Builder#build()} checked kafka-clients is on
 * the classpath.
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
        String group;
        boolean acksAll = true;
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

        /** Topics that must exist with a leader (and, for acks=all, enough in-sync replicas) on every partition. */
        public Builder requireTopics(String... names) {
            topics.addAll(List.of(names));
            return this;
        }

        /**
         * A consumer group whose coordinator must answer (classic or KIP-848 protocol): the broker
         * leading its partition of {@code __consumer_offsets}. A group that does not exist yet is
         * fine; a coordinator that is not available is not ready.
         */
        public Builder group(String name) {
            Objects.requireNonNull(name, "name");
            if (name.isBlank()) {
                throw new IllegalArgumentException("the consumer group name is blank");
            }
            this.group = name;
            return this;
        }

        /**
         * The {@code acks} of the worker's producer: {@code all} (or {@code -1}, the default, as
         * kafka-clients' producer since 3.0) also requires {@code min.insync.replicas} in sync on
         * every partition of the required topics; {@code 1} or {@code 0} (or a worker that only
         * consumes) requires leaders only.
         */
        public Builder acks(String acks) {
            String a = Objects.requireNonNull(acks, "acks").trim().toLowerCase(java.util.Locale.ROOT);
            switch (a) {
                case "all", "-1" -> acksAll = true;
                case "1", "0" -> acksAll = false;
                default -> throw new IllegalArgumentException("acks=" + acks + " is none of all, -1, 1, 0");
            }
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
