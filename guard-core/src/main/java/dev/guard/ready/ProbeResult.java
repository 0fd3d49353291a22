package dev.guard.ready;

import dev.guard.config.Redaction;
import java.time.Duration;
import java.util.List;
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
 * @param nodes   what each server behind the target was found to be, for a target of several
 *                (the sentinels and the master they announce, a cluster's nodes); empty for one server
 * @param expectedReadyIn how long the target itself expects to take until ready, from the end of this
 *                attempt (a loading Redis's progress and rate); null when it gives no estimate. The gate
 *                spaces its attempts by it: sparse while the end is far, dense around it
 */
public record ProbeResult(String kind, String target, ProbeState state, String detail, String cause,
                          int attempt, Duration elapsed, List<Node> nodes, Duration expectedReadyIn) {

    public ProbeResult {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(target, "target");
        Objects.requireNonNull(state, "state");
        Objects.requireNonNull(elapsed, "elapsed");
        target = Redaction.maskSettingValue(target);
        detail = detail == null ? "" : Redaction.maskText(detail);
        cause = cause == null ? "" : Redaction.maskText(cause);
        nodes = nodes == null ? List.of() : List.copyOf(nodes);
        if (expectedReadyIn != null && expectedReadyIn.isNegative()) {
            expectedReadyIn = Duration.ZERO;
        }
    }

    /** A result with the servers behind the target and no estimate of when it is ready. */
    public ProbeResult(String kind, String target, ProbeState state, String detail, String cause, int attempt,
                       Duration elapsed, List<Node> nodes) {
        this(kind, target, state, detail, cause, attempt, elapsed, nodes, null);
    }

    /** A result for one server (no {@link #nodes()}). */
    public ProbeResult(String kind, String target, ProbeState state, String detail, String cause, int attempt,
                       Duration elapsed) {
        this(kind, target, state, detail, cause, attempt, elapsed, List.of(), null);
    }

    /**
     * One server behind a target, as the probe found it.
     *
     * @param role    {@code sentinel}, {@code master}, {@code replica}
     * @param address {@code host:port} as announced or written, never a password
     * @param state   what a check of it found ({@link ProbeState#READY} when it answered as it should)
     * @param detail  in words ({@code slots 0-5460}, {@code replica of 127.0.0.1:7001}, {@code marked fail by the cluster})
     */
    public record Node(String role, String address, ProbeState state, String detail) {
        public Node {
            Objects.requireNonNull(role, "role");
            Objects.requireNonNull(address, "address");
            Objects.requireNonNull(state, "state");
            address = Redaction.maskSettingValue(address);
            detail = detail == null ? "" : Redaction.maskText(detail);
        }

        /** {@code master 127.0.0.1:7000 ready (slots 0-5460)}. */
        public String line() {
            return role + " " + address + " " + state.label() + (detail.isEmpty() ? "" : " (" + detail + ")");
        }
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
        return new ProbeResult(kind, target, state, detail, cause, attempt, elapsed, nodes, expectedReadyIn);
    }

    /** The same result with the servers behind the target. */
    public ProbeResult withNodes(List<Node> found) {
        return new ProbeResult(kind, target, state, detail, cause, attempt, elapsed, found, expectedReadyIn);
    }

    /** The same result with another detail text. */
    public ProbeResult withDetail(String newDetail) {
        return new ProbeResult(kind, target, state, newDetail, cause, attempt, elapsed, nodes, expectedReadyIn);
    }

    /** The same result with the target's own estimate of when it is ready (null: none). */
    public ProbeResult withExpectedReadyIn(Duration estimate) {
        return new ProbeResult(kind, target, state, detail, cause, attempt, elapsed, nodes, estimate);
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
        String rootText = root.getClass().getName() + ": " + root.getMessage();
        if (root != t && !rootText.equals(own)) { // a wrapper of its own kind and message adds nothing
            own = own + " (caused by " + rootText + ")";
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
