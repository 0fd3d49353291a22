package dev.guard.worker;

/**
 * The worker must not start: a setting is wrong, SIGTERM cannot reach it, a schema fails its
 * self-test, or a dependency did not serve in time. The message says what was checked, what was
 * found and what to do; {@link #exitCode()} is the {@link dev.guard.ExitCodes} value to exit with.
 */
public final class GuardStopped extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final int exitCode;
    private final String stage;

    GuardStopped(String stage, int exitCode, String message, Throwable cause) {
        super(message, cause);
        this.stage = stage;
        this.exitCode = exitCode;
    }

    /** {@code config}, {@code signals}, {@code schemas} or {@code readiness}. */
    public String stage() {
        return stage;
    }

    public int exitCode() {
        return exitCode;
    }
}
