package dev.guard.queue.kafka;

import java.nio.charset.StandardCharsets;
import java.util.Objects;
import org.apache.kafka.common.TopicPartition;

/** One record taken from a Kafka topic partition: its id, value, and coordinates. */
public final class KafkaJob {

    private final String id;
    private final TopicPartition partition;
    private final long offset;
    private final String key;
    private final byte[] value;
    final long generation;

    KafkaJob(String id, TopicPartition partition, long offset, String key, byte[] value, long generation) {
        this.id = Objects.requireNonNull(id, "id");
        this.partition = partition;
        this.offset = offset;
        this.key = key;
        this.value = value == null ? new byte[0] : value;
        this.generation = generation;
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
        return "KafkaJob{id=" + id + ", " + partition + "@" + offset + "}";
    }
}
