package dev.guard.drain;

/**
 * Thrown by {@link JobSource#fetch()} when the source is gone for good (a RabbitMQ channel closed
 * by the broker, a connection that does not recover): the {@link DrainLoop} stops taking jobs
 * and the receipt's exit code is 69, so the restarted worker waits for its broker again instead
 * of a loop that retries a dead channel.
 */
public final class SourceLostException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public SourceLostException(String message) {
        super(message);
    }

    public SourceLostException(String message, Throwable cause) {
        super(message, cause);
    }
}
