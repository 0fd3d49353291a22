package dev.guard.schema;

/**
 * One way a payload breaks its schema.
 *
 * @param pointer JSON pointer to the offending value, in everit's form ({@code "#"} for the root,
 *                {@code "#/job_id"}); for {@code required} it points at the object that lacks the key
 * @param keyword the schema rule that failed: required, type, enum, pattern, additionalProperties, ...
 * @param message what was expected and what was found
 */
public record SchemaViolation(String pointer, String keyword, String message) {

    /** {@code "#/job_id: expected type: String, found: Integer (type)"}. */
    public String describe() {
        return pointer + ": " + message + " (" + keyword + ")";
    }
}
