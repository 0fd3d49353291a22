package dev.guard.config.internal;

import dev.guard.config.SettingType;
import dev.guard.config.Severity;
import dev.guard.config.Violation;
import dev.guard.endpoint.Endpoint;
import dev.guard.endpoint.Loopback;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.function.BiPredicate;
import java.util.function.Consumer;

/**
 * LOOPBACK: an endpoint that can only reach this machine, or in a container the container itself
 * ({@link Loopback}'s rule, plus a bounded lookup of names).
 *
 * <p>What it decides by is what guard can see: whether this runs in a container (and why it
 * thinks so), and whether something answers at the address. The seeds' drift is a worker whose
 * URL fell back to {@code localhost} inside its container, where nothing listens: that is an
 * error, "connection refused" on every attempt. Something that answers on loopback is a sidecar
 * in the same pod, a server under host networking, a port published into a development container,
 * or a server on this very machine: legitimate often enough that guard starts, with a warning
 * that names the allowance which says "this is meant"; but not in a container when the value is a
 * default nobody set (Spring Boot's {@code localhost:6379}, a {@code reference.conf} value): that
 * is the drift itself, and whatever answers was not chosen. An allowed setting passes silently when
 * something answers, and with a warning in a container when nothing does yet (a sidecar that
 * starts beside the worker: the readiness wait decides).
 *
 * <p>Every message names the allowance for the entry point in use ({@code allowance}, with
 * {@code {name}} standing for the setting), per setting as well as for all of them.
 */
public final class LoopbackRule {

    /** How long a connection to a loopback address may take before it counts as "nothing answers". */
    public static final Duration ANSWER_TIMEOUT = Duration.ofMillis(300);

    private final Set<String> allowed;
    private final String allowance;
    private final BiPredicate<String, Integer> answers;
    private final String containerEvidence;
    private final Duration lookupTimeout;

    /**
     * @param allowed           setting names whose loopback is meant; {@code "*"} allows every setting
     * @param allowance         how to allow it where the guard runs, {@code {name}} standing for the setting
     * @param answers           whether something accepts a connection at a loopback host and port
     * @param containerEvidence why guard thinks this runs in a container ({@code /.dockerenv exists}), or {@code null}
     */
    public LoopbackRule(Set<String> allowed, String allowance, BiPredicate<String, Integer> answers, String containerEvidence,
            Duration lookupTimeout) {
        this.allowed = Set.copyOf(allowed);
        this.allowance = allowance;
        this.answers = answers;
        this.containerEvidence = containerEvidence;
        this.lookupTimeout = lookupTimeout;
    }

    /** Reports the loopback endpoints among {@code endpoints}, if any. */
    public void check(Subject s, List<Endpoint> endpoints, Consumer<Violation> out) {
        Set<String> loopHosts = Loopback.hosts(endpoints.stream().map(Endpoint::host).filter(h -> !h.isEmpty()).toList(), lookupTimeout);
        List<Endpoint> loopEndpoints = endpoints.stream().filter(e -> loopHosts.contains(e.host())).toList();
        if (loopEndpoints.isEmpty()) {
            return;
        }
        List<String> loop = loopEndpoints.stream().map(Endpoint::hostPort).distinct().toList();
        boolean container = containerEvidence != null;
        boolean isAllowed = allowed.contains("*") || allowed.contains(s.name()) || allowed.contains(s.setName());
        if (isAllowed && !container) {
            return;   // meant, and nothing a connection could change: no need to try the address
        }
        boolean portKnown = loopEndpoints.stream().allMatch(e -> e.port() > 0);
        boolean answers = portKnown && loopEndpoints.stream().allMatch(e -> this.answers.test(e.host(), e.port()));
        if (isAllowed && answers) {
            return;
        }
        String what = s.secret() ? "a loopback address" : (loop.size() == 1 ? "the loopback address " : "loopback addresses ")
                + String.join(", ", loop);
        String service = Wording.service(s.setName());
        String where = container ? "inside a container (" + containerEvidence + "), where loopback is this container itself"
                : "on this machine";
        String seen = !portKnown ? "guard cannot tell whether the " + service + " answers there (no port to try)"
                : answers ? "something answers there" : "nothing answers there";
        String allowIt = allowance.replace("{name}", s.setName());
        if (isAllowed) {
            out.accept(new Violation(s.name(), Violation.Rule.LOOPBACK, Severity.WARNING, s.origin(), s.found(),
                    s.name() + " points at " + what + " " + where + ", and " + seen + " yet; loopback is allowed for it,"
                            + " so the readiness wait decides (a sidecar that starts beside the worker answers later)",
                    "if no sidecar in this pod or container serves the " + service + ", set " + s.setName() + " to "
                            + target(s, service, container)));
            return;
        }
        if (answers && !(container && s.defaulted())) {
            out.accept(new Violation(s.name(), Violation.Rule.LOOPBACK, Severity.WARNING, s.origin(), s.found(),
                    s.name() + " points at " + what + " " + where + ", and something answers there: a sidecar in the same pod,"
                            + " host networking, a port published into a development container, or a server on this machine."
                            + " guard starts, since that may be the " + service + " you mean",
                    "if it is, say so and this warning goes: " + allowIt + "; if " + s.setName() + " should reach another"
                            + " container or host, set it to " + target(s, service, container)));
            return;
        }
        String consequence = container && s.defaulted() && answers
                ? ", but nobody set this value: it is a default, which in a container is the seeds' drift (the deployment set"
                        + " another name than the one read), and whatever answers on this container's loopback was not chosen"
                        + " as the " + service
                : container ? ": localhost is not the " + service + " there, so every connection would be refused"
                : ": the worker would only ever reach a server on this machine";
        out.accept(new Violation(s.name(), Violation.Rule.LOOPBACK, Severity.ERROR, s.origin(), s.found(),
                s.name() + " points at " + what + " " + where + ", and " + seen + consequence,
                "set " + s.setName() + " to " + target(s, service, container)
                        + "; if a sidecar or a server on this " + (container ? "pod" : "machine") + " will serve it"
                        + " (it is not up yet), allow loopback for it: " + allowIt));
    }

    /** "the DNS name or IP of the Redis service (the Kubernetes Service or Compose service name, e.g. redis://redis:6379)". */
    private static String target(Subject s, String service, boolean container) {
        SettingType type = s.check().type();
        String example = Wording.exampleValue(s.setName(), type == SettingType.HOST_LIST || type == SettingType.HOST ? type
                : SettingType.URL, type == SettingType.HOST ? "service-name" : "scheme://service-name:port");
        return container
                ? "the DNS name or IP of the " + service + " (the Kubernetes Service or Compose service name"
                        + (example == null ? "" : ", e.g. " + example) + ")"
                : "the host name or IP of the " + service;
    }
}
