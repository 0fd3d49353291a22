package dev.guard.schema;

import java.util.List;

/**
 * The payload is JSON but does not satisfy its schema.
 *
 * @param schemaId   the schema's id
 * @param violations every violation, each with its JSON pointer and rule
 * @param hints      guesses at the cause, e.g. {@code "job_id missing, id present: renamed by the producer?"}
 */
public record Invalid(String schemaId, List<SchemaViolation> violations, List<String> hints) implements Verdict {

    public Invalid {
        violations = List.copyOf(violations);
        hints = List.copyOf(hints);
    }

    /** {@code "invalid against schema job.v1: 1 violation: #: required key [job_id] not found (required); hint: ..."}. */
    @Override
    public String describe() {
        StringBuilder sb = new StringBuilder("invalid against schema ").append(schemaId).append(": ")
                .append(violations.size()).append(violations.size() == 1 ? " violation: " : " violations: ");
        for (int i = 0; i < violations.size(); i++) {
            if (i > 0) {
                sb.append("; ");
            }
            sb.append(violations.get(i).describe());
        }
        for (String hint : hints) {
            sb.append("; hint: ").append(hint);
        }
        return sb.toString();
    }
}
