package dev.guard.queue.redis;

import java.util.Objects;

/**
 * One job taken from Redis: its id, its payload as stored (handed back unchanged), the key it
 * came from and, for streams, the entry id and delivery count.
 */
public final class RedisJob {

    private final String id;
    private final String payload;
    private final String origin;
    private final String entryId;
    private final long deliveries;

    RedisJob(String id, String payload, String origin, String entryId, long deliveries) {
        this.id = Objects.requireNonNull(id, "id");
        this.payload = Objects.requireNonNull(payload, "payload");
        this.origin = origin;
        this.entryId = entryId;
        this.deliveries = deliveries;
    }

    public String id() {
        return id;
    }

    public String payload() {
        return payload;
    }

    /** The key the job was taken from (the queue, the fallback list, or the stream). */
    public String origin() {
        return origin;
    }

    /** The stream entry id; null for list jobs. */
    public String entryId() {
        return entryId;
    }

    /** How often the job was delivered (streams; 1 for list jobs). */
    public long deliveries() {
        return deliveries;
    }

    @Override
    public String toString() {
        return "RedisJob{id=" + id + ", origin=" + origin + (entryId == null ? "" : ", entry=" + entryId) + "}";
    }
}
