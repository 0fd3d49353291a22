package dev.guard.metrics;

import dev.guard.ready.ProbeResult;
import dev.guard.ready.ProbeState;
import dev.guard.ready.ReadinessListener;
import dev.guard.ready.ReadinessReport;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The readiness gate's meters: give it to {@code ReadinessGate.Builder.listener}. Thread-safe;
 * one instance may serve several gates. Targets are printable ({@code 127.0.0.1:6379}), never carrying a password.
 *
 * <pre>{@code
 * ReadinessMetrics metrics = new ReadinessMetrics(registry);
 * ReadinessReport report = ReadinessGate.builder().probes(probes).listener(metrics).build().await();
 * }</pre>
 */
public final class ReadinessMetrics implements ReadinessListener {

    private final MeterRegistry registry;
    /** kind + target -> its last state; the gauges read it. */
    private final Map<String, AtomicReference<ProbeState>> states = new ConcurrentHashMap<>();

    public ReadinessMetrics(MeterRegistry registry) {
        this.registry = Objects.requireNonNull(registry, "registry");
    }

    @Override
    public void onStateChange(ProbeResult previous, ProbeResult current) {
        state(current).set(current.state());
        if (current.ready()) {
            wait(current, "ready").record(current.elapsed());
        }
    }

    /**
     * Records how a wait ended: each target's last state, and for each target that never was
     * ready the wait's time under its last state ({@code outcome=loading}, {@code refused}, ...).
     */
    @Override
    public void onWaitEnded(ReadinessReport report) {
        for (ProbeResult r : report.results()) {
            state(r).set(r.state());
            if (!r.ready()) {
                wait(r, r.state().label()).record(report.elapsed());
            }
        }
    }

    /** The target's last state as the gauges show it, or {@code null} before any. */
    public ProbeState lastState(String kind, String target) {
        AtomicReference<ProbeState> s = states.get(kind + " " + target);
        return s == null ? null : s.get();
    }

    private Timer wait(ProbeResult r, String outcome) {
        return Timer.builder("guard.readiness.wait").description("How long guard waited for a target, by how the wait ended")
                .tags(Tags.of("kind", r.kind(), "target", r.target(), "outcome", outcome)).register(registry);
    }

    private AtomicReference<ProbeState> state(ProbeResult r) {
        return states.computeIfAbsent(r.kind() + " " + r.target(), key -> {
            AtomicReference<ProbeState> ref = new AtomicReference<>();
            Tags tags = Tags.of("kind", r.kind(), "target", r.target());
            Gauge.builder("guard.readiness.ready", ref, s -> s.get() == ProbeState.READY ? 1 : 0)
                    .description("1 while the target's last state is ready").tags(tags).register(registry);
            for (ProbeState each : ProbeState.values()) {
                Gauge.builder("guard.readiness.state", ref, s -> s.get() == each ? 1 : 0)
                        .description("1 for the target's last state").tags(tags.and("state", each.label())).register(registry);
            }
            return ref;
        });
    }
}
