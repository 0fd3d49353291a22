package dev.guard.queue.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.guard.drain.CompletionStore;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.MemberDescription;
import org.apache.kafka.clients.admin.NewPartitions;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

/**
 * Every {@link KafkaQueueTest} with the members on the consumer group protocol (KIP-848, generally
 * available since Kafka 4.0): the broker assigns partitions and sets the session timeout and
 * heartbeat (6 s and 1 s here, broker settings), the client refuses {@code session.timeout.ms}.
 *
 * <p>Where a test moves a partition from one member to another, this protocol needs another way:
 * the broker's assignor is sticky (a member that joins a group whose one partition is taken gets
 * nothing), so the tests that revoke use two partitions, and the member that joins is given one
 * of the first member's. Which one is the broker's choice; the test finds out from the group's
 * description and holds the job on that partition.
 */
class KafkaQueueConsumerProtocolTest extends KafkaQueueTest {

    @Override
    Map<String, Object> memberConfig() {
        return new java.util.HashMap<>(Map.of("bootstrap.servers", kafka.bootstrapServers(),
                ConsumerConfig.GROUP_PROTOCOL_CONFIG, "consumer"));
    }

    /**
     * As the classic test: a member whose partition went to another while it ran a job (its
     * revocation wait passed) writes nothing, and the other member's run is the one that commits.
     * Here the partition moves because a second member joins and the broker's uniform assignor
     * gives it one of the first member's two: in Kafka 4.1 the first member keeps its lowest
     * partitions up to its share (seen in every run here), so the one job is put on partition 1.
     */
    @Override
    @Test
    void aMemberWhosePartitionWasGivenAwayWritesNothing() throws Exception {
        String out = topic + ".done";
        admin.createPartitions(Map.of(topic, NewPartitions.increaseTo(2))).all().get(60, TimeUnit.SECONDS);
        produceTo(1, "job-p1");
        KafkaQueue a = member("a-" + topic, Duration.ofMillis(200));
        try (KafkaTransactions aDone = KafkaTransactions.of(a)) {
            KafkaJob held = fetch(a, Duration.ofSeconds(60));
            assertEquals("job-p1", held.id());
            CompletionStore.Claim aClaim = aDone.claim(held.id());
            KafkaQueue b = member("b-" + topic, null);
            try (KafkaTransactions bDone = KafkaTransactions.of(b)) {
                assertEquals(1, partitionOf("b-" + topic), "the broker's assignor gave the joining member partition 1"
                        + " (the one whose job a holds); if a Kafka version chooses otherwise, this test must find"
                        + " another way to move that partition");
                KafkaJob again = fetch(b, Duration.ofSeconds(60));
                assertEquals("job-p1", again.id(), "the partition went to b, which reads from the committed offset");
                CompletionStore.Claim bClaim = bDone.claim(again.id());
                assertEquals(CompletionStore.Verdict.RECORDED,
                        bDone.complete(bClaim, bDone.writes(bClaim).send(out, "job-p1", "from-b")));
                b.ack(again);
                assertEquals(CompletionStore.Verdict.SUPERSEDED,
                        aDone.complete(aClaim, aDone.writes(aClaim).send(out, "job-p1", "from-a")));
            }
        }
        assertEquals(1, committed(1));
        assertEquals(List.of("job-p1=from-b"), committedOutputs(out, 1));
    }

    /**
     * As the classic test: a job that finishes within the revocation wait is committed by the
     * rebalance listener, and the member that gets the partition starts after it. The partition
     * moves as in {@link #aMemberWhosePartitionWasGivenAwayWritesNothing()}: the second member is
     * given partition 1, where both jobs are.
     */
    @Override
    @Test
    void aJobThatFinishesWhileItsPartitionIsRevokedIsCommittedNotRunAgain() throws Exception {
        admin.createPartitions(Map.of(topic, NewPartitions.increaseTo(2))).all().get(60, TimeUnit.SECONDS);
        produceTo(1, "job-r1");
        produceTo(1, "job-r2");
        KafkaQueue a = member("a-" + topic, null);
        KafkaJob held = fetch(a, Duration.ofSeconds(60));
        assertEquals("job-r1", held.id());
        KafkaQueue b = member("b-" + topic, null); // joins the group: partition 1 is revoked from a while a holds job-r1
        Thread.sleep(1500);
        a.ack(held); // finishes within the revocation wait
        List<String> seen = runUntil("job-r2", Duration.ofSeconds(30), a, b);
        assertEquals(List.of("job-r2"), seen, "job-r1 was committed during the revocation, so nobody runs it again");
        assertEquals(1, partitionOf("b-" + topic), "the partition moved to b");
        assertEquals(2, committed(1));
    }

    /** The consumer protocol's client refuses the classic group settings: what a user who switches protocols sees. */
    @Test
    void theClassicSessionSettingsAreRefusedUnderTheConsumerProtocol() {
        for (String classic : List.of(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG,
                ConsumerConfig.PARTITION_ASSIGNMENT_STRATEGY_CONFIG)) {
            Map<String, Object> config = memberConfig();
            config.put(classic, classic.equals(ConsumerConfig.PARTITION_ASSIGNMENT_STRATEGY_CONFIG)
                    ? "org.apache.kafka.clients.consumer.RangeAssignor" : "6000");
            IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                    () -> KafkaQueue.builder(config, topic, group).build());
            org.junit.jupiter.api.Assertions.assertTrue(e.getMessage().startsWith("guard kafka queue '" + topic + "': "
                    + classic + " cannot be set when group.protocol=CONSUMER. Under the consumer group protocol"), e.getMessage());
            org.junit.jupiter.api.Assertions.assertTrue(e.getMessage().contains("group.consumer.session.timeout.ms"),
                    e.getMessage());
        }
    }

    /** The partition of {@code topic} the group's member with this client id is assigned, once it has exactly one. */
    private int partitionOf(String clientId) throws Exception {
        long until = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        String last = "no description yet";
        while (System.nanoTime() < until) {
            ConsumerGroupDescription d = admin.describeConsumerGroups(List.of(group)).describedGroups().get(group)
                    .get(10, TimeUnit.SECONDS);
            for (MemberDescription m : d.members()) {
                if (m.clientId().equals(clientId) && m.assignment().topicPartitions().size() == 1) {
                    TopicPartition tp = m.assignment().topicPartitions().iterator().next();
                    return tp.partition();
                }
            }
            last = d.members().toString();
            Thread.sleep(100);
        }
        throw new AssertionError("member " + clientId + " was not given one partition within 60 s: " + last);
    }

    private void produceTo(int partition, String value) throws Exception {
        Properties p = new Properties();
        p.put("bootstrap.servers", kafka.bootstrapServers());
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(p, new StringSerializer(), new StringSerializer())) {
            producer.send(new ProducerRecord<>(topic, partition, null, value)).get();
        }
    }
}
