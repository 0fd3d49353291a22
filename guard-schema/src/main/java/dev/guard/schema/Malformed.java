package dev.guard.schema;

/**
 * The payload could not be checked against a schema: not JSON, not UTF-8, too large, too deeply
 * nested, a duplicate key, a number out of range, no schema is registered for its job type, or
 * the validator failed on it.
 *
 * @param schemaId the schema it was meant for; null when the job type is unknown
 * @param kind     the class of problem
 * @param reason   what was found, with the position (line, column, byte offset) when there is one
 */
public record Malformed(String schemaId, Kind kind, String reason) implements Verdict, Parsed {

    /** The class of problem. */
    public enum Kind {
        /** Larger than the configured byte limit; rejected before parsing. */
        TOO_LARGE,
        /** Nested deeper than the configured depth limit; rejected while streaming, before any recursion. */
        TOO_DEEP,
        /** Bytes that are not valid UTF-8. */
        NOT_UTF8,
        /** Not JSON (syntax error, empty, trailing content, NaN, ...). */
        NOT_JSON,
        /** The same key twice in one object. */
        DUPLICATE_KEY,
        /** A number that does not fit a double (e.g. 1e400). */
        NUMBER_OUT_OF_RANGE,
        /** No schema is registered for the payload's job type. */
        UNKNOWN_JOB_TYPE,
        /** The validator itself failed on this payload (a bug or a pathological schema); rejected, never crashing the consumer. */
        VALIDATOR_FAILED
    }

    /** A NOT_JSON verdict. */
    public Malformed(String schemaId, String reason) {
        this(schemaId, Kind.NOT_JSON, reason);
    }

    @Override
    public String describe() {
        return "malformed (" + kind.name().toLowerCase(java.util.Locale.ROOT) + ")"
                + (schemaId == null ? "" : " for schema " + schemaId) + ": " + reason;
    }
}
