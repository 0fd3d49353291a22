package dev.guard.ready;

import dev.guard.config.Redaction;
import java.time.Duration;
import java.util.Objects;

/**
 * What one attempt (or the last attempt of a wait) found for one target.
 *
 * @param kind    probe kind ({@code redis})
 * @param target  printable target ({@code 127.0.0.1:6379}), never a password
 * @param state   the classified state
 * @param detail  what was found, in words ({@code loading the dataset (40%)}); may be empty
 * @param cause   the last exception as {@code Class: message}, redacted; empty when none
 * @param attempt 1-based attempt number within a wait
 * @param elapsed time since the wait began (for a single check: the check's own duration)
 */
public record ProbeResult(String kind, String target, ProbeState state, String detail, String cause,
                          int attempt, Duration elapsed) {

    public ProbeResult {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(target, "target");
        Objects.requireNonNull(state, "state");
        Objects.requireNonNull(elapsed, "elapsed");
        target = Redaction.maskText(target);
        detail = detail == null ? "" : Redaction.maskText(detail);
        cause = cause == null ? "" : Redaction.maskText(cause);
    }

    /** A result of a single attempt. */
    public static ProbeResult of(Probe probe, ProbeState state, String detail, Throwable cause, Duration took) {
        return new ProbeResult(probe.kind(), probe.target(), state, detail, describe(cause), 1, took);
    }

    /** True when {@link #state()} is {@link ProbeState#READY}. */
    public boolean ready() {
        return state == ProbeState.READY;
    }

    /** The same result renumbered for its place in a wait. */
    public ProbeResult withAttempt(int attempt, Duration elapsed) {
        return new ProbeResult(kind, target, state, detail, cause, attempt, elapsed);
    }

    /** The same result with another detail text. */
    public ProbeResult withDetail(String newDetail) {
        return new ProbeResult(kind, target, state, newDetail, cause, attempt, elapsed);
    }

    /** {@code Class: message} of the throwable and its root cause, redacted; empty for null. */
    public static String describe(Throwable t) {
        if (t == null) {
            return "";
        }
        String own = t.getClass().getName() + ": " + t.getMessage();
        Throwable root = t;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        if (root != t) {
            own = own + " (caused by " + root.getClass().getName() + ": " + root.getMessage() + ")";
        }
        return Redaction.maskText(own);
    }

    /** {@code redis 127.0.0.1:6379 loading (loading the dataset (40%))}. */
    public String summary() {
        return kind + " " + target + " " + state.label() + (detail.isEmpty() ? "" : " (" + detail + ")");
    }

    /** {@code [1.2s] redis 127.0.0.1:6379: loading (loading the dataset), attempt 3}: one state change of a wait. */
    public String stateLine() {
        return "[" + ReadinessReport.seconds(elapsed) + "] " + kind + " " + target + ": " + state.label()
                + (detail.isEmpty() ? "" : " (" + detail + ")") + ", attempt " + attempt;
    }
}
