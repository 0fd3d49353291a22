package dev.guard.schema.internal;

import dev.guard.schema.SchemaViolation;
import java.util.List;

/**
 * A schema compiled by one engine (everit for drafts 4 to 7, networknt for 2019-09 and 2020-12), ready
 * to validate parsed payloads (org.json values, as {@link Json} reads them). Immutable and thread-safe.
 */
public interface Compiled {

    /** Why a value is rejected: every violation, and the hints guessed from them (possibly none). */
    record Rejection(List<SchemaViolation> violations, List<String> hints) {}

    /**
     * Validates a value.
     *
     * @return null when the value is valid, else its violations (never empty) and hints
     * @throws RuntimeException or StackOverflowError when the engine itself fails on this value
     */
    Rejection check(Object value);

    /** The draft this schema is validated with. */
    dev.guard.schema.Draft draft();
}
