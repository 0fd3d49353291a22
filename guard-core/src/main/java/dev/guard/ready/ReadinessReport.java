package dev.guard.ready;

import dev.guard.ExitCodes;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.guard.endpoint.HostVerdict;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * The outcome of a wait (or of one round of checks): each target's last result, why the
 * wait ended, and how long it took. Immutable. {@link #render()} is for people,
 * {@link #toJson()} for machines; both carry no secrets.
 */
public final class ReadinessReport {

    /** Why a wait ended. */
    public enum Outcome {
        /** Every target was READY (and stable, when a stable window was asked for). */
        READY,
        /** A target hit a state waiting cannot fix (AUTH, TLS, CONFIG); the wait stopped without retrying. */
        NOT_RETRYABLE,
        /** The overall deadline passed with some target not ready. */
        DEADLINE,
        /** The waiting thread was interrupted. */
        INTERRUPTED,
        /** A single round of checks (healthcheck), with some target not ready. */
        NOT_READY
    }

    /**
     * Created on the first {@link #toJson}: a report that is only rendered as text (guard-init's
     * default output, a worker's log) never pays Jackson's start-up (~0.2 s in a fresh JVM).
     */
    private static final class Json {
        static final ObjectMapper MAPPER = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
    }

    private final Outcome outcome;
    private final List<ProbeResult> results;
    private final Duration elapsed;
    private final Duration deadline;

    /** Built by {@link ReadinessGate}; public so callers can build reports in tests. */
    public ReadinessReport(Outcome outcome, List<ProbeResult> results, Duration elapsed, Duration deadline) {
        this.outcome = Objects.requireNonNull(outcome, "outcome");
        this.results = List.copyOf(results);
        this.elapsed = Objects.requireNonNull(elapsed, "elapsed");
        this.deadline = Objects.requireNonNull(deadline, "deadline");
    }

    /** True when every target ended READY and the wait was not cut short. */
    public boolean ready() {
        return outcome == Outcome.READY;
    }

    public Outcome outcome() {
        return outcome;
    }

    /**
     * The {@link dev.guard.ExitCodes} value for this outcome: 0 ready; 77 when a target refused the
     * credentials and 78 for a bad URL, TLS or another state waiting cannot fix; 69 at the deadline;
     * 143 when the wait was interrupted (the caller knows whether SIGINT's 130 applies).
     */
    public int exitCode() {
        // a target in a state waiting cannot fix decides, whatever outcome the gate recorded (with a single
        // target the gate may record DEADLINE for a CONFIG result that ended the wait at once)
        if (outcome != Outcome.INTERRUPTED && outcome != Outcome.READY) {
            java.util.Optional<ProbeState> blocker = blocker().map(ProbeResult::state);
            if (blocker.isPresent()) {
                return blocker.get() == ProbeState.AUTH ? ExitCodes.NO_PERMISSION : ExitCodes.CONFIG;
            }
        }
        return switch (outcome) {
            case READY -> ExitCodes.OK;
            case NOT_RETRYABLE -> blocker().map(ProbeResult::state).orElse(ProbeState.CONFIG) == ProbeState.AUTH
                    ? ExitCodes.NO_PERMISSION : ExitCodes.CONFIG;
            case DEADLINE, NOT_READY -> ExitCodes.UNAVAILABLE;
            case INTERRUPTED -> ExitCodes.TERMINATED;
        };
    }

    /** Each target's last result, in the order the probes were given. */
    public List<ProbeResult> results() {
        return results;
    }

    /** The results that are not READY. */
    public List<ProbeResult> failures() {
        return results.stream().filter(r -> !r.ready()).toList();
    }

    public Duration elapsed() {
        return elapsed;
    }

    public Duration deadline() {
        return deadline;
    }

    /** The first result in a non-retryable state, if the wait stopped for one. */
    public java.util.Optional<ProbeResult> blocker() {
        return results.stream().filter(r -> !r.state().retryable()).findFirst();
    }

    /**
     * A summary for people. On failure: one line for why the wait ended, then per target what
     * was found (state, detail, last cause, attempt, time) and what to do.
     */
    public String render() {
        StringBuilder sb = new StringBuilder();
        long notReady = results.stream().filter(r -> !r.ready()).count();
        switch (outcome) {
            case READY -> sb.append("readiness: all ").append(results.size()).append(" target(s) ready after ")
                    .append(seconds(elapsed)).append('\n');
            case DEADLINE -> sb.append("readiness: NOT READY: deadline of ").append(seconds(deadline))
                    .append(" reached after ").append(seconds(elapsed)).append("; ").append(notReady).append(" of ")
                    .append(results.size()).append(" target(s) not ready (last state of each below)\n");
            case NOT_RETRYABLE -> {
                ProbeResult b = blocker().orElseThrow();
                sb.append("readiness: NOT READY: stopped after ").append(seconds(elapsed))
                        .append(" without retrying: ").append(b.kind()).append(' ').append(b.target()).append(" is ")
                        .append(b.state().label()).append(", which waiting cannot fix\n");
            }
            case INTERRUPTED -> sb.append("readiness: NOT READY: interrupted after ").append(seconds(elapsed))
                    .append("; ").append(notReady).append(" of ").append(results.size())
                    .append(" target(s) not ready\n");
            case NOT_READY -> sb.append("readiness: NOT READY: ").append(notReady).append(" of ")
                    .append(results.size()).append(" target(s) not ready (one check each)\n");
        }
        for (ProbeResult r : results) {
            sb.append("  ").append(r.ready() ? "ok   " : "FAIL ").append(r.kind()).append(' ').append(r.target())
                    .append(": ").append(r.state().label());
            if (!r.detail().isEmpty()) {
                sb.append(" (").append(r.detail()).append(')');
            }
            sb.append(", attempt ").append(r.attempt()).append(", ").append(seconds(r.elapsed())).append('\n');
            for (ProbeResult.Node n : r.nodes()) {
                sb.append("       node ").append(n.line()).append('\n');
            }
            if (!r.ready()) {
                if (!r.cause().isEmpty()) {
                    sb.append("       found: ").append(r.cause()).append('\n');
                }
                if (!r.state().retryable()) {
                    sb.append("       not retried: ").append(r.state().label())
                            .append(" does not change by waiting\n");
                }
                sb.append("       do: ").append(r.state().action()).append('\n');
                String note = hostNote(r.target());
                if (note != null) {
                    sb.append("       note: ").append(note).append('\n');
                }
            }
        }
        return sb.toString();
    }

    /** The report as JSON (pretty-printed), same content as {@link #render()}. */
    public String toJson() {
        return toJson(Map.of());
    }

    /**
     * {@link #toJson()} with a {@code settings} object of the given entries (strings and numbers),
     * for a caller that says where the deadline came from ({@code deadlineFrom}); none when empty.
     */
    public String toJson(Map<String, ?> settings) {
        ObjectNode root = Json.MAPPER.createObjectNode();
        root.put("ready", ready());
        root.put("outcome", outcome.name().toLowerCase(Locale.ROOT));
        root.put("elapsedMs", elapsed.toMillis());
        root.put("deadlineMs", deadline.toMillis());
        ArrayNode targets = root.putArray("targets");
        for (ProbeResult r : results) {
            ObjectNode t = targets.addObject();
            t.put("kind", r.kind());
            t.put("target", r.target());
            t.put("state", r.state().label());
            t.put("retryable", r.state().retryable());
            t.put("detail", r.detail());
            t.put("cause", r.cause());
            t.put("attempt", r.attempt());
            t.put("elapsedMs", r.elapsed().toMillis());
            if (r.expectedReadyIn() != null) {
                t.put("expectedReadyInMs", r.expectedReadyIn().toMillis());
            }
            if (!r.nodes().isEmpty()) {
                ArrayNode nodes = t.putArray("nodes");
                for (ProbeResult.Node n : r.nodes()) {
                    ObjectNode o = nodes.addObject();
                    o.put("role", n.role());
                    o.put("address", n.address());
                    o.put("state", n.state().label());
                    o.put("detail", n.detail());
                }
            }
            if (!r.ready()) {
                t.put("action", r.state().action());
                String note = hostNote(r.target());
                if (note != null) {
                    t.put("note", note);
                }
            }
        }
        if (!settings.isEmpty()) {
            root.set("settings", Json.MAPPER.valueToTree(settings));
        }
        try {
            return Json.MAPPER.writeValueAsString(root);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write readiness report as JSON", e);
        }
    }

    /**
     * What the target's host says on its own ({@link HostVerdict}): a loopback or placeholder host
     * is why a worker "waits for" a service it can never reach. {@code null} for any other host.
     */
    public static String hostNote(String target) {
        int fragment = target.indexOf('#');
        return switch (HostVerdict.ofValue(fragment < 0 ? target : target.substring(0, fragment))) {
            case LOOPBACK -> "the target is a loopback address: in a container that is the container itself, never another "
                    + "service; point it at the service's name (Kubernetes Service, Compose service)";
            case PLACEHOLDER -> "the target's host is a placeholder (None, null, changeme, ...): the setting that should name the "
                    + "service was not filled in, or this worker reads a different variable than the one that is set";
            case SERVICE -> null;
        };
    }

    @Override
    public String toString() {
        return render();
    }

    /** {@code 3.1s}, {@code 60s}. */
    public static String seconds(Duration d) {
        long ms = d.toMillis();
        if (ms % 1000 == 0) {
            return (ms / 1000) + "s";
        }
        return String.format(Locale.ROOT, "%.1fs", ms / 1000.0);
    }
}
