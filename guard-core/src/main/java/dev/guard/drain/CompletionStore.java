package dev.guard.drain;

/**
 * Where each job's completion is recorded by its id, so that a job the broker gives out again
 * after it was done is acked without running again, and a worker whose hold on a job lapsed (a
 * partition, a pause past its lease or AckWait) cannot record that job's completion once another
 * worker has taken it. {@link Once} runs a handler between {@link #claim} and {@link #complete}.
 *
 * <p>Each claim gets a fencing token larger than every earlier claim of the same id; {@link #complete}
 * writes the job's results (the {@code W} buffer the handler filled) and the completion record in
 * one atomic step, and only while the claim's token is still the newest and no completion is on
 * record. Results written that way exist once per job id, however often the job runs. Results the
 * handler writes elsewhere itself are not covered by that step: they happen before the check.
 *
 * @param <W> the buffer of writes a handler fills, applied by {@link #complete} with the record
 */
public interface CompletionStore<W> extends AutoCloseable {

    /**
     * Before the handler: the job's completion if it is on record, else a new claim whose token
     * supersedes every earlier claim of this id.
     *
     * @throws Unavailable when the store does not answer: the job is handed back, not failed
     */
    Claim claim(String jobId);

    /** A fresh, empty buffer for the handler's writes of this claim. */
    W writes(Claim claim);

    /**
     * After the handler: in one atomic step, checks that no completion is on record and that the
     * claim's token is still the newest, then applies the writes and records the completion.
     *
     * @throws Unavailable when the store does not answer: the step may or may not have happened; the
     *     job is handed back, and its next claim finds the record if it was written
     */
    Verdict complete(Claim claim, W writes);

    /** For log lines: the store and what it keeps, never a password. */
    String describe();

    /** What the store keeps when it restarts (its records are what makes a redelivery a duplicate). */
    default Durability durability() {
        return Durability.notReported(getClass().getSimpleName());
    }

    @Override
    void close();

    /** What {@link #complete} did. */
    enum Verdict {
        /** The writes were applied and the completion recorded. */
        RECORDED,
        /** Another run's completion was on record already: nothing was written. */
        ON_RECORD,
        /** A newer claim exists (another worker took the job): nothing was written. */
        SUPERSEDED
    }

    /**
     * A job's claim: its token, or that the job's completion is on record already.
     *
     * @param jobId    the job
     * @param token    the fencing token of this claim (0 when {@code onRecord})
     * @param onRecord true when the job's completion is on record: it must not run again
     */
    record Claim(String jobId, long token, boolean onRecord) {
    }

    /** The store did not answer (down, cut off, timed out): the job is handed back, not failed. */
    final class Unavailable extends RuntimeException {
        private static final long serialVersionUID = 1L;

        public Unavailable(String message, Throwable cause) {
            super(message, cause);
        }
    }
}
