package dev.guard.schema.spring;

import dev.guard.GuardLog;
import dev.guard.drain.CheckLevel;
import dev.guard.drain.Drain;
import dev.guard.drain.DrainConfig;
import dev.guard.drain.DurabilityCheck;
import dev.guard.drain.JobListener;
import dev.guard.drain.TimeoutBudget;
import dev.guard.drain.JobHandler;
import dev.guard.drain.JobSource;
import dev.guard.drain.ShutdownReceipt;
import dev.guard.schema.Accepted;
import dev.guard.schema.boundary.BoundaryLoop;
import dev.guard.schema.boundary.JobBoundary;
import dev.guard.schema.SourceInfo;
import dev.guard.spring.GuardStartupException;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.springframework.context.SmartLifecycle;

/**
 * guard's worker loop as a Spring lifecycle bean: started with the listener containers (after
 * guard's readiness gate), it takes jobs from its {@link JobSource} through the boundary until the
 * context stops. Stopping is the drain: no new job is taken, the job in hand may finish until the
 * grace period minus the safety margin, then it is handed back to the broker and recorded so; the
 * receipt and the ledger's summary are logged. Spring's shutdown hook stops the context on
 * SIGTERM, so a Kubernetes scale-down drains the worker. Built by {@link GuardWorkers}.
 *
 * @param <J> the source's job type
 */
public final class GuardWorker<J> implements SmartLifecycle {

    /** With Spring Kafka's listener containers: after guard's readiness gate, stopped before the web server. */
    public static final int PHASE = Integer.MAX_VALUE - 100;

    private static final Logger LOG = GuardLog.logger(GuardWorker.class);

    private final JobBoundary<Accepted> boundary;
    private final JobSource<J> source;
    private final Function<J, String> payload;
    private final Function<J, SourceInfo> where;
    private final JobHandler<Accepted> work;
    private final DrainConfig drainConfig;
    private final Consumer<Drain> onDrain;
    private final CheckLevel persistenceCheck;
    private final TimeoutBudget.Settings timeouts;
    private final Supplier<JobListener> listener;
    private boolean durabilityChecked;
    private volatile Drain drain;
    private volatile Thread loop;
    private volatile ShutdownReceipt receipt;

    GuardWorker(JobBoundary<Accepted> boundary, JobSource<J> source, Function<J, String> payload, Function<J, SourceInfo> where,
                JobHandler<Accepted> work, DrainConfig drainConfig, Consumer<Drain> onDrain,
                CheckLevel persistenceCheck, TimeoutBudget.Settings timeouts, Supplier<JobListener> listener) {
        this.timeouts = Objects.requireNonNull(timeouts, "timeouts");
        this.listener = Objects.requireNonNull(listener, "listener");
        this.boundary = Objects.requireNonNull(boundary, "boundary");
        this.source = Objects.requireNonNull(source, "source");
        this.payload = Objects.requireNonNull(payload, "payload");
        this.where = Objects.requireNonNull(where, "where");
        this.work = Objects.requireNonNull(work, "work");
        this.drainConfig = Objects.requireNonNull(drainConfig, "drainConfig");
        this.onDrain = onDrain;
        this.persistenceCheck = Objects.requireNonNull(persistenceCheck, "persistenceCheck");
    }

    @Override
    public synchronized void start() {
        if (loop != null && loop.isAlive()) {
            return;
        }
        if (!durabilityChecked) {
            // before the first job, on the starting thread: a refusal fails the context's start
            Optional<String> refused = DurabilityCheck.refusal(source, persistenceCheck, boundary.consumer(),
                    "guard.persistence-check=warn");
            if (refused.isPresent()) {
                throw GuardStartupException.durability(boundary.consumer(), refused.get());
            }
            Optional<String> late = TimeoutBudget.refusal(source, timeouts, drainConfig, "guard.drain.grace-period",
                    boundary.consumer(), "guard.timeout-check=warn");
            if (late.isPresent()) {
                throw GuardStartupException.timeouts(boundary.consumer(), late.get());
            }
            durabilityChecked = true;
        }
        JobListener jobs = listener.get(); // the pod's deletion cost, if asked for: a refusal fails the start here
        Drain d = Drain.create(drainConfig);
        if (onDrain != null) {
            onDrain.accept(d);
        }
        drain = d;
        receipt = null;
        Thread t = new Thread(() -> {
            try {
                BoundaryLoop.run(d, boundary, source, payload, where, work, jobs);
            } catch (RuntimeException | Error e) {
                LOG.error("guard worker {}: the loop ended with an error; jobs in hand are not acked and the broker keeps them",
                        boundary.consumer(), e);
            } finally {
                receipt = d.finish();
                LOG.info("guard: {} ledger: {}", boundary.consumer(), boundary.ledger().summaryLine());
            }
        }, "guard-worker-" + boundary.consumer());
        loop = t;
        t.start();
        LOG.info("guard worker {}: taking jobs (drain: grace period {} ms, safety margin {} ms)", boundary.consumer(),
                drainConfig.gracePeriod().toMillis(), drainConfig.safetyMargin().toMillis());
    }

    @Override
    public void stop() {
        stopAndWait();
    }

    @Override
    public void stop(Runnable callback) {
        Thread waiter = new Thread(() -> {
            try {
                stopAndWait();
            } finally {
                callback.run();
            }
        }, "guard-worker-stop");
        waiter.start();
    }

    private void stopAndWait() {
        Drain d = drain;
        Thread t = loop;
        if (d == null || t == null) {
            return;
        }
        d.requestStop("Spring context close");
        try {
            // the loop hands back at the deadline; the margin is for that and for closing
            t.join(drainConfig.gracePeriod().toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (t.isAlive()) {
            LOG.error("guard worker {}: the loop did not end within the grace period; the job in hand may be lost: {}",
                    boundary.consumer(), d.receipt().toLine());
        }
    }

    @Override
    public boolean isRunning() {
        Thread t = loop;
        return t != null && t.isAlive();
    }

    @Override
    public int getPhase() {
        return PHASE;
    }

    /** The receipt of the last run once it ended, else {@code null}. */
    public ShutdownReceipt receipt() {
        return receipt;
    }

    /** The drain of the current run, or {@code null} before the first start. */
    public Drain drain() {
        return drain;
    }

    /** The grace period this worker drains within. */
    public Duration gracePeriod() {
        return drainConfig.gracePeriod();
    }
}
