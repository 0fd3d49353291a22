package dev.guard.schema.boundary;

import dev.guard.GuardLog;
import dev.failsafe.Execution;
import dev.failsafe.RetryPolicy;
import dev.guard.config.Redaction;
import dev.guard.drain.Drain;
import dev.guard.schema.deadletter.DeadLetter;
import dev.guard.schema.deadletter.DeadLetterException;
import dev.guard.schema.deadletter.DeadLetterSink;
import java.time.Duration;
import org.slf4j.Logger;

/**
 * The worker loop's dead-letter sink: a letter that cannot be written is tried again, with the job
 * kept in hand, until it is written or the drain stops. Handing the job back at once instead
 * (what the loop did before) made a store's outage the job's fault: the job came straight back,
 * failed again within the same second, and after the queue's interruption limit (3) the queue
 * parked it in its own list, not in the dead-letter store the team reads. That was the Redis kill
 * run's lost job (ComposeStackIT, issue 40): a skewed job met the dead-letter connection while it
 * was still reconnecting after Redis restarted, and burned its three interruptions in under a
 * second. An outage of the store is the worker's problem, not the job's: the worker waits.
 *
 * <p>The schedule is failsafe's ({@link RetryPolicy} with backoff, no attempt limit), driven through
 * a standalone {@link Execution} as the readiness gate drives its own; the pauses are the drain's
 * {@link Drain#awaitStop}, so a stop ends the wait at once instead of after the current pause.
 */
final class PatientDeadLetters implements DeadLetterSink {

    private static final Logger LOG = GuardLog.logger(PatientDeadLetters.class);
    static final Duration FIRST_PAUSE = Duration.ofMillis(250);
    static final Duration MAX_PAUSE = Duration.ofSeconds(5);

    private final DeadLetterSink sink;
    private final Drain drain;

    PatientDeadLetters(DeadLetterSink sink, Drain drain) {
        this.sink = sink;
        this.drain = drain;
    }

    @Override
    public void write(DeadLetter letter) {
        long started = System.nanoTime();
        Execution<Void> schedule = Execution.of(RetryPolicy.<Void>builder().withBackoff(FIRST_PAUSE, MAX_PAUSE)
                .withMaxRetries(-1).build());
        while (true) {
            try {
                sink.write(letter);
                if (schedule.getAttemptCount() > 0) {
                    LOG.info("guard: dead letter for job {} written at attempt {}, {} ms after the first", letter.jobId(),
                            schedule.getAttemptCount() + 1, Duration.ofNanos(System.nanoTime() - started).toMillis());
                }
                return;
            } catch (RuntimeException e) {
                if (drain.stopping()) {
                    throw e; // the loop hands the job back: the store was down until the stop
                }
                schedule.recordException(e);
                int attempt = schedule.getAttemptCount();
                if (attempt == 1 || attempt % 10 == 0) {
                    LOG.warn("guard: dead letter for job {} not written (attempt {}: {}); the job stays in hand, unacked,"
                            + " and its letter is tried again every {} ms at most until the store takes it or the worker"
                            + " is stopped", letter.jobId(), attempt, Redaction.maskText(String.valueOf(e.getMessage())),
                            MAX_PAUSE.toMillis());
                }
                try {
                    if (drain.awaitStop(schedule.getDelay())) {
                        throw e;
                    }
                } catch (InterruptedException interrupted) {
                    Thread.currentThread().interrupt();
                    throw e instanceof DeadLetterException d ? d
                            : new DeadLetterException("interrupted while retrying the dead letter of job " + letter.jobId(), e);
                }
            }
        }
    }
}
