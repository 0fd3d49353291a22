package dev.guard.drain;

import java.util.List;
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

    /**
     * Another worker claimed this job while this one held it ({@link Settled.Kind#SUPERSEDED}):
     * give up this worker's hold without settling the job for the fleet. The default hands it back,
     * which is right wherever the broker gives a held job to another worker only after taking it
     * from this one (a reaped processing list, a closed channel, a revoked partition: the hand-back
     * then finds nothing): the job is never lost, even when the newer claim was a claim command
     * that reached the store late and nobody runs it. A source whose broker gives the same delivery
     * to another worker while this one still holds it (JetStream after AckWait, a Redis stream entry
     * claimed by another consumer) overrides this to do nothing: the broker's own timeout brings
     * the job back if the other worker does not finish it, and a hand-back would take it from that
     * worker.
     */
    default void release(J job) throws HandBackFailedException {
        handBack(job);
    }

    /** The id the receipt, logs and callbacks use for this job. */
    String idOf(J job);

    /** Where {@code job} came from (its list, queue, topic or subject, and position): a dead letter's source. */
    default JobOrigin originOf(J job) {
        return JobOrigin.unknown();
    }

    /**
     * What the broker keeps when it restarts (read from the broker; may connect and send a few
     * commands). Called once before the first {@link #fetch()} by guard's worker loop, which stops
     * a worker whose broker would lose its jobs. The default: not reported.
     */
    default Durability durability() {
        return Durability.notReported(getClass().getSimpleName());
    }

    /**
     * The clocks a job's length meets at this source, read from the broker where it tells them
     * (AckWait, a claim's idle time, a consumer timeout, a message age limit, how long a killed
     * worker's job waits): the {@link TimeoutBudget} judges them against the declared longest job
     * before the first {@link #fetch()}. The default: none known.
     */
    default List<JobClock> clocks() {
        return List.of();
    }

    @Override
    void close();
}
