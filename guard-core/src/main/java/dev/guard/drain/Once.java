package dev.guard.drain;

import java.util.Objects;
import java.util.function.Function;

/**
 * Idempotent completion: a {@link JobHandler} that claims the job in a {@link CompletionStore}
 * before running it and records its completion (with its writes) after. A {@link DrainLoop}
 * running it:
 *
 * <ul>
 *   <li>acks a job whose completion is on record without running it ({@link Settled.Kind#DUPLICATE});</li>
 *   <li>acks a job that ran while another run's completion was recorded first, its writes
 *       discarded (also a duplicate);</li>
 *   <li>leaves a job that another worker claimed meanwhile to that worker, its writes discarded
 *       ({@link Settled.Kind#SUPERSEDED}, {@link JobSource#release});</li>
 *   <li>hands back a job whose claim or completion the store did not answer
 *       ({@link CompletionStore.Unavailable}): not the job's fault, and its next claim finds the
 *       record if the completion was written after all.</li>
 * </ul>
 *
 * <pre>{@code
 * try (RedisCompletions done = RedisCompletions.builder(results, "thumbs:done").build()) {
 *     DrainLoop.builder(drain, queue, Once.handler(done, queue::idOf,
 *             (job, d, w) -> w.hset("thumbs", job.id(), render(job)))).build().run();
 * }
 * }</pre>
 */
public final class Once {

    private Once() {}

    /** The handler that claims, runs {@code work}, and completes; ids from {@code idOf}. */
    public static <J, W> JobHandler<J> handler(CompletionStore<W> store, Function<J, String> idOf, OnceHandler<J, W> work) {
        Objects.requireNonNull(store, "store");
        Objects.requireNonNull(idOf, "idOf");
        Objects.requireNonNull(work, "work");
        return (job, drain) -> run(store, idOf.apply(job), job, drain, work);
    }

    /** Claims {@code jobId}, runs {@code work} on {@code job}, completes; throws {@link Settled} when not recorded here. */
    public static <J, W> void run(CompletionStore<W> store, String jobId, J job, Drain drain, OnceHandler<J, W> work)
            throws Exception {
        CompletionStore.Claim claim = store.claim(jobId);
        if (claim.onRecord()) {
            throw new Settled(Settled.Kind.DUPLICATE, "its completion is on record in " + store.describe()
                    + ": acked without running it again");
        }
        W writes = store.writes(claim);
        work.handle(job, drain, writes);
        CompletionStore.Verdict verdict = store.complete(claim, writes);
        switch (verdict) {
            case RECORDED -> { }
            case ON_RECORD -> throw new Settled(Settled.Kind.DUPLICATE, "it ran, but another run's completion"
                    + " was recorded first in " + store.describe() + ": this run's writes were discarded, the job is acked");
            case SUPERSEDED -> throw new Settled(Settled.Kind.SUPERSEDED, "another worker claimed it while this"
                    + " one held it (this claim's fencing token " + claim.token() + " is no longer the newest: its lease or"
                    + " AckWait lapsed, or the job was queued twice); this run's writes were discarded in "
                    + store.describe() + " and the job is left to that worker");
            default -> throw new IllegalStateException(String.valueOf(verdict));
        }
    }
}
