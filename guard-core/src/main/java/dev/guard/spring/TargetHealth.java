package dev.guard.spring;

import dev.guard.ready.Probe;
import dev.guard.ready.ProbeResult;
import dev.guard.ready.Probes;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One broker's health as guard's probe finds it, in no particular Spring Boot version's types:
 * up only when the broker answers its own health exchange (a Redis that is loading its dataset
 * is down, with its progress in the details). The Boot 3 and Boot 4 indicators wrap it.
 */
final class TargetHealth implements AutoCloseable {

    /** What one check found: up or down, and the details Actuator shows. */
    record Snapshot(boolean up, Map<String, Object> details) {}

    private final Probe probe;
    private final Duration timeout;

    TargetHealth(String targetUrl, Duration timeout) {
        this.probe = Probes.forUrl(targetUrl);
        this.timeout = timeout;
    }

    Snapshot check() {
        ProbeResult r = probe.check(timeout);
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("target", r.target());
        details.put("state", r.state().label());
        if (!r.detail().isEmpty()) {
            details.put("detail", r.detail());
        }
        if (r.expectedReadyIn() != null) {
            details.put("expectedReadyIn", r.expectedReadyIn().toMillis() + " ms");
        }
        if (!r.nodes().isEmpty()) {
            details.put("nodes", r.nodes().stream().map(ProbeResult.Node::line).toList());
        }
        if (!r.ready()) {
            details.put("action", r.state().action());
            if (!r.cause().isEmpty()) {
                details.put("cause", r.cause());
            }
        }
        details.put("checkedIn", r.elapsed().toMillis() + " ms");
        return new Snapshot(r.ready(), details);
    }

    @Override
    public void close() {
        probe.close();
    }
}
