package dev.guard.schema.deadletter.kafka;

import dev.guard.config.Redaction;
import dev.guard.schema.deadletter.DeadLetter;
import dev.guard.schema.deadletter.DeadLetterException;
import dev.guard.schema.deadletter.DeadLetterSink;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeader;

/**
 * Dead letters sent to a Kafka topic: the value is the original payload, byte for byte; the key is
 * the job id (UTF-8); the metadata is in record headers ({@link DeadLetter#metadataHeaders()}, UTF-8
 * values). A write waits for the broker's acknowledgement (as configured by the producer's
 * {@code acks}; use {@code acks=all}).
 */
public final class KafkaDeadLetters implements DeadLetterSink {

    private final Producer<byte[], byte[]> producer;
    private final String topic;
    private final Duration timeout;

    private KafkaDeadLetters(Producer<byte[], byte[]> producer, String topic, Duration timeout) {
        this.producer = producer;
        this.topic = topic;
        this.timeout = timeout;
    }

    /** Sends to {@code topic} with the given producer (owned by the caller); waits up to 30 s per letter. */
    public static KafkaDeadLetters of(Producer<byte[], byte[]> producer, String topic) {
        return of(producer, topic, Duration.ofSeconds(30));
    }

    /** Sends to {@code topic}; waits up to {@code timeout} for each acknowledgement. */
    public static KafkaDeadLetters of(Producer<byte[], byte[]> producer, String topic, Duration timeout) {
        Objects.requireNonNull(producer, "producer");
        if (topic == null || topic.isBlank()) {
            throw new IllegalArgumentException("dead-letter topic must be a non-blank Kafka topic name");
        }
        return new KafkaDeadLetters(producer, topic, Objects.requireNonNull(timeout, "timeout"));
    }

    @Override
    public void write(DeadLetter letter) {
        List<Header> headers = new ArrayList<>();
        for (Map.Entry<String, String> h : letter.metadataHeaders().entrySet()) {
            headers.add(new RecordHeader(h.getKey(), h.getValue().getBytes(StandardCharsets.UTF_8)));
        }
        byte[] key = letter.jobId() == null ? null : letter.jobId().getBytes(StandardCharsets.UTF_8);
        ProducerRecord<byte[], byte[]> record = new ProducerRecord<>(topic, null, key, letter.originalPayload(), headers);
        try {
            producer.send(record).get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException | TimeoutException | InterruptedException | RuntimeException e) {
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            Throwable c = e instanceof ExecutionException && e.getCause() != null ? e.getCause() : e;
            throw new DeadLetterException("dead letter for job " + letter.jobId() + " not acknowledged by kafka topic '"
                    + topic + "' within " + timeout.toMillis() + " ms: " + c.getClass().getSimpleName() + ": "
                    + Redaction.maskText(String.valueOf(c.getMessage())) + "; the job is not acknowledged", c);
        }
    }

    @Override
    public String toString() {
        return "KafkaDeadLetters[topic '" + topic + "']";
    }
}
