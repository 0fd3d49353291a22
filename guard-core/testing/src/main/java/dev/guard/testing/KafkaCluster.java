package dev.guard.testing;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.Uuid;

/**
 * Three (or more) real KRaft nodes, each broker and controller, from the Maven Central jars on the
 * class path ({@link KafkaBroker}): a static controller quorum of all of them, topics replicated
 * three ways by default with {@code min.insync.replicas=2} (the internal topics too), so that
 * the cluster survives one node's death with {@code acks=all}. Kill and restart keep each node's
 * ports and data.
 */
public final class KafkaCluster implements AutoCloseable {

    private final List<KafkaBroker> brokers;

    private KafkaCluster(List<KafkaBroker> brokers) {
        this.brokers = brokers;
    }

    /** Starts {@code size} nodes (clients told to use {@code advertisedHost}, or 127.0.0.1 when null); returns once each answers. */
    public static KafkaCluster start(int size, String advertisedHost) {
        List<KafkaBroker> brokers = new ArrayList<>();
        KafkaCluster cluster = new KafkaCluster(brokers);
        try {
            for (int i = 0; i < size; i++) {
                KafkaBroker.Builder b = KafkaBroker.builder();
                if (advertisedHost != null) {
                    b.advertisedHost(advertisedHost);
                }
                brokers.add(b.build());
            }
            String voters = brokers.stream().map(k -> (brokers.indexOf(k) + 1) + "@" + LocalServer.HOST + ":"
                    + k.controllerPort()).collect(Collectors.joining(","));
            String id = Uuid.randomUuid().toString();
            for (int i = 0; i < size; i++) {
                brokers.get(i).joinCluster(i + 1, voters, id);
            }
            List<Long> spawned = new ArrayList<>();
            for (KafkaBroker k : brokers) {
                spawned.add(k.spawn());
            }
            for (int i = 0; i < size; i++) {
                brokers.get(i).awaitStarted(spawned.get(i));
            }
            return cluster;
        } catch (RuntimeException e) {
            cluster.close();
            throw e;
        }
    }

    public List<KafkaBroker> brokers() {
        return List.copyOf(brokers);
    }

    /** The node with this id. */
    public KafkaBroker broker(int nodeId) {
        return brokers.get(nodeId - 1);
    }

    /** Every node's client address, comma-separated. */
    public String bootstrapServers() {
        return brokers.stream().map(KafkaBroker::bootstrapServers).collect(Collectors.joining(","));
    }

    /** The node id leading each partition of {@code topic} now (-1 for a partition without a leader). */
    public Map<Integer, Integer> leaders(String topic) throws Exception {
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", bootstrapServers(), "request.timeout.ms", "3000",
                "default.api.timeout.ms", "5000"))) {
            TopicDescription d = admin.describeTopics(List.of(topic)).allTopicNames().get(10, TimeUnit.SECONDS).get(topic);
            return d.partitions().stream().collect(Collectors.toMap(p -> p.partition(),
                    p -> p.leader() == null || p.leader().isEmpty() ? -1 : p.leader().id()));
        }
    }

    @Override
    public void close() {
        for (KafkaBroker k : brokers) {
            k.close();
        }
    }

    @Override
    public String toString() {
        return "KafkaCluster[" + bootstrapServers() + "]";
    }
}
