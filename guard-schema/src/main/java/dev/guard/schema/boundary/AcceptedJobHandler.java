package dev.guard.schema.boundary;

/**
 * The worker's own code, called only for accepted payloads. Throwing marks the job FAILED and
 * dead-letters it with the exception; returning marks it PROCESSED.
 *
 * @param <T> what the handler receives: {@link dev.guard.schema.Accepted} unless the boundary maps it
 */
@FunctionalInterface
public interface AcceptedJobHandler<T> {
    void handle(T job) throws Exception;
}
