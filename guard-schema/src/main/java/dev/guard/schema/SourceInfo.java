package dev.guard.schema;

/**
 * Where a job came from, for dead-letter metadata and log lines. Any field may be null.
 *
 * @param broker       redis, amqp, kafka, nats, ...
 * @param queueOrTopic the queue, list, stream, topic or subject
 * @param partition    Kafka partition
 * @param offset       Kafka offset (or another numeric position)
 * @param messageId    broker message id: AMQP message id or delivery tag, Redis stream id, NATS sequence
 */
public record SourceInfo(String broker, String queueOrTopic, Integer partition, Long offset, String messageId) {

    /** What a guard-core job source says of its job ({@code JobSource.originOf}). */
    public static SourceInfo of(dev.guard.drain.JobOrigin origin) {
        return new SourceInfo(origin.broker(), origin.queue(), origin.partition(), origin.offset(), origin.messageId());
    }

    /** Nothing known about the source. */
    public static SourceInfo unknown() {
        return new SourceInfo(null, null, null, null, null);
    }

    /** A Redis list or stream entry. */
    public static SourceInfo redis(String key, String entryId) {
        return new SourceInfo("redis", key, null, null, entryId);
    }

    /** A RabbitMQ queue delivery. */
    public static SourceInfo amqp(String queue, String messageId) {
        return new SourceInfo("amqp", queue, null, null, messageId);
    }

    /** A Kafka record. */
    public static SourceInfo kafka(String topic, int partition, long offset) {
        return new SourceInfo("kafka", topic, partition, offset, null);
    }

    /** A NATS message. */
    public static SourceInfo nats(String subject, String messageId) {
        return new SourceInfo("nats", subject, null, null, messageId);
    }

    /** {@code "kafka:orders[3]@1234"}, {@code "amqp:jobs#msg-7"}; never null. */
    public String describe() {
        StringBuilder sb = new StringBuilder(broker == null ? "unknown" : broker);
        if (queueOrTopic != null) {
            sb.append(':').append(queueOrTopic);
        }
        if (partition != null) {
            sb.append('[').append(partition).append(']');
        }
        if (offset != null) {
            sb.append('@').append(offset);
        }
        if (messageId != null) {
            sb.append('#').append(messageId);
        }
        return sb.toString();
    }
}
