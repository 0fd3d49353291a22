package dev.guard.drain;

/**
 * Thrown by {@link Drain#checkpoint()} when a stop was requested and the deadline has passed:
 * the job must not start its next step and is handed back untouched. A control-flow signal,
 * not an error: it carries no stack trace.
 */
public final class HandBack extends RuntimeException {

    HandBack(String message) {
        super(message, null, false, false);
    }
}
