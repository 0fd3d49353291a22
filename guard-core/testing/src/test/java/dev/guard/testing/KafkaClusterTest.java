package dev.guard.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Three KRaft nodes (a minute of JVM starts on 2 cores: in -Pproof, and run by the fault matrix's failover cells). */
@Tag("proof")
@ExtendWith(NoLeakedProcesses.class)
class KafkaClusterTest {

    @Test
    void aTopicReplicatedThreeWaysKeepsWhatAcksAllAcknowledgedWhenItsLeaderIsKilled() throws Exception {
        try (KafkaCluster cluster = KafkaCluster.start(3, null)) {
            try (Admin admin = Admin.create(Map.of("bootstrap.servers", cluster.bootstrapServers()))) {
                admin.createTopics(List.of(new NewTopic("rf3", 1, (short) 3))).all().get(30, TimeUnit.SECONDS);
            }
            try (KafkaProducer<String, String> p = new KafkaProducer<>(Map.of("bootstrap.servers", cluster.bootstrapServers(),
                    "acks", "all"), new StringSerializer(), new StringSerializer())) {
                for (int i = 0; i < 10; i++) {
                    p.send(new ProducerRecord<>("rf3", "job-" + i)).get(30, TimeUnit.SECONDS);
                }
            }
            int leader = awaitLeader(cluster, -1);
            cluster.broker(leader).kill();
            int next = awaitLeader(cluster, leader);
            assertNotEquals(leader, next);
            try (KafkaConsumer<String, String> c = new KafkaConsumer<>(Map.of("bootstrap.servers", cluster.bootstrapServers(),
                    "auto.offset.reset", "earliest"), new StringDeserializer(), new StringDeserializer())) {
                TopicPartition tp = new TopicPartition("rf3", 0);
                c.assign(List.of(tp));
                c.seekToBeginning(List.of(tp));
                int read = 0;
                long deadline = System.nanoTime() + Patience.WAIT.toNanos();
                while (read < 10 && System.nanoTime() < deadline) {
                    ConsumerRecords<String, String> rs = c.poll(Duration.ofMillis(500));
                    read += rs.count();
                }
                assertEquals(10, read, "records acknowledged with acks=all before the leader died");
            }
        }
    }

    /** The leader of partition 0 once it is not {@code not} (-1: any). */
    private static int awaitLeader(KafkaCluster cluster, int not) throws Exception {
        long deadline = System.nanoTime() + Patience.WAIT.toNanos();
        int leader = -1;
        while (System.nanoTime() < deadline) {
            try {
                leader = cluster.leaders("rf3").get(0);
                if (leader > 0 && leader != not) {
                    return leader;
                }
            } catch (Exception e) {
                // metadata moving
            }
            Thread.sleep(200);
        }
        assertTrue(false, "partition 0 of rf3 had no leader other than " + not + " (last " + leader + ")");
        return -1;
    }
}
