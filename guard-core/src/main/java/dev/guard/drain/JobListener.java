package dev.guard.drain;

/**
 * Told by the {@link DrainLoop}, on its own thread, when a job's handler starts and when the loop
 * is through with that job (done, failed, handed back or settled). It must return at once: the
 * loop waits for it. {@link dev.guard.drain.kubernetes.DeletionCost} is one.
 */
public interface JobListener {

    /** A job's handler is about to run. */
    void jobStarted();

    /** The job that {@link #jobStarted()} announced is no longer in this worker's hands. */
    void jobEnded();

    /** The listener that does nothing. */
    JobListener NONE = new JobListener() {
        @Override
        public void jobStarted() {
            // nothing
        }

        @Override
        public void jobEnded() {
            // nothing
        }
    };
}
