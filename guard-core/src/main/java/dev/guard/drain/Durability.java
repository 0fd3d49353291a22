package dev.guard.drain;

import java.util.Objects;

/**
 * What a {@link JobSource}'s broker keeps when it restarts: the jobs waiting in the queue and the
 * ones workers hold unacked. A crash-safe source protects a job from its worker's death only; a
 * broker that keeps its queue in memory loses every such job when it restarts, and nobody sees a
 * line. {@link JobSource#durability()} reports it, read from the broker itself (Redis
 * {@code CONFIG GET appendonly}, a RabbitMQ queue's declaration, a JetStream stream's storage, a
 * Kafka topic's replication), before the source takes its first job.
 *
 * @param verdict what a restart of the broker does to the jobs it holds
 * @param broker what was asked, as the user knows it ({@code redis 127.0.0.1:6379 (Redis 7.0.15)})
 * @param found what the broker said, in its own settings' names ({@code appendonly no, save ''})
 * @param loses what a restart (or the loss of one server) would lose; empty when {@link Verdict#KEPT}
 * @param action what to set on the broker so that it keeps them; empty when {@link Verdict#KEPT}
 */
public record Durability(Verdict verdict, String broker, String found, String loses, String action) {

    /** What a restart of the broker does to the jobs it holds. */
    public enum Verdict {
        /** A restart (and, where the broker declares a cluster, the loss of one server) loses no acknowledged job. */
        KEPT,
        /** A restart, or the loss of one server of the cluster, loses jobs: {@link #loses()} says which. */
        LOST_ON_RESTART,
        /** The broker would not say (a command refused, a timeout): {@link #found()} says what was tried. */
        UNKNOWN,
        /** The source does not report it (a source written outside guard). */
        NOT_REPORTED
    }

    public Durability {
        Objects.requireNonNull(verdict, "verdict");
        broker = Objects.requireNonNullElse(broker, "");
        found = Objects.requireNonNullElse(found, "");
        loses = Objects.requireNonNullElse(loses, "");
        action = Objects.requireNonNullElse(action, "");
    }

    /** The broker keeps what it holds: {@code found} says how. */
    public static Durability kept(String broker, String found) {
        return new Durability(Verdict.KEPT, broker, found, "", "");
    }

    /** A restart loses {@code loses}; {@code action} is what to set on the broker. */
    public static Durability lost(String broker, String found, String loses, String action) {
        return new Durability(Verdict.LOST_ON_RESTART, broker, found, loses, action);
    }

    /** The broker would not say; {@code found} is what was tried and what came back. */
    public static Durability unknown(String broker, String found, String action) {
        return new Durability(Verdict.UNKNOWN, broker, found, "", action);
    }

    /** A source that does not report what its broker keeps. */
    public static Durability notReported(String source) {
        return new Durability(Verdict.NOT_REPORTED, source, "the source does not report what its broker keeps", "", "");
    }

    /**
     * The verdict from a broker's findings: kept when nothing would be lost, otherwise lost with
     * every loss and every action named; {@code found} joined with "; ".
     */
    public static Durability of(String broker, java.util.List<String> found, java.util.List<String> loses,
            java.util.List<String> actions) {
        if (loses.isEmpty()) {
            return kept(broker, String.join("; ", found));
        }
        return lost(broker, String.join("; ", found), String.join("; and ", loses), String.join("; ", actions));
    }

    /** Several lines: the broker, what it said, what a restart loses, what to set. */
    public String render() {
        StringBuilder b = new StringBuilder(broker).append(": ").append(switch (verdict) {
            case KEPT -> "keeps its jobs across a restart";
            case LOST_ON_RESTART -> "a restart loses jobs";
            case UNKNOWN -> "could not tell whether a restart loses jobs";
            case NOT_REPORTED -> "not checked";
        });
        b.append("\n  found: ").append(found);
        if (!loses.isEmpty()) {
            b.append("\n  loses: ").append(loses);
        }
        if (!action.isEmpty()) {
            b.append("\n  action: ").append(action);
        }
        return b.toString();
    }
}
