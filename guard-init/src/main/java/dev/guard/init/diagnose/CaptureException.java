package dev.guard.init.diagnose;

/** The capture could not run: the tool is missing, or its first listing failed. */
public final class CaptureException extends Exception {
    private static final long serialVersionUID = 1L;

    CaptureException(String message) {
        super(message);
    }
}
