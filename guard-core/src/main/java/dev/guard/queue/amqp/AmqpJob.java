package dev.guard.queue.amqp;

import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * One delivery taken from a RabbitMQ queue: its id, its body (handed back unchanged), the
 * delivery tag it is acked with, and how often it was interrupted before (handed back, or its
 * worker died holding it).
 */
public final class AmqpJob {

    private final String id;
    private final byte[] body;
    private final long deliveryTag;
    private final long interruptions;
    private final boolean redelivered;
    private final String messageId;
    final com.rabbitmq.client.AMQP.BasicProperties properties;

    AmqpJob(String id, byte[] body, long deliveryTag, long interruptions, boolean redelivered, String messageId,
            com.rabbitmq.client.AMQP.BasicProperties properties) {
        this.id = Objects.requireNonNull(id, "id");
        this.body = body;
        this.deliveryTag = deliveryTag;
        this.interruptions = interruptions;
        this.redelivered = redelivered;
        this.messageId = messageId;
        this.properties = properties;
    }

    public String id() {
        return id;
    }

    /** The body as UTF-8 text. */
    public String payload() {
        return new String(body, StandardCharsets.UTF_8);
    }

    public byte[] body() {
        return body.clone();
    }

    public long deliveryTag() {
        return deliveryTag;
    }

    /** Interruptions before this delivery: hand-backs, and deaths of a worker that held it (see {@link AmqpQueue}). */
    public long interruptions() {
        return interruptions;
    }

    /** The broker's flag: this message was delivered before and not acked. */
    public boolean redelivered() {
        return redelivered;
    }

    /** The AMQP message-id property; null when the producer set none. */
    public String messageId() {
        return messageId;
    }

    @Override
    public String toString() {
        return "AmqpJob{id=" + id + ", tag=" + deliveryTag + ", interruptions=" + interruptions
                + (redelivered ? ", redelivered" : "") + "}";
    }
}
