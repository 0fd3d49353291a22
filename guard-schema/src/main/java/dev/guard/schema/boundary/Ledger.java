package dev.guard.schema.boundary;

import dev.guard.GuardLog;
import dev.guard.schema.Outcome;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Counts receptions and outcomes by job id. Thread-safe. Every {@link #received(String)} must be
 * matched by exactly one {@link #record(String, Outcome)}; an outcome with no reception waiting for
 * it (a second outcome for the same job) throws {@link IllegalStateException} instead of being
 * counted. A job redelivered by the broker is received again and needs an outcome again.
 *
 * <p>Memory: only receptions still waiting for an outcome are kept by id, plus the last outcome of
 * the most recent 10,000 finished ids (for the error message of a double outcome).
 */
public final class Ledger {

    private static final int RECENT = 10_000;

    private final Object lock = new Object();
    /** id -> receptions still waiting for an outcome; insertion order = first reception. */
    private final Map<String, Integer> pending = new LinkedHashMap<>();
    private final Map<String, Outcome> recent = new LinkedHashMap<>(256, 0.75f, false) {
        private static final long serialVersionUID = 1L;

        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Outcome> eldest) {
            return size() > RECENT;
        }
    };
    private final EnumMap<Outcome, Long> counts = new EnumMap<>(Outcome.class);
    private long received;
    private final java.util.List<Listener> listeners = new java.util.concurrent.CopyOnWriteArrayList<>();

    /** Told of each reception and outcome as it is recorded (log lines, metrics); called outside the ledger's lock. */
    public interface Listener {
        default void received(String jobId) {
        }

        default void recorded(String jobId, Outcome outcome) {
        }
    }

    /** Adds a listener. One that throws is logged and does not change what the ledger records. */
    public void addListener(Listener listener) {
        listeners.add(java.util.Objects.requireNonNull(listener, "listener"));
    }

    public Ledger() {
        for (Outcome o : Outcome.values()) {
            counts.put(o, 0L);
        }
    }

    /** A job with this id was taken from the broker and now needs exactly one outcome. */
    public void received(String jobId) {
        requireId(jobId);
        synchronized (lock) {
            received++;
            pending.merge(jobId, 1, Integer::sum);
        }
        for (Listener l : listeners) {
            try {
                l.received(jobId);
            } catch (RuntimeException e) {
                GuardLog.logger(Ledger.class).warn("ledger listener {} failed on job {}: {}", l, jobId, e.toString());
            }
        }
    }

    /**
     * The outcome of a received job.
     *
     * @throws IllegalStateException when no reception of this id is waiting for an outcome (never
     *                               received, or already given an outcome)
     */
    public void record(String jobId, Outcome outcome) {
        requireId(jobId);
        if (outcome == null) {
            throw new IllegalArgumentException("outcome must not be null (job " + jobId + ")");
        }
        synchronized (lock) {
            Integer waiting = pending.get(jobId);
            if (waiting == null) {
                Outcome previous = recent.get(jobId);
                throw new IllegalStateException("ledger: job " + jobId + " has no reception waiting for an outcome, cannot record "
                        + outcome + (previous == null ? " (it was never received)" : " (it already ended as " + previous + ")")
                        + "; every received job gets exactly one outcome: call received(id) once per delivery and record(id, outcome) once");
            }
            if (waiting == 1) {
                pending.remove(jobId);
            } else {
                pending.put(jobId, waiting - 1);
            }
            counts.merge(outcome, 1L, Long::sum);
            recent.put(jobId, outcome);
        }
        for (Listener l : listeners) {
            try {
                l.recorded(jobId, outcome);
            } catch (RuntimeException e) {
                GuardLog.logger(Ledger.class).warn("ledger listener {} failed on job {}: {}", l, jobId, e.toString());
            }
        }
    }

    /** True when at least one reception of this id is waiting for an outcome. */
    public boolean isPending(String jobId) {
        synchronized (lock) {
            return pending.containsKey(jobId);
        }
    }

    /** The last outcome recorded for this id, among the most recent 10,000; empty while pending or unknown. */
    public java.util.Optional<Outcome> outcomeOf(String jobId) {
        synchronized (lock) {
            return java.util.Optional.ofNullable(recent.get(jobId));
        }
    }

    /** The counts now and the ids of receptions without an outcome. */
    public Reconciliation reconcile() {
        synchronized (lock) {
            List<String> missing = new ArrayList<>();
            for (Map.Entry<String, Integer> e : pending.entrySet()) {
                for (int i = 0; i < e.getValue(); i++) {
                    missing.add(e.getKey());
                }
            }
            return new Reconciliation(received, counts.get(Outcome.PROCESSED), counts.get(Outcome.REJECTED),
                    counts.get(Outcome.FAILED), counts.get(Outcome.HANDED_BACK), counts.get(Outcome.DUPLICATE),
                    counts.get(Outcome.SUPERSEDED), missing);
        }
    }

    /** {@code "received=100 processed=91 rejected=9 failed=0 handed_back=0 missing=0"}. */
    public String summaryLine() {
        return reconcile().summaryLine();
    }

    /** {@link Reconciliation#toJson()} of the current state. */
    public String toJson() {
        return reconcile().toJson();
    }

    private static void requireId(String jobId) {
        if (jobId == null || jobId.isEmpty()) {
            throw new IllegalArgumentException("ledger: job id must be a non-empty string, was "
                    + (jobId == null ? "null" : "empty"));
        }
    }

    @Override
    public String toString() {
        return summaryLine();
    }
}
