package dev.guard.drain;

/**
 * Runs one job and puts its results in {@code writes} instead of writing them itself: the
 * {@link CompletionStore} applies them with the job's completion record, in one atomic step, only
 * if no other run of the job got there first.
 *
 * @param <J> the job type
 * @param <W> the store's write buffer
 */
@FunctionalInterface
public interface OnceHandler<J, W> {

    void handle(J job, Drain drain, W writes) throws Exception;
}
