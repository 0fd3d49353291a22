package dev.guard.drain;

import java.util.Optional;

/**
 * Where a {@link DrainLoop} takes jobs from. {@link #fetch()} must block only briefly (about a
 * second at most) so the loop sees a stop request quickly.
 *
 * @param <J> the job type
 */
public interface JobSource<J> extends AutoCloseable {

    /** Waits a short while for the next job; empty when none arrived in that time. */
    Optional<J> fetch();

    /** The job is done: forget it (it may already be gone for delete-on-read queues). */
    void ack(J job);

    /** Returns an unfinished job to the queue so another worker runs it from the start. */
    void handBack(J job) throws HandBackFailedException;

    /** The handler failed (not an interruption): park the job where a person can see it. */
    void fail(J job, Exception cause);

    /** The id the receipt, logs and callbacks use for this job. */
    String idOf(J job);

    /**
     * What the broker keeps when it restarts (read from the broker; may connect and send a few
     * commands). Called once before the first {@link #fetch()} by guard's worker loop, which stops
     * a worker whose broker would lose its jobs. The default: not reported.
     */
    default Durability durability() {
        return Durability.notReported(getClass().getSimpleName());
    }

    @Override
    void close();
}
