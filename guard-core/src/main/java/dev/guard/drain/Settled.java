package dev.guard.drain;

/**
 * Thrown by a {@link Once} handler when the job needs no completion from this worker: it is a
 * {@link Kind#DUPLICATE} (its completion is on record: ack it, nothing more) or it was
 * {@link Kind#SUPERSEDED} (another worker took it while this one held it: leave it to that worker,
 * see {@link JobSource#release}). A control-flow signal, not an error: it carries no stack trace.
 * The job's outcome is recorded (receipt, ledger), once, as that kind.
 */
public final class Settled extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** Why the job needs nothing more from this worker. */
    public enum Kind {
        /** Its completion is on record, by an earlier run of it. */
        DUPLICATE,
        /** Another worker claimed it after this one: this run's writes were not applied. */
        SUPERSEDED
    }

    private final Kind kind;

    Settled(Kind kind, String message) {
        super(message, null, false, false);
        this.kind = kind;
    }

    public Kind kind() {
        return kind;
    }
}
