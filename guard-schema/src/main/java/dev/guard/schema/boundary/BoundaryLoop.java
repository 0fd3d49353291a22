package dev.guard.schema.boundary;

import dev.guard.drain.CompletionStore;
import dev.guard.drain.Drain;
import dev.guard.drain.DrainLoop;
import dev.guard.drain.ForwardingJobSource;
import dev.guard.drain.JobHandler;
import dev.guard.drain.JobListener;
import dev.guard.drain.JobSource;
import dev.guard.drain.Once;
import dev.guard.drain.OnceHandler;
import dev.guard.drain.ShutdownReceipt;
import dev.guard.schema.Accepted;
import dev.guard.schema.Outcome;
import dev.guard.schema.SourceInfo;
import dev.guard.schema.deadletter.DeadLetterException;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import java.util.function.BiFunction;
import java.util.function.Function;

/**
 * The worker loop with the boundary inside: takes jobs from a source until the drain stops it;
 * each payload is checked by the boundary, accepted ones go to the handler (which may call
 * {@code drain.checkpoint()} between steps), rejected and failed ones are dead-lettered, and each
 * is acked after its outcome. A dead letter the store does not take is tried again, the job kept
 * in hand, until it is written or the drain stops ({@link PatientDeadLetters}); a job still
 * without its letter at the stop, or past the drain's deadline, is handed back and recorded so.
 * What {@code Guard.run} and the Spring worker both run.
 */
public final class BoundaryLoop {

    private BoundaryLoop() {}

    /** Runs until the drain stops; returns the drain loop's receipt (not yet finished: the caller logs it). */
    public static <J> ShutdownReceipt run(Drain drain, JobBoundary<Accepted> given, JobSource<J> source,
                                          Function<J, String> payload, Function<J, SourceInfo> where, JobHandler<Accepted> work) {
        return run(drain, given, source, payload, where, work, JobListener.NONE);
    }

    /** As above, {@code listener} told when each job starts and ends ({@link DrainLoop.Builder#jobListener}). */
    public static <J> ShutdownReceipt run(Drain drain, JobBoundary<Accepted> given, JobSource<J> source,
            Function<J, String> payload, Function<J, SourceInfo> where, JobHandler<Accepted> work, JobListener listener) {
        return run(drain, given, source, payload, where, (stableId, d) -> accepted -> work.handle(accepted, d), listener);
    }

    /**
     * As {@link #run(Drain, JobBoundary, JobSource, Function, Function, JobHandler)}, with idempotent
     * completion: each accepted job is claimed in {@code completions} by the ledger's id, its
     * handler fills the store's write buffer, and the writes are applied with the completion record
     * in one step ({@link Once}); a duplicate is acked without running, a superseded job left to
     * the worker that claimed it after this one.
     */
    public static <J, W> ShutdownReceipt run(Drain drain, JobBoundary<Accepted> given, JobSource<J> source,
            Function<J, String> payload, Function<J, SourceInfo> where, CompletionStore<W> completions,
            OnceHandler<Accepted, W> work) {
        return run(drain, given, source, payload, where, completions, work, JobListener.NONE);
    }

    /** As above, {@code listener} told when each job starts and ends ({@link DrainLoop.Builder#jobListener}). */
    public static <J, W> ShutdownReceipt run(Drain drain, JobBoundary<Accepted> given, JobSource<J> source,
            Function<J, String> payload, Function<J, SourceInfo> where, CompletionStore<W> completions,
            OnceHandler<Accepted, W> work, JobListener listener) {
        Objects.requireNonNull(completions, "completions");
        return run(drain, given, source, payload, where, (stableId, d) -> accepted -> {
            if (stableId == null) {
                throw new IllegalArgumentException("the job has no id (no job_id, jobId, id, message_id, messageId or uuid"
                        + " field, and the source gives no message id or offset), so its completion cannot be recorded"
                        + " and a redelivery would run it again. Action: give the producer's payloads one of those id"
                        + " fields (or name another with JobBoundary.Builder.jobIdField)");
            }
            Once.run(completions, stableId, accepted, d, work);
        }, listener);
    }

    private static <J> ShutdownReceipt run(Drain drain, JobBoundary<Accepted> given, JobSource<J> source,
            Function<J, String> payload, Function<J, SourceInfo> where,
            BiFunction<String, Drain, AcceptedJobHandler<Accepted>> work, JobListener listener) {
        // a dead letter the store does not take is tried again with the job in hand until the drain
        // stops: handing the job back at once made the store's outage count against the job
        JobBoundary<Accepted> boundary = given.withDeadLetters(sink -> new PatientDeadLetters(sink, drain));
        Function<J, byte[]> bytes = job -> payload.apply(job).getBytes(StandardCharsets.UTF_8);
        // the loop's logs, receipt and hand-back callback name each job as the ledger does
        JobSource<J> named = new ForwardingJobSource<>(source) {
            @Override
            public String idOf(J job) {
                return boundary.idOf(bytes.apply(job), where.apply(job));
            }
        };
        return DrainLoop.<J>builder(drain, named, (job, d) -> {
                    Outcome outcome = boundary.handleWithId(bytes.apply(job), where.apply(job), stableId -> work.apply(stableId, d));
                    // the loop acks both and counts them done; the receipt names them as the ledger does
                    if (outcome == Outcome.REJECTED) {
                        d.jobRejected();
                    } else if (outcome == Outcome.FAILED) {
                        d.jobFailedAtBoundary();
                    }
                })
                .onHandBack(boundary::handedBack)
                .handBackIf(e -> e instanceof DeadLetterException)
                .jobListener(listener)
                .build()
                .run();
    }
}
