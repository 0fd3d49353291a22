package dev.guard.queue.kafka;

import dev.guard.config.Redaction;
import dev.guard.drain.Durability;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.config.ConfigResource;

/**
 * What a Kafka topic keeps when a broker restarts or is lost, from the cluster's own answers
 * (DescribeCluster, DescribeTopics, DescribeConfigs). Kafka keeps its log on disk, so a restart of
 * a broker loses nothing it acknowledged; what loses jobs is a broker that does not come back
 * with no other replica, or a replica allowed to lead without them. Kafka's documentation,
 * "Replication" and the topic configs: with {@code acks=all} a write is acknowledged once
 * {@code min.insync.replicas} replicas have it; {@code unclean.leader.election.enable} "indicates
 * whether to enable replicas not in the ISR set to be elected as leader as a last resort, even
 * though doing so may result in data loss".
 */
final class KafkaDurability {

    private static final long ASK_SECONDS = 10;

    private KafkaDurability() {}

    /** An admin client's settings from a queue's client settings (bootstrap, security), with short bounds. */
    static Map<String, Object> adminConfig(Map<String, Object> clientConfig) {
        Map<String, Object> ac = new HashMap<>();
        clientConfig.forEach((k, v) -> {
            if (AdminClientConfig.configNames().contains(k)) {
                ac.put(k, v);
            }
        });
        ac.putIfAbsent(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 5_000);
        ac.putIfAbsent(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) TimeUnit.SECONDS.toMillis(ASK_SECONDS));
        return ac;
    }

    static Durability of(Map<String, Object> clientConfig, String topic) {
        String broker = "kafka topic '" + topic + "'";
        try (Admin admin = Admin.create(adminConfig(clientConfig))) {
            int brokers = admin.describeCluster().nodes().get(ASK_SECONDS, TimeUnit.SECONDS).size();
            TopicDescription t = admin.describeTopics(List.of(topic)).allTopicNames().get(ASK_SECONDS, TimeUnit.SECONDS)
                    .get(topic);
            ConfigResource res = new ConfigResource(ConfigResource.Type.TOPIC, topic);
            Config config = admin.describeConfigs(List.of(res)).all().get(ASK_SECONDS, TimeUnit.SECONDS).get(res);
            int replicas = t.partitions().stream().mapToInt(p -> p.replicas().size()).min().orElse(0);
            return judge(broker, topic, brokers, t.partitions().size(), replicas, intOf(config, "min.insync.replicas", 1),
                    "true".equals(valueOf(config, "unclean.leader.election.enable")),
                    valueOf(config, "retention.ms"));
        } catch (ExecutionException e) {
            return Durability.unknown(broker, "the cluster would not describe it: "
                    + Redaction.maskText(String.valueOf(e.getCause())), "check with kafka-topics.sh --describe --topic "
                    + topic + ": replication factor 3 and min.insync.replicas 2 on a cluster of 3 brokers or more");
        } catch (TimeoutException | RuntimeException e) {
            return Durability.unknown(broker, "asking the cluster failed: " + Redaction.maskText(String.valueOf(e)),
                    "check with kafka-topics.sh --describe --topic " + topic);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Durability.unknown(broker, "interrupted while asking", "");
        }
    }

    /** The verdict on a topic's replication, given the size of its cluster. */
    static Durability judge(String broker, String topic, int brokers, int partitions, int replicas, int minInsync,
            boolean unclean, String retentionMs) {
        List<String> found = new ArrayList<>();
        List<String> loses = new ArrayList<>();
        List<String> actions = new ArrayList<>();
        found.add(partitions + (partitions == 1 ? " partition" : " partitions") + ", replication factor " + replicas
                + ", min.insync.replicas " + minInsync + " on " + brokers + (brokers == 1 ? " broker" : " brokers")
                + (retentionMs == null ? "" : ", retention.ms " + retentionMs));
        if (brokers == 1) {
            found.add("a lone broker: a restart keeps the log on disk, the loss of its disk loses every job");
        } else if (replicas < 2) {
            loses.add("the jobs of every partition whose one broker is lost for good, and every partition stops while"
                    + " its broker restarts");
            actions.add("replication factor 3 (kafka-reassign-partitions.sh with three replicas per partition, or"
                    + " recreate the topic with --replication-factor 3) and min.insync.replicas 2");
        } else if (minInsync < 2) {
            loses.add("jobs acknowledged by one replica only (min.insync.replicas " + minInsync + " lets acks=all mean"
                    + " one copy) when that broker is lost before the others copy them");
            actions.add("kafka-configs.sh --alter --entity-type topics --entity-name " + topic
                    + " --add-config min.insync.replicas=2");
        }
        if (unclean) {
            found.add("unclean.leader.election.enable true");
            loses.add("acknowledged jobs the out-of-sync replica never received, when it is elected leader");
            actions.add("kafka-configs.sh --alter --entity-type topics --entity-name " + topic
                    + " --add-config unclean.leader.election.enable=false");
        }
        return Durability.of(broker, found, loses, actions);
    }

    private static String valueOf(Config config, String name) {
        ConfigEntry e = config == null ? null : config.get(name);
        return e == null ? null : e.value();
    }

    private static int intOf(Config config, String name, int otherwise) {
        try {
            String v = valueOf(config, name);
            return v == null ? otherwise : Integer.parseInt(v.trim());
        } catch (NumberFormatException e) {
            return otherwise;
        }
    }
}
