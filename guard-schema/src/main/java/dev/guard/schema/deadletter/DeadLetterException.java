package dev.guard.schema.deadletter;

/**
 * A dead letter could not be written. The job it was for has no outcome: do not acknowledge it, let
 * the broker redeliver it. Unchecked so it cannot be caught-and-ignored by accident in a lambda; the
 * message names the destination (secrets masked), the job and the cause.
 */
public final class DeadLetterException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public DeadLetterException(String message, Throwable cause) {
        super(message, cause);
    }

    public DeadLetterException(String message) {
        super(message);
    }
}
