package dev.guard.schema.boundary;

import dev.guard.drain.Drain;
import dev.guard.drain.DrainLoop;
import dev.guard.drain.ForwardingJobSource;
import dev.guard.drain.JobHandler;
import dev.guard.drain.JobSource;
import dev.guard.drain.ShutdownReceipt;
import dev.guard.schema.Accepted;
import dev.guard.schema.SourceInfo;
import dev.guard.schema.deadletter.DeadLetterException;
import java.nio.charset.StandardCharsets;
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
        return DrainLoop.<J>builder(drain, named, (job, d) ->
                        boundary.handle(bytes.apply(job), where.apply(job), accepted -> work.handle(accepted, d)))
                .onHandBack(boundary::handedBack)
                .handBackIf(e -> e instanceof DeadLetterException)
                .build()
                .run();
    }
}
