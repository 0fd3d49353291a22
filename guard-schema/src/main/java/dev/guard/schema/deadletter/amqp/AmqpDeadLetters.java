package dev.guard.schema.deadletter.amqp;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import dev.guard.config.Redaction;
import dev.guard.schema.deadletter.DeadLetter;
import dev.guard.schema.deadletter.DeadLetterException;
import dev.guard.schema.deadletter.DeadLetterSink;
import java.io.IOException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeoutException;

/**
 * Dead letters published to RabbitMQ: the body is the original payload, byte for byte; the metadata
 * is in the message headers ({@link DeadLetter#metadataHeaders()}). Publishes persistent, mandatory
 * and with publisher confirms on its own channel: a write returns only once the broker confirmed it,
 * and a letter no queue would receive (unroutable) fails the write instead of vanishing.
 */
public final class AmqpDeadLetters implements DeadLetterSink, AutoCloseable {

    private final Channel channel;
    private final String exchange;
    private final String routingKey;
    private final Duration confirmTimeout;
    private final String target;
    private final Set<String> returned = ConcurrentHashMap.newKeySet();

    private AmqpDeadLetters(Channel channel, String exchange, String routingKey, Duration confirmTimeout, String target) {
        this.channel = channel;
        this.exchange = exchange;
        this.routingKey = routingKey;
        this.confirmTimeout = confirmTimeout;
        this.target = target;
        channel.addReturnListener(r -> {
            if (r.getProperties() != null && r.getProperties().getMessageId() != null) {
                returned.add(r.getProperties().getMessageId());
            }
        });
    }

    /**
     * To a queue through the default exchange. The queue must exist (checked now, passively).
     *
     * @throws DeadLetterException when the channel cannot be opened or the queue does not exist
     */
    public static AmqpDeadLetters toQueue(Connection connection, String queue) {
        Objects.requireNonNull(queue, "queue");
        return open(connection, "", queue, queue, "rabbitmq queue '" + queue + "'");
    }

    /**
     * To an exchange with a routing key. The exchange must exist (checked now, passively); a letter that
     * no binding routes to a queue fails its write.
     */
    public static AmqpDeadLetters toExchange(Connection connection, String exchange, String routingKey) {
        Objects.requireNonNull(exchange, "exchange");
        Objects.requireNonNull(routingKey, "routingKey");
        return open(connection, exchange, routingKey, null,
                "rabbitmq exchange '" + exchange + "' routing key '" + routingKey + "'");
    }

    private static AmqpDeadLetters open(Connection connection, String exchange, String routingKey, String queue,
                                        String target) {
        Objects.requireNonNull(connection, "connection");
        String where = target + " on " + (connection.getAddress() == null ? "?" : connection.getAddress().getHostAddress()) + ":" + connection.getPort();
        Channel ch = null;
        try {
            ch = connection.createChannel();
            if (queue != null) {
                ch.queueDeclarePassive(queue);
            } else if (!exchange.isEmpty()) {
                ch.exchangeDeclarePassive(exchange);
            }
            ch.confirmSelect();
            return new AmqpDeadLetters(ch, exchange, routingKey, Duration.ofSeconds(10), where);
        } catch (IOException | RuntimeException e) {
            if (ch != null && ch.isOpen()) {
                try {
                    ch.close();
                } catch (IOException | TimeoutException | RuntimeException ignored) {
                    // the channel is already broken; the DeadLetterException below carries the cause
                }
            }
            throw new DeadLetterException("dead-letter sink: cannot use " + where + ": " + cause(e)
                    + "; declare the " + (queue != null ? "queue" : "exchange") + " before starting the consumer", e);
        }
    }

    @Override
    public synchronized void write(DeadLetter letter) {
        String id = "guard-dl-" + UUID.randomUUID();
        Map<String, Object> headers = new LinkedHashMap<>(letter.metadataHeaders());
        AMQP.BasicProperties props = new AMQP.BasicProperties.Builder()
                .deliveryMode(2)
                .messageId(id)
                .headers(headers)
                .build();
        try {
            channel.basicPublish(exchange, routingKey, true, props, letter.originalPayload());
            channel.waitForConfirmsOrDie(confirmTimeout.toMillis());
        } catch (IOException | TimeoutException | InterruptedException | RuntimeException e) {
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            throw new DeadLetterException("dead letter for job " + letter.jobId() + " not confirmed by " + target + ": "
                    + cause(e) + "; the job is not acknowledged", e);
        }
        if (returned.remove(id)) {
            throw new DeadLetterException("dead letter for job " + letter.jobId() + " returned unroutable by " + target
                    + ": no queue is bound for it; bind a queue, the job is not acknowledged");
        }
    }

    private static String cause(Exception e) {
        Throwable c = e.getCause() != null && e.getMessage() == null ? e.getCause() : e;
        return c.getClass().getSimpleName() + ": " + Redaction.maskText(String.valueOf(c.getMessage()));
    }

    /** Closes this sink's channel (not the connection). */
    @Override
    public void close() {
        try {
            if (channel.isOpen()) {
                channel.close();
            }
        } catch (IOException | TimeoutException e) {
            throw new DeadLetterException("closing the dead-letter channel of " + target + " failed: " + cause(e), e);
        }
    }

    @Override
    public String toString() {
        return "AmqpDeadLetters[" + target + "]";
    }
}
