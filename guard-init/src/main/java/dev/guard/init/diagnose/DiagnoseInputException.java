package dev.guard.init.diagnose;

/** A captured file that cannot be read as text: missing, unreadable, binary. */
public final class DiagnoseInputException extends Exception {
    private static final long serialVersionUID = 1L;

    DiagnoseInputException(String message, Throwable cause) {
        super(message, cause);
    }
}
