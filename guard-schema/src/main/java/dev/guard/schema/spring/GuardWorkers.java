package dev.guard.schema.spring;

import dev.guard.drain.CheckLevel;
import dev.guard.drain.Drain;
import dev.guard.drain.DrainConfig;
import dev.guard.drain.TimeoutBudget;
import dev.guard.drain.JobHandler;
import dev.guard.drain.JobListener;
import dev.guard.drain.JobSource;
import dev.guard.drain.kubernetes.DeletionCost;
import dev.guard.schema.Accepted;
import dev.guard.schema.boundary.JobBoundary;
import dev.guard.schema.SourceInfo;
import dev.guard.spring.GuardStartupException;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * Builds {@link GuardWorker}s with the application's boundary and drain settings. Declare the
 * worker as a bean:
 *
 * <pre>{@code
 * @Bean
 * GuardWorker<RedisJob> thumbnails(GuardWorkers workers, CrashSafeListQueue jobs) {
 *     return workers.worker(jobs, RedisJob::payload, job -> SourceInfo.redis("jobs", job.id()),
 *             (job, drain) -> thumbnail(job.string("image"), job.integer("width")));
 * }
 * }</pre>
 */
public final class GuardWorkers {

    private final JobBoundary<Accepted> boundary;
    private final DrainConfig drainConfig;
    private final Consumer<Drain> onDrain;
    private final CheckLevel persistenceCheck;
    private final TimeoutBudget.Settings timeouts;
    /** Starts the pod's deletion cost keeper (null: not asked for); called once, by the first worker to start. */
    private final DeletionCostStart deletionCostStart;
    private DeletionCost deletionCost;

    GuardWorkers(JobBoundary<Accepted> boundary, DrainConfig drainConfig, Consumer<Drain> onDrain,
                 CheckLevel persistenceCheck, TimeoutBudget.Settings timeouts,
                 DeletionCostStart deletionCostStart) {
        this.deletionCostStart = deletionCostStart;
        this.timeouts = timeouts;
        this.boundary = boundary;
        this.drainConfig = drainConfig;
        this.onDrain = onDrain;
        this.persistenceCheck = persistenceCheck;
    }

    /**
     * A worker taking jobs from {@code source}: {@code payload} gives each job's JSON text,
     * {@code where} its coordinates for dead letters, {@code work} runs on each accepted payload and
     * may call {@code drain.checkpoint()} between steps.
     */
    public <J> GuardWorker<J> worker(JobSource<J> source, Function<J, String> payload, Function<J, SourceInfo> where,
                                     JobHandler<Accepted> work) {
        return new GuardWorker<>(boundary, source, payload, where, work, drainConfig, onDrain, persistenceCheck, timeouts,
                this::listener);
    }

    /** Starts the pod's deletion cost keeper, or says why it cannot. */
    interface DeletionCostStart {
        DeletionCost start() throws DeletionCost.Refused;
    }

    /**
     * What the workers tell when a job starts and ends: the pod's deletion cost keeper, shared by
     * every worker of the application (the pod is busy while any of them holds a job), started by
     * the first worker that starts; its refusal fails that start.
     */
    synchronized JobListener listener() {
        if (deletionCostStart == null) {
            return JobListener.NONE;
        }
        if (deletionCost == null) {
            try {
                deletionCost = deletionCostStart.start();
            } catch (DeletionCost.Refused e) {
                throw GuardStartupException.deletionCost(e.getMessage(), e.exitCode());
            }
        }
        return deletionCost;
    }

    /** Stops keeping the pod's deletion cost (the context is closing). */
    public synchronized void close() {
        if (deletionCost != null) {
            deletionCost.close();
            deletionCost = null;
        }
    }

    /** The boundary every worker built here shares (and its ledger). */
    public JobBoundary<Accepted> boundary() {
        return boundary;
    }
}
