package dev.guard.config.internal;

import dev.guard.config.SettingType;
import dev.guard.config.Severity;
import dev.guard.config.Violation;
import dev.guard.endpoint.Endpoint;
import dev.guard.endpoint.Loopback;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;

/**
 * LOOPBACK: an endpoint that can only reach this machine, or in a container the container itself
 * ({@link Loopback}'s rule, plus a bounded lookup of names). An error unless loopback is allowed
 * outside a container; in a container, allowing it only turns the error into a warning.
 */
public final class LoopbackRule {

    private final boolean allowLoopback;
    private final boolean container;
    private final Duration lookupTimeout;

    public LoopbackRule(boolean allowLoopback, boolean container, Duration lookupTimeout) {
        this.allowLoopback = allowLoopback;
        this.container = container;
        this.lookupTimeout = lookupTimeout;
    }

    /** Reports the loopback endpoints among {@code endpoints}, if any. */
    public void check(Subject s, List<Endpoint> endpoints, Consumer<Violation> out) {
        Set<String> loopHosts = Loopback.hosts(endpoints.stream().map(Endpoint::host).filter(h -> !h.isEmpty()).toList(), lookupTimeout);
        List<String> loop = endpoints.stream().filter(e -> loopHosts.contains(e.host())).map(Endpoint::hostPort).distinct().toList();
        if (loop.isEmpty() || (allowLoopback && !container)) {
            return;
        }
        String what = s.secret() ? "a loopback address" : (loop.size() == 1 ? "the loopback address " : "loopback addresses ")
                + String.join(", ", loop);
        String service = Wording.service(s.setName());
        SettingType type = s.check().type();
        if (container) {
            out.accept(new Violation(s.name(), Violation.Rule.LOOPBACK, allowLoopback ? Severity.WARNING : Severity.ERROR, s.origin(),
                    s.found(),
                    s.name() + " points at " + what + ", but this runs in a container: there localhost is the pod/container itself,"
                            + " not the " + service + ", so every connection will fail",
                    "set " + s.setName() + " to the service's DNS name or IP (the Kubernetes Service or Compose service name, e.g. "
                            + Wording.exampleValue(s.setName(), type == SettingType.HOST_LIST || type == SettingType.HOST ? type
                                    : SettingType.URL, type == SettingType.HOST ? "service-name" : "scheme://service-name:port") + ")"
                            + (allowLoopback ? "; allowLoopback(true) is on, but it cannot make localhost reach another container" : "")));
        } else {
            out.accept(new Violation(s.name(), Violation.Rule.LOOPBACK, Severity.ERROR, s.origin(), s.found(),
                    s.name() + " points at " + what + ", which only reaches a server on this same machine",
                    "set " + s.setName() + " to the " + service + "'s host name or IP; for local development only,"
                            + " allow loopback explicitly with ConfigGuard.builder().allowLoopback(true)"));
        }
    }
}
