package dev.guard.queue.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
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
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@link KafkaShareQueue} against a real KRaft broker of the project's Kafka version (share groups,
 * KIP-932): the group's settings checked and set at build, ACCEPT, RELEASE with the broker's
 * delivery count, the interruption limit dead-lettering before the broker's own limit archives,
 * failures dead-lettered, and a job longer than the record lock kept by renewals. The lock is 2 s
 * here (the broker's minimum lowered for the test) so that renewals and expiry happen within it.
 */
@ExtendWith(NoLeakedProcesses.class)
class KafkaShareQueueTest {

    static final int LOCK_MS = 2000;
    static KafkaBroker kafka;
    static Admin admin;

    final String topic = MachineServices.uniqueName("guard-share");
    final String group = topic + "-workers";
    final List<AutoCloseable> closing = new ArrayList<>();

    @BeforeAll
    static void startBroker() {
        kafka = KafkaBroker.builder().setting("group.share.min.record.lock.duration.ms", "1000")
                .setting("group.share.record.lock.duration.ms", Integer.toString(LOCK_MS)).build().start();
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

    private KafkaShareQueue.Builder builder() {
        return KafkaShareQueue.builder(Map.of("bootstrap.servers", kafka.bootstrapServers()), topic, group)
                .pollTimeout(Duration.ofMillis(200)).idOf((value, key) -> value);
    }

    private KafkaShareQueue open(KafkaShareQueue.Builder b) {
        KafkaShareQueue q = b.build();
        closing.add(q);
        return q;
    }

    void produce(String... values) throws Exception {
        KafkaQueueTest.produceTo(kafka.bootstrapServers(), topic, values);
    }

    static KafkaJob fetch(KafkaShareQueue q, Duration within) {
        return KafkaQueueTest.fetch(q, within);
    }

    static Optional<KafkaJob> none(KafkaShareQueue q, Duration during) {
        long until = System.nanoTime() + during.toNanos();
        while (System.nanoTime() < until) {
            Optional<KafkaJob> job = q.fetch();
            if (job.isPresent()) {
                return job;
            }
        }
        return Optional.empty();
    }

    Config groupConfig() throws Exception {
        ConfigResource res = new ConfigResource(ConfigResource.Type.GROUP, group);
        return admin.describeConfigs(List.of(res)).all().get().get(res);
    }

    /**
     * The group's setting {@code name} once it reads {@code expected}, or what it reads after 10 s:
     * an alteration reaches the broker that answers describeConfigs through the metadata log, and
     * was seen once (a loaded machine) to answer the old value right after the alteration returned.
     */
    String groupSetting(String name, String expected) throws Exception {
        String value = groupConfig().get(name).value();
        for (long until = System.nanoTime() + Duration.ofSeconds(10).toNanos();
                !expected.equals(value) && System.nanoTime() < until; ) {
            Thread.sleep(50);
            value = groupConfig().get(name).value();
        }
        return value;
    }

    List<ConsumerRecord<String, String>> deadLetters(int expected) {
        List<ConsumerRecord<String, String>> dead = new ArrayList<>();
        try (KafkaConsumer<String, String> reader = new KafkaConsumer<>(Map.of("bootstrap.servers", kafka.bootstrapServers(),
                "group.id", topic + "-reader", "auto.offset.reset", "earliest"), new StringDeserializer(), new StringDeserializer())) {
            reader.subscribe(List.of(topic + ".dead"));
            long until = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (dead.size() < expected && System.nanoTime() < until) {
                reader.poll(Duration.ofMillis(200)).forEach(dead::add);
            }
        }
        return dead;
    }

    static String header(ConsumerRecord<String, String> r, String name) {
        return new String(r.headers().lastHeader(name).value(), StandardCharsets.UTF_8);
    }

    @Test
    void jobsProducedBeforeTheGroupExistedAreDeliveredAndAnAcceptedOneNeverComesBack() throws Exception {
        produce("job-s1", "job-s2");
        KafkaShareQueue q = open(builder());
        assertEquals("earliest", groupSetting(KafkaShareQueue.OFFSET_RESET, "earliest"),
                "a new share group starts at the log's end: guard set earliest");
        assertEquals("5", groupSetting(KafkaShareQueue.DELIVERY_LIMIT, "5"), "the default limit 5 >= 3 + 1: left alone");
        // a share group does not promise the order of records: both, in either order
        KafkaJob first = fetch(q, Duration.ofSeconds(60));
        assertEquals(1, first.deliveries());
        q.ack(first);
        KafkaJob second = fetch(q, Duration.ofSeconds(10));
        q.ack(second);
        assertEquals(java.util.Set.of("job-s1", "job-s2"), java.util.Set.of(first.id(), second.id()));
        assertEquals(Optional.empty(), none(q, Duration.ofMillis(LOCK_MS * 2L)), "accepted records are done");
    }

    @Test
    void aHandBackReleasesTheRecordAndTheBrokerCountsTheDelivery() throws Exception {
        produce("job-r1");
        KafkaShareQueue q = open(builder());
        KafkaJob job = fetch(q, Duration.ofSeconds(60));
        q.handBack(job);
        KafkaJob again = fetch(q, Duration.ofSeconds(10));
        assertEquals("job-r1", again.id());
        assertEquals(job.offset(), again.offset());
        assertEquals(2, again.deliveries(), "the broker's delivery count: one interruption");
        q.ack(again);
    }

    @Test
    void aJobInterruptedMaxInterruptionsTimesIsDeadLetteredWithItsCountNotRun() throws Exception {
        produce("job-x1");
        KafkaShareQueue q = open(builder().maxInterruptions(2));
        KafkaJob job = fetch(q, Duration.ofSeconds(60));
        assertEquals("job-x1", job.id());
        q.handBack(job);
        KafkaJob again = fetch(q, Duration.ofSeconds(10));
        assertEquals("job-x1", again.id());
        assertEquals(2, again.deliveries());
        q.handBack(again);
        assertEquals(Optional.empty(), none(q, Duration.ofSeconds(3)),
                "job-x1's third delivery went to the dead-letter topic instead of the worker");
        assertEquals(1, q.deadLettered());
        produce("job-x2");
        KafkaJob next = fetch(q, Duration.ofSeconds(10));
        assertEquals("job-x2", next.id(), "the queue goes on after a dead letter");
        q.ack(next);
        List<ConsumerRecord<String, String>> dead = deadLetters(1);
        assertEquals(1, dead.size());
        assertEquals("job-x1", dead.get(0).value());
        assertEquals("interrupted 2 times (limit 2)", header(dead.get(0), "guard.reason"));
        assertEquals("3", header(dead.get(0), "guard.deliveries"));
        assertEquals(topic + "-0@0", header(dead.get(0), "guard.source"));
        assertEquals(Optional.empty(), none(q, Duration.ofMillis(LOCK_MS * 2L)), "rejected after the dead letter: gone");
    }

    @Test
    void aFailedJobGoesToTheDeadTopicWithItsReasonAndIsNotDeliveredAgain() throws Exception {
        produce("job-f1");
        KafkaShareQueue q = open(builder());
        q.fail(fetch(q, Duration.ofSeconds(60)), new IllegalStateException("thumbnail service said 500"));
        List<ConsumerRecord<String, String>> dead = deadLetters(1);
        assertEquals(1, dead.size());
        assertEquals("failed: java.lang.IllegalStateException: thumbnail service said 500", header(dead.get(0), "guard.reason"));
        assertEquals(Optional.empty(), none(q, Duration.ofMillis(LOCK_MS * 2L)));
    }

    @Test
    void aJobLongerThanTheLockIsRenewedSoNoOtherMemberGetsIt() throws Exception {
        produce("job-l1");
        KafkaShareQueue a = open(builder());
        KafkaShareQueue b = open(builder());
        KafkaShareQueue holder;
        KafkaJob job;
        // either member may get the record: poll both
        long until = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (true) {
            Optional<KafkaJob> ja = a.fetch();
            if (ja.isPresent()) {
                holder = a;
                job = ja.get();
                break;
            }
            Optional<KafkaJob> jb = b.fetch();
            if (jb.isPresent()) {
                holder = b;
                job = jb.get();
                break;
            }
            assertTrue(System.nanoTime() < until, "no record within 60 s");
        }
        KafkaShareQueue other = holder == a ? b : a;
        // the clock the timeout budget shows as renewed, read from the group's settings at build
        JobClock lock = holder.clocks().get(0);
        assertEquals(Duration.ofMillis(LOCK_MS), lock.value(), lock.toString());
        assertEquals(JobClock.Effect.RENEWED, lock.effect());
        assertTrue(lock.origin().startsWith("share.record.lock.duration.ms of share group '" + group + "'"), lock.origin());
        Optional<KafkaJob> stolen = none(other, Duration.ofMillis(LOCK_MS * 3L));
        assertEquals(Optional.empty(), stolen, "the lock of the job in hand was renewed for three lock durations");
        holder.ack(job);
        assertEquals(Optional.empty(), none(other, Duration.ofMillis(LOCK_MS * 2L)), "accepted after the renewals");
    }

    @Test
    void aGroupLimitBelowGuardsIsRaisedWhenDeclaredAndRefusedWithTheFixWhenNot() throws Exception {
        ConfigResource res = new ConfigResource(ConfigResource.Type.GROUP, group);
        admin.incrementalAlterConfigs(Map.of(res, List.of(new AlterConfigOp(
                new ConfigEntry(KafkaShareQueue.DELIVERY_LIMIT, "3"), AlterConfigOp.OpType.SET)))).all().get();
        assertEquals("3", groupSetting(KafkaShareQueue.DELIVERY_LIMIT, "3"));
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> builder().declare(false).build());
        assertTrue(e.getMessage().contains("share group '" + group + "' archives a record after 3 deliveries"
                + " (share.delivery.count.limit = 3, set on the group), before guard dead-letters it at delivery 4"
                + " (maxInterruptions 3)"), e.getMessage());
        assertTrue(e.getMessage().contains("kafka-configs.sh --alter --entity-type groups --entity-name " + group
                + " --add-config share.delivery.count.limit=4, or maxInterruptions(2)"), e.getMessage());
        assertEquals("3", groupConfig().get(KafkaShareQueue.DELIVERY_LIMIT).value(), "declare(false) changes nothing");
        open(builder());
        assertEquals("4", groupSetting(KafkaShareQueue.DELIVERY_LIMIT, "4"), "raised to maxInterruptions + 1");
        assertNotNull(groupConfig().get(KafkaShareQueue.OFFSET_RESET));
    }
}
