package dev.guard.spring;

import dev.guard.GuardLog;
import dev.guard.ready.Probe;
import dev.guard.ready.ReadinessGate;
import dev.guard.ready.ReadinessListener;
import dev.guard.ready.ReadinessReport;
import java.time.Duration;
import java.util.List;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.springframework.boot.availability.AvailabilityChangeEvent;
import org.springframework.boot.availability.LivenessState;
import org.springframework.boot.availability.ReadinessState;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.SmartLifecycle;

/**
 * The readiness gate in Spring's lifecycle: its {@link #start()} blocks until every broker
 * serves (a loading Redis is not ready), so lifecycle beans of a later phase, Spring Kafka's and
 * Spring AMQP's listener containers among them, start only then. While it waits the application
 * reports itself live ({@link LivenessState#CORRECT}: it is working, do not restart it) and not
 * ready ({@link ReadinessState#REFUSING_TRAFFIC}); Spring Boot reports it ready once started. A
 * wait that ends without every broker ready fails the start with a {@link GuardStartupException}.
 * SIGTERM during the wait ends it at once. With Micrometer and a {@code MeterRegistry} bean, the
 * wait is measured ({@code dev.guard.metrics.ReadinessMetrics}).
 */
public final class ReadinessGateLifecycle implements SmartLifecycle {

    /**
     * After the embedded web server (Spring Boot starts it in phase {@code Integer.MAX_VALUE - 2048}),
     * so Actuator answers during the wait; before the listener containers (Spring Kafka's
     * {@code Integer.MAX_VALUE - 100}, Spring AMQP's {@code Integer.MAX_VALUE}) and every
     * {@code SmartLifecycle} of the default phase.
     */
    public static final int DEFAULT_PHASE = Integer.MAX_VALUE - 2047;

    private static final Logger LOG = GuardLog.logger(ReadinessGateLifecycle.class);

    private final List<Probe> probes;
    private final Duration deadline;
    private final Duration attemptTimeout;
    private final int phase;
    private final ApplicationEventPublisher publisher;
    private final ReadinessListener listener;
    private volatile boolean running;
    private volatile ReadinessReport lastReport;

    ReadinessGateLifecycle(List<Probe> probes, Duration deadline, Duration attemptTimeout, int phase,
                           ApplicationEventPublisher publisher, ReadinessListener listener) {
        this.probes = List.copyOf(probes);
        this.deadline = deadline;
        this.attemptTimeout = attemptTimeout;
        this.phase = phase;
        this.publisher = publisher;
        this.listener = listener;
    }

    @Override
    public void start() {
        if (probes.isEmpty()) {
            LOG.info("guard: no broker to wait for (guard.brokers, guard.wait.targets)");
            running = true;
            return;
        }
        AvailabilityChangeEvent.publish(publisher, this, LivenessState.CORRECT);
        AvailabilityChangeEvent.publish(publisher, this, ReadinessState.REFUSING_TRAFFIC);
        LOG.info("guard: waiting up to {} for {} before the listeners start",
                ReadinessReport.seconds(deadline), probes.stream().map(p -> p.kind() + " " + p.target()).collect(Collectors.joining(", ")));
        Thread waiter = Thread.currentThread();
        Thread onSigterm = new Thread(waiter::interrupt, "guard-wait-shutdown");
        boolean hooked = addHook(onSigterm);
        ReadinessReport report;
        // the gate logs each target's state changes itself
        try (ReadinessGate gate = ReadinessGate.builder().probes(probes).deadline(deadline).attemptTimeout(attemptTimeout)
                .listener(listener).build()) {
            report = gate.await();
        } finally {
            if (hooked) {
                removeHook(onSigterm);
            }
        }
        lastReport = report;
        if (!report.ready()) {
            throw GuardStartupException.notReady(report);
        }
        running = true;
    }

    private static boolean addHook(Thread hook) {
        try {
            Runtime.getRuntime().addShutdownHook(hook);
            return true;
        } catch (IllegalStateException e) { // already shutting down
            return false;
        }
    }

    private static void removeHook(Thread hook) {
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException e) { // shutting down: the hook has run or runs now
        }
    }

    /** The last wait's report, or {@code null} before the first. */
    public ReadinessReport lastReport() {
        return lastReport;
    }

    @Override
    public void stop() {
        running = false;
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    @Override
    public int getPhase() {
        return phase;
    }
}
