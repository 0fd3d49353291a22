package dev.guard.drain;

/**
 * A job could not be handed back before the worker exits: unless the queue kept a copy, it is
 * lost. Carries the job id so the log line and the receipt name it.
 */
public final class HandBackFailedException extends Exception {

    private final String jobId;

    public HandBackFailedException(String jobId, String message, Throwable cause) {
        super(message, cause);
        this.jobId = jobId;
    }

    public String jobId() {
        return jobId;
    }
}
