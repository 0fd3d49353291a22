package dev.guard.queue.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.guard.drain.JobClock;
import dev.guard.testing.KafkaBroker;
import dev.guard.testing.MachineServices;
import dev.guard.testing.NoLeakedProcesses;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@link KafkaQueue} against a real KRaft broker (the fixture, a child process): commit after the
 * handler, hand-back by seeking back, dead letters, a job longer than {@code max.poll.interval.ms}
 * that keeps the group membership, and a member that leaves with a job unfinished whose record the
 * next member gets.
 */
@ExtendWith(NoLeakedProcesses.class)
class KafkaQueueTest {

    static KafkaBroker kafka;
    static Admin admin;

    final String topic = MachineServices.uniqueName("guard-jobs");
    final String group = topic + "-workers";
    final List<AutoCloseable> closing = new ArrayList<>();

    @BeforeAll
    static void startBroker() {
        // the consumer group protocol (KIP-848) takes its session timeout and heartbeat interval from
        // the broker: the same 6 s and 1 s the classic members ask for (KafkaQueueConsumerProtocolTest)
        kafka = KafkaBroker.builder().setting("group.consumer.session.timeout.ms", "6000")
                .setting("group.consumer.min.session.timeout.ms", "6000")
                .setting("group.consumer.heartbeat.interval.ms", "1000")
                .setting("group.consumer.min.heartbeat.interval.ms", "1000").build().start();
        admin = Admin.create(Map.of("bootstrap.servers", kafka.bootstrapServers()));
    }

    @AfterAll
    static void stopBroker() {
        if (admin != null) {
            admin.close();
        }
        if (kafka != null) {
            kafka.close();
        }
    }

    @BeforeEach
    void topics() throws Exception {
        admin.createTopics(List.of(new NewTopic(topic, 1, (short) 1), new NewTopic(topic + ".dead", 1, (short) 1)))
                .all().get();
    }

    @AfterEach
    void close() throws Exception {
        for (int i = closing.size() - 1; i >= 0; i--) {
            closing.get(i).close();
        }
    }

    /**
     * A member's client settings: the classic protocol with a 6 s session and 1 s heartbeats; a
     * subclass runs every test under another protocol.
     */
    Map<String, Object> memberConfig() {
        return new java.util.HashMap<>(Map.of("bootstrap.servers", kafka.bootstrapServers(),
                ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, 6000, ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG, 1000));
    }

    private KafkaQueue source(Map<String, Object> extra) {
        Map<String, Object> config = memberConfig();
        config.putAll(extra);
        return open(config, null);
    }

    /**
     * A member with client id {@code clientId} (the classic range assignor orders members by it);
     * {@code revocationWait} null for the queue's default.
     */
    KafkaQueue member(String clientId, Duration revocationWait) {
        Map<String, Object> config = memberConfig();
        config.put(ConsumerConfig.CLIENT_ID_CONFIG, clientId);
        return open(config, revocationWait);
    }

    private KafkaQueue open(Map<String, Object> config, Duration revocationWait) {
        KafkaQueue.Builder b = KafkaQueue.builder(config, topic, group).pollTimeout(Duration.ofMillis(200))
                .idOf((value, key) -> value);
        if (revocationWait != null) {
            b.revocationWait(revocationWait);
        }
        KafkaQueue q = b.build();
        closing.add(q);
        return q;
    }

    void produce(String... values) throws Exception {
        produceTo(kafka.bootstrapServers(), topic, values);
    }

