package dev.guard.schema;

import java.util.List;

/**
 * Thrown by {@link Schemas.Builder#build()} when a schema cannot be loaded or parsed, or an example
 * payload does not validate: the consumer must not start without its schemas.
 */
public final class SchemaSelfTestException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final List<String> problems;

    SchemaSelfTestException(List<String> problems) {
        super("schema self-test failed (" + problems.size() + (problems.size() == 1 ? " problem" : " problems")
                + "): " + String.join("; ", problems)
                + ". Action: fix the schema or example named above, or register the right file; the consumer must not start without valid schemas.");
        this.problems = List.copyOf(problems);
    }

    /** Each problem found, one per schema or example. */
    public List<String> problems() {
        return problems;
    }
}
