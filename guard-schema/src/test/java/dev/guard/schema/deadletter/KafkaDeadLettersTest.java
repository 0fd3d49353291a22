package dev.guard.schema.deadletter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.guard.schema.Outcome;
import dev.guard.schema.SourceInfo;
import dev.guard.schema.deadletter.kafka.KafkaDeadLetters;
import dev.guard.testing.KafkaBroker;
import dev.guard.testing.NoLeakedProcesses;
import dev.guard.testing.Patience;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The Kafka sink against a real single-node KRaft broker (the guard-core {@link KafkaBroker} fixture). */
@ExtendWith(NoLeakedProcesses.class)
class KafkaDeadLettersTest extends SkewContract {

    static KafkaBroker broker;
    KafkaProducer<byte[], byte[]> producer;

    @BeforeAll
    static void startBroker() {
        broker = KafkaBroker.builder().build().start();
    }

    @AfterAll
    static void stopBroker() {
        if (broker != null) {
            broker.close();
        }
    }

    @Override
    String broker() {
        return "kafka";
    }

    @Override
    DeadLetterSink sink() {
        producer = producer(broker.bootstrapServers(), 30_000);
        return KafkaDeadLetters.of(producer, unique);
    }

    static KafkaProducer<byte[], byte[]> producer(String bootstrap, int maxBlockMs) {
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        p.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, maxBlockMs);
        p.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, Math.max(maxBlockMs, 2000));
        p.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, Math.min(maxBlockMs, 2000));
        p.put(ProducerConfig.LINGER_MS_CONFIG, 0);
        return new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer());
    }

    @Override
    List<ReadBack> readBack(int n) {
        Properties p = new Properties();
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers());
        p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        List<ReadBack> out = new ArrayList<>();
        try (KafkaConsumer<byte[], byte[]> c = new KafkaConsumer<>(p, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            TopicPartition tp = new TopicPartition(unique, 0);
            c.assign(List.of(tp));
            c.seekToBeginning(List.of(tp));
            long deadline = System.nanoTime() + Patience.WAIT.toNanos();
            while (out.size() < n && System.nanoTime() < deadline) {
                for (ConsumerRecord<byte[], byte[]> r : c.poll(Duration.ofMillis(500))) {
                    Map<String, String> meta = new HashMap<>();
                    for (Header h : r.headers()) {
                        meta.put(shortName(h.key()), new String(h.value(), StandardCharsets.UTF_8));
                    }
                    assertEquals(meta.get("job_id"), new String(r.key(), StandardCharsets.UTF_8), "the record key is the job id");
                    out.add(new ReadBack(r.value(), meta));
                }
            }
        }
        return out;
    }

    @Test
    void unreachableBrokerFailsTheWriteWithinTheTimeout() {
        try (KafkaProducer<byte[], byte[]> dead = producer("127.0.0.1:" + dev.guard.testing.FreePorts.next(), 1500)) {
            DeadLetter letter = new DeadLetter(new byte[] {'x'}, Outcome.REJECTED, "r", List.of(), List.of(), null,
                    SourceInfo.kafka("in", 0, 1), "job-k", null, "c", null);
            DeadLetterException e = assertThrows(DeadLetterException.class,
                    () -> KafkaDeadLetters.of(dead, unique, Duration.ofSeconds(5)).write(letter));
            assertTrue(e.getMessage().startsWith("dead letter for job job-k not acknowledged by kafka topic '" + unique + "' within 5000 ms: "),
                    e.getMessage());
            assertTrue(e.getMessage().endsWith("; the job is not acknowledged"), e.getMessage());
        }
    }

    @AfterEach
    void closeProducer() {
        if (producer != null) {
            producer.close(Duration.ofSeconds(5));
        }
    }
}
