package dev.guard.drain;

/**
 * Where a job came from, as its {@link JobSource} knows it: what a dead letter's {@code source}
 * and a log line name. Any field may be null.
 *
 * @param broker    redis, amqp, kafka, nats
 * @param queue     the list, stream, queue, topic or subject the job was taken from
 * @param partition the Kafka partition
 * @param offset    the Kafka offset, or the JetStream stream sequence (both stable across redeliveries)
 * @param messageId the Redis stream entry id or the AMQP message id: a position or id the broker keeps
 *                  across redeliveries (never a delivery tag); none for a Redis list
 */
public record JobOrigin(String broker, String queue, Integer partition, Long offset, String messageId) {

    /** Nothing known. */
    public static JobOrigin unknown() {
        return new JobOrigin(null, null, null, null, null);
    }
}
