package dev.guard.schema;

/** How a received job ended. Exactly one per reception. */
public enum Outcome {
    /** Valid, and the handler returned normally: ack it. */
    PROCESSED,
    /** Invalid or malformed: dead-lettered with the reason; ack it. */
    REJECTED,
    /** The handler threw: dead-lettered with the exception; ack it. */
    FAILED,
    /** Given back to the broker unprocessed (drain on shutdown): not acked. */
    HANDED_BACK,
    /** Its completion was on record (an earlier run finished it): acked, its writes not applied again. */
    DUPLICATE,
    /** Another worker claimed it while this one held it: this run's writes discarded, left to that worker. */
    SUPERSEDED;

    /** The name used in summary lines and JSON: processed, rejected, failed, handed_back, duplicate, superseded. */
    public String label() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
