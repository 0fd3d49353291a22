package dev.guard.queue.nats;

import io.nats.client.Message;
import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * One message taken from a JetStream pull consumer: its id, its data (handed back unchanged by
 * the server), its stream sequence and how often the server delivered it.
 */
public final class NatsJob {

    private final String id;
    private final long streamSequence;
    private final long deliveries;
    final Message message;

    NatsJob(String id, Message message) {
        this.id = Objects.requireNonNull(id, "id");
        this.message = message;
        this.streamSequence = message.metaData().streamSequence();
        this.deliveries = message.metaData().deliveredCount();
    }

    public String id() {
        return id;
    }

    /** The data as UTF-8 text. */
    public String payload() {
        return new String(message.getData(), StandardCharsets.UTF_8);
    }

    public String subject() {
        return message.getSubject();
    }

    public long streamSequence() {
        return streamSequence;
    }

    /** How often the server delivered it, this delivery included (1 the first time). */
    public long deliveries() {
        return deliveries;
    }

    /** Interruptions before this delivery: naks (hand-backs) and AckWait expiries (a worker died holding it). */
    public long interruptions() {
        return deliveries - 1;
    }

    @Override
    public String toString() {
        return "NatsJob{id=" + id + ", seq=" + streamSequence + ", deliveries=" + deliveries + "}";
    }
}
