package dev.guard.schema;

/**
 * What validating one payload found: {@link Accepted} (with the parsed payload), {@link Invalid}
 * (JSON of the wrong shape, every violation with its pointer) or {@link Malformed} (not JSON at
 * all, too large, too deep, or no schema for its job type).
 */
public sealed interface Verdict permits Accepted, Invalid, Malformed {

    /** The id of the schema the payload was checked against; null when no schema applied. */
    String schemaId();

    /** True for {@link Accepted}. */
    default boolean accepted() {
        return this instanceof Accepted;
    }

    /** One line for logs and dead-letter reasons. */
    String describe();
}
