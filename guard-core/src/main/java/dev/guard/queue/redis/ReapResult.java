package dev.guard.queue.redis;

/** What one reaper pass did: dead workers found, jobs returned to the queue, jobs dead-lettered. */
public final class ReapResult {

    private final long workersReaped;
    private final long jobsReturned;
    private final long jobsDeadLettered;

    ReapResult(long workersReaped, long jobsReturned, long jobsDeadLettered) {
        this.workersReaped = workersReaped;
        this.jobsReturned = jobsReturned;
        this.jobsDeadLettered = jobsDeadLettered;
    }

    public long workersReaped() {
        return workersReaped;
    }

    public long jobsReturned() {
        return jobsReturned;
    }

    public long jobsDeadLettered() {
        return jobsDeadLettered;
    }

    public boolean isEmpty() {
        return workersReaped == 0 && jobsReturned == 0 && jobsDeadLettered == 0;
    }

    @Override
    public String toString() {
        return "reaped " + workersReaped + " dead worker(s): " + jobsReturned + " job(s) returned to the queue, "
                + jobsDeadLettered + " dead-lettered after too many interruptions";
    }
}
