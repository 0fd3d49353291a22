package dev.guard.schema;

/**
 * A payload read once by {@link Schemas#parse(byte[])} without validating it, for a boundary that
 * takes the job type or id from the payload before it validates: the {@link Payload}, or a
 * {@link Malformed} verdict when it is not JSON (schema id null).
 */
public sealed interface Parsed permits Payload, Malformed {
}
