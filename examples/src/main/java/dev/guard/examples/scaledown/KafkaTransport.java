package dev.guard.examples.scaledown;

import dev.guard.drain.JobSource;
import dev.guard.queue.kafka.KafkaQueue;
import dev.guard.queue.kafka.KafkaShareQueue;
import dev.guard.testing.KafkaBroker;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.Future;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.ListShareGroupOffsetsSpec;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * Kafka (a KRaft broker the experiment starts for each row, a topic of {@value #PARTITIONS}
 * partitions): guard's {@link KafkaQueue}, commit after the job; the first two rows commit on receipt.
 * A SIGKILLed member is noticed after the session timeout ({@value #SESSION_TIMEOUT_MS} ms).
 */
final class KafkaTransport implements Transport {

    static final int PARTITIONS = 8;
    static final int SESSION_TIMEOUT_MS = 6000;

    /** How the workers read the topic; a worker's endpoint carries it after the bootstrap servers. */
    enum Protocol {
        /** A consumer group on the classic protocol, the cooperative sticky assignor. */
        CLASSIC("", "on the classic group protocol"),
        /** A consumer group on the consumer protocol of KIP-848. */
        CONSUMER("?group.protocol=consumer", "on the consumer group protocol (KIP-848)"),
        /** A share group (KIP-932): {@code KafkaShareQueue}. */
        SHARE("?group.type=share", "in a share group (KIP-932)");

        final String suffix;
        private final String says;

        Protocol(String suffix, String says) {
            this.suffix = suffix;
            this.says = says;
        }

        String says() {
            return says;
        }

        static Protocol parse(String v) {
            for (Protocol p : values()) {
                if (p.name().equalsIgnoreCase(v)) {
                    return p;
                }
            }
            throw new IllegalArgumentException("--kafka-protocol is classic, consumer or share, not '" + v + "'");
        }

        /** The protocol an endpoint names (the classic one when it names none). */
        static Protocol of(String endpoint) {
            for (Protocol p : values()) {
                if (!p.suffix.isEmpty() && endpoint.endsWith(p.suffix)) {
                    return p;
                }
            }
            return CLASSIC;
        }
    }

    private final String bootstrap;
    private final Protocol protocol;
    private final short replication;
    private final AutoCloseable brokers;
    private final String logs;
    private final Admin admin;

    /** On one broker, which closes with this transport; the workers on the classic group protocol. */
    KafkaTransport(KafkaBroker broker) {
        this(broker, Protocol.CLASSIC);
    }

    /** On one broker, which closes with this transport; the workers read as {@code protocol} says. */
    KafkaTransport(KafkaBroker broker, Protocol protocol) {
        this(broker.bootstrapServers(), (short) 1, broker, broker.logFile().toString(), protocol);
    }

    /**
     * A broker for the workers: under the consumer protocol the broker sets the session timeout and
     * heartbeat, the classic members' {@value #SESSION_TIMEOUT_MS} ms and 1 s.
     */
    static KafkaBroker.Builder brokerSettings(KafkaBroker.Builder b, Protocol protocol) {
        if (protocol == Protocol.SHARE) {
            // a dead member's record comes back when its lock expires or its session ends, whichever
            // is first: both the classic members' 6 s, not 30 s and 45 s by default (the broker's
            // minimums lowered to allow it); renewals keep long jobs
            b.setting("group.share.record.lock.duration.ms", Integer.toString(SESSION_TIMEOUT_MS))
                    .setting("group.share.min.record.lock.duration.ms", Integer.toString(SESSION_TIMEOUT_MS))
                    .setting("group.share.session.timeout.ms", Integer.toString(SESSION_TIMEOUT_MS))
                    .setting("group.share.min.session.timeout.ms", Integer.toString(SESSION_TIMEOUT_MS))
                    .setting("group.share.heartbeat.interval.ms", "1000")
                    .setting("group.share.min.heartbeat.interval.ms", "1000");
        }
        if (protocol == Protocol.CONSUMER) {
            b.setting("group.consumer.session.timeout.ms", Integer.toString(SESSION_TIMEOUT_MS))
                    .setting("group.consumer.min.session.timeout.ms", Integer.toString(SESSION_TIMEOUT_MS))
                    .setting("group.consumer.heartbeat.interval.ms", "1000")
                    .setting("group.consumer.min.heartbeat.interval.ms", "1000");
        }
        return b;
    }

    /**
     * On the brokers at {@code bootstrap}, topics replicated {@code replication} ways; {@code brokers}
     * closes with this transport; {@code logs} says where their logs are.
     */
    KafkaTransport(String bootstrap, short replication, AutoCloseable brokers, String logs) {
        this(bootstrap, replication, brokers, logs, Protocol.CLASSIC);
    }

    private KafkaTransport(String bootstrap, short replication, AutoCloseable brokers, String logs, Protocol protocol) {
        this.bootstrap = bootstrap;
        this.protocol = protocol;
        this.replication = replication;
        this.brokers = brokers;
        this.logs = logs;
        this.admin = Admin.create(Map.of("bootstrap.servers", bootstrap));
    }

    static String topic(String prefix) {
        return prefix.replaceAll("[^A-Za-z0-9._-]", "_");
    }

    static String group(String prefix) {
        return topic(prefix) + "-workers";
    }

    @Override
    public Kind kind() {
        return Kind.KAFKA;
    }

    @Override
    public String endpoint() {
        return bootstrap + protocol.suffix;
    }

    @Override
    public long enqueue(String prefix, List<String> ids) throws Exception {
        admin.createTopics(List.of(new NewTopic(topic(prefix), PARTITIONS, replication),
                new NewTopic(topic(prefix) + ".dead", 1, replication))).all().get();
        awaitLeaders(topic(prefix));
        Properties p = new Properties();
        p.put("bootstrap.servers", bootstrap);
        p.put("acks", "all");
        List<Future<RecordMetadata>> sent = new ArrayList<>();
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(p, new StringSerializer(), new StringSerializer())) {
            for (String id : ids) {
                sent.add(producer.send(new ProducerRecord<>(topic(prefix), id, id)));
            }
            for (Future<RecordMetadata> f : sent) {
                f.get();
            }
        }
        return lag(prefix, false);
    }

    /** Until every partition of a new topic has a leader: a producer's first sends otherwise race the metadata. */
    private void awaitLeaders(String topic) throws Exception {
        long until = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (true) {
            var description = admin.describeTopics(List.of(topic)).allTopicNames().get().get(topic);
            if (description.partitions().size() == PARTITIONS
                    && description.partitions().stream().allMatch(p -> p.leader() != null && !p.leader().isEmpty())) {
                return;
            }
            if (System.nanoTime() > until) {
                throw new IllegalStateException("kafka: topic " + topic + " has partitions without a leader after 60 s: "
                        + description + "; see the broker's log " + logs);
            }
            Thread.sleep(100);
        }
    }

    /** Records after the group's committed offsets (all of them before the group commits). */
    @Override
    public long pending(String prefix) throws Exception {
        return lag(prefix, true);
    }

    private long lag(String prefix, boolean committedOnly) throws Exception {
        if (committedOnly && protocol == Protocol.SHARE) {
            return shareLag(prefix);
        }
        Map<TopicPartition, OffsetSpec> latest = new java.util.HashMap<>();
        for (int i = 0; i < PARTITIONS; i++) {
            latest.put(new TopicPartition(topic(prefix), i), OffsetSpec.latest());
        }
        Map<TopicPartition, ListOffsetsResult.ListOffsetsResultInfo> ends = admin.listOffsets(latest).all().get();
        Map<TopicPartition, OffsetAndMetadata> committed = committedOnly
                ? admin.listConsumerGroupOffsets(group(prefix)).partitionsToOffsetAndMetadata().get() : Map.of();
        long lag = 0;
        for (var e : ends.entrySet()) {
            OffsetAndMetadata c = committed.get(e.getKey());
            lag += e.getValue().offset() - (c == null ? 0 : c.offset());
        }
        return lag;
    }

    /**
     * A share group's records not yet acknowledged: the broker's lag per partition (records from the
     * group's start offset that are not accepted, rejected or archived), every record before the
     * group has one.
     */
    private long shareLag(String prefix) throws Exception {
        var info = admin.listShareGroupOffsets(Map.of(group(prefix), new ListShareGroupOffsetsSpec()))
                .partitionsToOffsetInfo(group(prefix)).get();
        if (info == null || info.isEmpty()) {
            return lag(prefix, false);
        }
        long lag = 0;
        for (var e : info.entrySet()) {
            if (e.getValue() == null || e.getValue().lag().isEmpty()) {
                return lag(prefix, false) + 1; // not reported yet: not settled
            }
            lag += e.getValue().lag().get();
        }
        return info.size() < PARTITIONS ? lag + 1 : lag;
    }

    @Override
    public Set<String> dead(String prefix) {
        Set<String> ids = new HashSet<>();
        try (KafkaConsumer<String, String> reader = new KafkaConsumer<>(Map.of("bootstrap.servers", bootstrap,
                "group.id", topic(prefix) + "-dead-reader", "auto.offset.reset", "earliest"),
                new StringDeserializer(), new StringDeserializer())) {
            reader.subscribe(List.of(topic(prefix) + ".dead"));
            int empty = 0;
            while (empty < 5) {
                var records = reader.poll(Duration.ofMillis(400));
                empty = records.isEmpty() ? empty + 1 : 0;
                for (ConsumerRecord<String, String> r : records) {
                    ids.add(r.value());
                }
            }
        }
        return ids;
    }

    /** Nothing: the broker is private to the row and is deleted with its topics when it closes. */
    @Override
    public void cleanUp(String prefix) {
    }

    /** Closes the admin client and the broker (with its data): each row has a broker of its own. */
    @Override
    public void close() {
        admin.close();
        try {
            brokers.close();
        } catch (Exception e) {
            System.err.println("scaledown: closing the Kafka broker(s) failed: " + e);
        }
    }

    /** A worker's sources on the broker at {@code bootstrap}. */
    static Sources sources(String endpoint) {
        Protocol protocol = Protocol.of(endpoint);
        String bootstrap = endpoint.substring(0, endpoint.length() - protocol.suffix.length());
        return (mode, prefix, workerId, config) -> {
            if (protocol == Protocol.SHARE) {
                // the broker counts deliveries and gives a released record to any member at once; a
                // dead member's record comes back when its lock expires (brokerSettings)
                JobSource<?> q = KafkaShareQueue.builder(Map.of("bootstrap.servers", bootstrap, "client.id", workerId),
                        topic(prefix), group(prefix)).pollTimeout(Worker.POLL).handBackTimeout(config.safetyMargin())
                        .idOf((value, key) -> value).build();
                return mode.acksOnReceipt() ? new AckOnReceipt<>(q) : q;
            }
            boolean consumerProtocol = protocol == Protocol.CONSUMER;
            // classic: cooperative rebalancing, so that a member leaving moves only its partitions and the
            // others' jobs in hand stay theirs and are committed (with the eager default every member loses
            // all of them); the consumer protocol is incremental by design, and its broker sets the session
            Map<String, Object> c = consumerProtocol
                    ? Map.of("bootstrap.servers", bootstrap, "group.protocol", "consumer", "client.id", workerId)
                    : Map.of("bootstrap.servers", bootstrap, "session.timeout.ms", SESSION_TIMEOUT_MS,
                    "heartbeat.interval.ms", 1000, "client.id", workerId,
                    "partition.assignment.strategy", "org.apache.kafka.clients.consumer.CooperativeStickyAssignor");
            JobSource<?> q = KafkaQueue.builder(c, topic(prefix), group(prefix)).pollTimeout(Worker.POLL)
                    .commandTimeout(Duration.ofSeconds(5)).idOf((value, key) -> value).build();
            return mode.acksOnReceipt() ? new AckOnReceipt<>(q) : q;
        };
    }

}
