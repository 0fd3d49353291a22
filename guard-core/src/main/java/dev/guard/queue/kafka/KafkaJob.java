package dev.guard.queue.kafka;

import java.nio.charset.StandardCharsets;
import java.util.Objects;
import java.util.function.BiFunction;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.TopicPartition;

/** One record taken from a Kafka topic partition: its id, value, and coordinates. */
public final class KafkaJob {

    private final String id;
    private final TopicPartition partition;
    private final long offset;
    private final String key;
    private final byte[] value;
    final long generation;
    private final int deliveries;

    KafkaJob(String id, TopicPartition partition, long offset, String key, byte[] value, long generation) {
        this(id, partition, offset, key, value, generation, 0);
    }

    KafkaJob(String id, TopicPartition partition, long offset, String key, byte[] value, long generation, int deliveries) {
        this.id = Objects.requireNonNull(id, "id");
        this.partition = partition;
        this.offset = offset;
        this.key = key;
        this.value = value == null ? new byte[0] : value;
        this.generation = generation;
        this.deliveries = deliveries;
    }

    /**
     * A job read from {@code r}: its id from {@code idOf(value text, key)}, else the key, else
     * topic-partition@offset.
     */
    static KafkaJob of(ConsumerRecord<String, byte[]> r, BiFunction<String, String, String> idOf, long generation,
            int deliveries) {
        String text = r.value() == null ? "" : new String(r.value(), StandardCharsets.UTF_8);
        String id = idOf.apply(text, r.key());
        if (id == null || id.isBlank()) {
            id = r.key() != null ? r.key() : r.topic() + "-" + r.partition() + "@" + r.offset();
        }
        return new KafkaJob(id, new TopicPartition(r.topic(), r.partition()), r.offset(), r.key(), r.value(), generation,
                deliveries);
    }

    /** Its origin for a dead letter or a receipt: topic, partition, offset. */
    dev.guard.drain.JobOrigin origin() {
        return new dev.guard.drain.JobOrigin("kafka", topic(), partition(), offset, null);
    }

    /**
     * This record for the dead-letter topic: key and value as they came, the reason and the source
     * (topic-partition@offset) in headers, and the broker's delivery count where it keeps one.
     */
    ProducerRecord<String, byte[]> deadLetter(String deadTopic, String reason) {
        RecordHeaders headers = new RecordHeaders();
        headers.add("guard.reason", reason.getBytes(StandardCharsets.UTF_8));
        headers.add("guard.source", (partition + "@" + offset).getBytes(StandardCharsets.UTF_8));
        if (deliveries > 0) {
            headers.add("guard.deliveries", Integer.toString(deliveries).getBytes(StandardCharsets.UTF_8));
        }
        return new ProducerRecord<>(deadTopic, null, key, value, headers);
    }

    /**
     * How many times the broker has delivered this record, this delivery included: a share group's
     * delivery count (KIP-932); 0 where the group protocol keeps none (a consumer group).
     */
    public int deliveries() {
        return deliveries;
    }

    public String id() {
        return id;
    }

    public String topic() {
        return partition.topic();
    }

    public int partition() {
        return partition.partition();
    }

    TopicPartition topicPartition() {
        return partition;
    }

    public long offset() {
        return offset;
    }

    /** The record key; null when the producer set none. */
    public String key() {
        return key;
    }

    /** The value as UTF-8 text. */
    public String payload() {
        return new String(value, StandardCharsets.UTF_8);
    }

    public byte[] value() {
        return value.clone();
    }

    @Override
    public String toString() {
        return "KafkaJob{id=" + id + ", " + partition + "@" + offset + (deliveries > 0 ? ", delivery " + deliveries : "") + "}";
    }
}
