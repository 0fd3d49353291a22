package dev.guard.queue.kafka;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * A job's results as Kafka records, which {@link KafkaTransactions#complete} produces in one
 * transaction with the job's offset: a consumer that reads with {@code isolation.level=read_committed}
 * sees them once, or not at all. The handler adds them instead of producing them itself.
 */
public final class KafkaWrites {

    private final List<ProducerRecord<String, String>> records = new ArrayList<>();

    KafkaWrites() {
    }

    /** A record for {@code topic}, with {@code key} (null for none) and {@code value}. */
    public KafkaWrites send(String topic, String key, String value) {
        records.add(new ProducerRecord<>(Objects.requireNonNull(topic, "topic"), key, value));
        return this;
    }

    /** Any record (headers, partition, timestamp). */
    public KafkaWrites send(ProducerRecord<String, String> record) {
        records.add(Objects.requireNonNull(record, "record"));
        return this;
    }

    List<ProducerRecord<String, String>> records() {
        return Collections.unmodifiableList(records);
    }

    public int size() {
        return records.size();
    }
}
