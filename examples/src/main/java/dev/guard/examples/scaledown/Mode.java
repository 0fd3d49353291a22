package dev.guard.examples.scaledown;

import java.util.Locale;

/** How a worker handles termination, one table row each. */
public enum Mode {
    /** BRPOP, no SIGTERM handler: the JVM exits at once on SIGTERM (143). */
    NONE("no SIGTERM handling"),
    /** Drain on SIGTERM: finish the current job, take no new one; no hand-back. */
    GRACEFUL("graceful shutdown"),
    /** Drain to the deadline, then hand the job back to the fallback list. */
    FALLBACK("graceful + fallback queue"),
    /** BLMOVE into a processing list, leases and a reaper; workers are SIGKILLed with no SIGTERM. */
    CRASH_SAFE("crash-safe fetch (SIGKILL only)"),
    /**
     * {@link #FALLBACK}'s worker keeping its pod's deletion cost ({@code DeletionCost}, through a
     * stand-in API server), and a scaler that removes the lowest-cost workers first, as the
     * ReplicaSet controller does; the other rows' scaler picks at random.
     */
    DELETION_COST("graceful + hand-back + deletion cost");

    private final String label;

    Mode(String label) {
        this.label = label;
    }

    public String label() {
        return label;
    }

    /** The row's name on a broker that keeps jobs until acked (RabbitMQ, NATS, Kafka). */
    public String label(Transport.Kind kind) {
        if (kind == Transport.Kind.REDIS) {
            return label;
        }
        return switch (this) {
            case NONE -> "ack on receipt, no SIGTERM handling";
            case GRACEFUL -> "ack on receipt, graceful shutdown";
            case FALLBACK -> "ack after job, graceful + hand-back";
            case CRASH_SAFE -> "ack after job (SIGKILL only)";
            case DELETION_COST -> "ack after job, hand-back + deletion cost";
        };
    }

    /** The first two rows: the job is gone from the broker once taken (BRPOP, autoAck, auto-commit). */
    boolean acksOnReceipt() {
        return this == NONE || this == GRACEFUL;
    }

    public String arg() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    public static Mode parse(String s) {
        for (Mode m : values()) {
            if (m.arg().equalsIgnoreCase(s) || m.name().equalsIgnoreCase(s)) {
                return m;
            }
        }
        throw new IllegalArgumentException("unknown mode '" + s + "'; use none, graceful, fallback, crash-safe or"
                + " deletion-cost");
    }
}
