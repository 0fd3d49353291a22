package dev.guard.schema;

import java.util.Map;

/**
 * The payload is JSON and satisfies its schema.
 *
 * @param schemaId the schema's id
 * @param payload  the parsed payload, in plain Java types ({@link Payload})
 */
public record Accepted(String schemaId, Payload payload) implements Verdict {

    /**
     * The payload's top-level fields: {@code payload().object()}.
     *
     * @throws IllegalStateException when the root is not a JSON object
     */
    public Map<String, Object> object() {
        try {
            return payload.object();
        } catch (IllegalStateException e) {
            throw named(e);
        }
    }

    /** The string in a top-level field: {@code payload().string(field)}, with the schema id in its error. */
    public String string(String field) {
        try {
            return payload.string(field);
        } catch (IllegalStateException e) {
            throw named(e);
        }
    }

    /** The integer in a top-level field: {@code payload().integer(field)}, with the schema id in its error. */
    public long integer(String field) {
        try {
            return payload.integer(field);
        } catch (IllegalStateException e) {
            throw named(e);
        }
    }

    /** A read error of {@link Payload}, naming the schema that accepted the payload. */
    private IllegalStateException named(IllegalStateException e) {
        return new IllegalStateException("payload accepted by schema " + schemaId + ": " + e.getMessage(), e);
    }

    @Override
    public String describe() {
        return "accepted by schema " + schemaId;
    }
}