    /** Sends each value to {@code topic}, waiting for each send; also the share-group tests' producer. */
    static void produceTo(String bootstrap, String topic, String... values) throws Exception {
        Properties p = new Properties();
        p.put("bootstrap.servers", bootstrap);
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(p, new StringSerializer(), new StringSerializer())) {
            for (String v : values) {
                producer.send(new ProducerRecord<>(topic, v)).get();
            }
        }
    }

    /** The next job of any source within {@code within}. */
    static <J> J fetch(dev.guard.drain.JobSource<J> q, Duration within) {
        long until = System.nanoTime() + within.toNanos();
        while (System.nanoTime() < until) {
            Optional<J> job = q.fetch();
            if (job.isPresent()) {
                return job.get();
            }
        }
        throw new AssertionError("no record within " + within.toMillis() + " ms");
    }

    /**
     * The group's committed offset on partition 0, -1 for none. Stable only (KIP-447): an offset
     * committed in a transaction whose markers are not written yet makes the coordinator answer
     * UNSTABLE_OFFSET_COMMIT, which the admin client retries, instead of the offset before it.
     */
    long committed() throws Exception {
        return committed(0);
    }

    /** {@link #committed()} of one partition. */
    long committed(int partition) throws Exception {
        Map<TopicPartition, OffsetAndMetadata> offsets = admin.listConsumerGroupOffsets(group,
                        new org.apache.kafka.clients.admin.ListConsumerGroupOffsetsOptions().requireStable(true))
                .partitionsToOffsetAndMetadata().get();
        OffsetAndMetadata o = offsets.get(new TopicPartition(topic, partition));
        return o == null ? -1 : o.offset();
    }

    @Test
    void anAckCommitsTheNextOffsetAndTheGroupResumesThere() throws Exception {
        produce("job-k1", "job-k2", "job-k3");
        KafkaQueue a = source(Map.of());
        KafkaJob first = fetch(a, Duration.ofSeconds(60));
        assertEquals("job-k1", first.id());
        a.ack(first);
        assertEquals(1, committed());
        KafkaJob second = fetch(a, Duration.ofSeconds(10));
        assertEquals("job-k2", second.id());
        a.close(); // leaves with job-k2 unfinished: not committed
        KafkaJob again = fetch(source(Map.of()), Duration.ofSeconds(60));
        assertEquals("job-k2", again.id(), "the next member resumes at the first unfinished record");
        assertEquals(1, again.offset());
    }

    @Test
    void aHandBackSeeksBackSoTheRecordComesAgainBeforeTheNextOnes() throws Exception {
        produce("job-h1", "job-h2");
        KafkaQueue q = source(Map.of());
        KafkaJob job = fetch(q, Duration.ofSeconds(60));
        q.handBack(job);
        KafkaJob again = fetch(q, Duration.ofSeconds(10));
        assertEquals("job-h1", again.id());
        assertEquals(job.offset(), again.offset());
        assertEquals(-1, committed(), "nothing committed by a hand-back");
        q.ack(again);
        assertEquals("job-h2", fetch(q, Duration.ofSeconds(10)).id());
    }

    @Test
    void aFailedJobGoesToTheDeadTopicWithItsReasonAndIsCommitted() throws Exception {
        produce("job-f1");
        KafkaQueue q = source(Map.of());
        q.fail(fetch(q, Duration.ofSeconds(60)), new IllegalStateException("thumbnail service said 500"));
        assertEquals(1, committed());
        try (KafkaConsumer<String, String> reader = new KafkaConsumer<>(Map.of("bootstrap.servers", kafka.bootstrapServers(),
                "group.id", topic + "-reader", "auto.offset.reset", "earliest"), new StringDeserializer(), new StringDeserializer())) {
            reader.subscribe(List.of(topic + ".dead"));
            ConsumerRecord<String, String> dead = null;
            long until = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (dead == null && System.nanoTime() < until) {
                for (ConsumerRecord<String, String> r : reader.poll(Duration.ofMillis(200))) {
                    dead = r;
                }
            }
            assertEquals("job-f1", dead.value());
            String reason = new String(dead.headers().lastHeader("guard.reason").value(), StandardCharsets.UTF_8);
            assertTrue(reason.contains("thumbnail service said 500"), reason);
        }
    }

    @Test
    void aJobLongerThanMaxPollIntervalKeepsTheMembershipAndCommits() throws Exception {
        produce("job-long", "job-next");
        KafkaQueue q = source(Map.of(ConsumerConfig.MAX_POLL_INTERVAL_MS_CONFIG, 3000));
        // the clock the timeout budget shows as renewed: what this test proves
        JobClock maxPoll = q.clocks().get(0);
        assertEquals(Duration.ofMillis(3000), maxPoll.value());
        assertEquals(JobClock.Effect.RENEWED, maxPoll.effect());
        KafkaJob job = fetch(q, Duration.ofSeconds(60));
        Thread.sleep(7000); // more than twice max.poll.interval.ms without a fetch: the poll thread keeps polling
        q.ack(job);
        assertEquals(1, committed(), "committed: the member was never kicked out of the group");
        assertEquals("job-next", fetch(q, Duration.ofSeconds(10)).id());
    }

    @Test
    void aJobThatFinishesWhileItsPartitionIsRevokedIsCommittedNotRunAgain() throws Exception {
        produce("job-r1", "job-r2");
        KafkaQueue a = source(Map.of());
        KafkaJob held = fetch(a, Duration.ofSeconds(60));
        assertEquals("job-r1", held.id());
        KafkaQueue b = source(Map.of()); // joins the group: the partition is revoked from a while a holds job-r1
        Thread.sleep(1500);
        a.ack(held); // finishes within the revocation wait
        List<String> seen = runUntil("job-r2", Duration.ofSeconds(15), a, b);
        assertEquals(List.of("job-r2"), seen, "job-r1 was committed during the revocation, so nobody runs it again");
        assertEquals(2, committed());
    }

    /** Fetches and acks from the members in turn until {@code last} was run (bounded); the ids run, in order. */
    static List<String> runUntil(String last, Duration within, KafkaQueue... members) {
        List<String> seen = new ArrayList<>();
        long until = System.nanoTime() + within.toNanos();
        while (System.nanoTime() < until && !seen.contains(last)) {
            for (KafkaQueue q : members) {
                q.fetch().ifPresent(j -> {
                    seen.add(j.id());
                    q.ack(j);
                });
            }
        }
        return seen;
    }

    /**
     * The lone broker here keeps the log across its restart, so the topic is kept, and says so;
     * the same topic with unclean leader election turned on is a loss, with the command that
     * turns it off. The replication rules of a cluster are read from their inputs.
     */
    @Test
    void durabilityIsReadFromTheClustersOwnAnswers() throws Exception {
        KafkaQueue q = source(Map.of());
        dev.guard.drain.Durability kept = q.durability();
        assertEquals(dev.guard.drain.Durability.Verdict.KEPT, kept.verdict(), kept.render());
        assertTrue(kept.found().startsWith("1 partition, replication factor 1, min.insync.replicas 1 on 1 broker"),
                kept.found());
        assertTrue(kept.found().contains("a lone broker"), kept.found());
        org.apache.kafka.common.config.ConfigResource res = new org.apache.kafka.common.config.ConfigResource(
                org.apache.kafka.common.config.ConfigResource.Type.TOPIC, topic);
        admin.incrementalAlterConfigs(Map.of(res, List.of(new org.apache.kafka.clients.admin.AlterConfigOp(
                new org.apache.kafka.clients.admin.ConfigEntry("unclean.leader.election.enable", "true"),
                org.apache.kafka.clients.admin.AlterConfigOp.OpType.SET)))).all().get();
        dev.guard.drain.Durability unclean = q.durability();
        assertEquals(dev.guard.drain.Durability.Verdict.LOST_ON_RESTART, unclean.verdict(), unclean.render());
        assertTrue(unclean.action().contains("unclean.leader.election.enable=false"), unclean.action());

        assertEquals(dev.guard.drain.Durability.Verdict.LOST_ON_RESTART,
                KafkaDurability.judge("k", topic, 3, 6, 1, 1, false, null).verdict(), "RF 1 on three brokers");
        assertEquals(dev.guard.drain.Durability.Verdict.LOST_ON_RESTART,
                KafkaDurability.judge("k", topic, 3, 6, 3, 1, false, null).verdict(), "min.insync.replicas 1");
        assertEquals(dev.guard.drain.Durability.Verdict.KEPT,
                KafkaDurability.judge("k", topic, 3, 6, 3, 2, false, null).verdict(), "RF 3, min.insync.replicas 2");
    }

    /** What a read_committed consumer finds in {@code out} within a few seconds (key=value). */
    static List<String> committedOutputs(String out, int expect) {
        List<String> seen = new ArrayList<>();
        try (KafkaConsumer<String, String> reader = new KafkaConsumer<>(Map.of("bootstrap.servers", kafka.bootstrapServers(),
                "isolation.level", "read_committed", "auto.offset.reset", "earliest", "group.id", out + "-reader"),
                new StringDeserializer(), new StringDeserializer())) {
            reader.subscribe(List.of(out));
            long until = System.nanoTime() + Duration.ofSeconds(20).toNanos();
            int quiet = 0;
            while (System.nanoTime() < until && (seen.size() < expect || quiet < 3)) {
                var records = reader.poll(Duration.ofMillis(500));
                quiet = records.isEmpty() ? quiet + 1 : 0;
                records.forEach(r -> seen.add(r.key() + "=" + r.value()));
            }
        }
        return seen;
    }

    @Test
    void transactionsWriteEachResultOnceWithItsOffset() throws Exception {
        String out = topic + ".done";
        produce("job-t1", "job-t2", "job-t3");
        KafkaQueue q = source(Map.of());
        dev.guard.drain.Drain drain = dev.guard.drain.Drain.create(dev.guard.drain.DrainConfig.builder().workerId("t").build());
        try (KafkaTransactions done = KafkaTransactions.of(q)) {
            dev.guard.drain.ShutdownReceipt r = dev.guard.drain.DrainLoop.builder(drain, q, dev.guard.drain.Once.handler(done,
                    q::idOf, (KafkaJob job, dev.guard.drain.Drain d, KafkaWrites w) -> {
                        w.send(out, job.id(), "thumb-of-" + job.id());
                        if (job.id().equals("job-t3")) {
                            d.requestStop("test: all three taken");
                        }
                    })).build().run();
            assertEquals(3, r.done(), r.toLine());
        }
        assertEquals(3, committed(), "the offsets went with the transactions");
        assertEquals(List.of("job-t1=thumb-of-job-t1", "job-t2=thumb-of-job-t2", "job-t3=thumb-of-job-t3"),
                committedOutputs(out, 3));
    }

    /**
     * A member whose partition went to another while it ran a job (its revocation wait passed) writes
     * nothing: the other member's run is the one whose result and offset commit, once.
     */
    @Test
    void aMemberWhosePartitionWasGivenAwayWritesNothing() throws Exception {
        String out = topic + ".done";
        produce("job-z1");
        // the range assignor gives the one partition to the member whose id sorts first: "a-..." once it joins
        KafkaQueue a = member("z-" + topic, Duration.ofMillis(200));
        try (KafkaTransactions aDone = KafkaTransactions.of(a)) {
            KafkaJob held = fetch(a, Duration.ofSeconds(60));
            dev.guard.drain.CompletionStore.Claim aClaim = aDone.claim(held.id());
            KafkaQueue b = member("a-" + topic, null);
            try (KafkaTransactions bDone = KafkaTransactions.of(b)) {
                KafkaJob again = fetch(b, Duration.ofSeconds(60));
                assertEquals("job-z1", again.id(), "the partition went to b, which reads from the committed offset");
                dev.guard.drain.CompletionStore.Claim bClaim = bDone.claim(again.id());
                assertEquals(dev.guard.drain.CompletionStore.Verdict.RECORDED,
                        bDone.complete(bClaim, bDone.writes(bClaim).send(out, "job-z1", "from-b")));
                b.ack(again);
                assertEquals(dev.guard.drain.CompletionStore.Verdict.SUPERSEDED,
                        aDone.complete(aClaim, aDone.writes(aClaim).send(out, "job-z1", "from-a")));
            }
        }
        // the transaction's offset becomes visible once its markers are written; seen once (1 run in 6,
        // Kafka 4.3.1) to lag the commit's return, where it was -1 for a moment: waited for, bounded
        long committed = committed();
        for (long until = System.nanoTime() + Duration.ofSeconds(10).toNanos(); committed != 1 && System.nanoTime() < until; ) {
            Thread.sleep(100);
            committed = committed();
        }
        assertEquals(1, committed);
        assertEquals(List.of("job-z1=from-b"), committedOutputs(out, 1));
    }
}
