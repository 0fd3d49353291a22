package dev.guard.drain;

import dev.guard.GuardLog;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.function.Predicate;
import org.slf4j.Logger;

/**
 * The worker loop: fetch (short waits) until a stop is requested, run each job, ack it; a job
 * whose handler hits the deadline ({@link HandBack}) or that was fetched just as the stop came
 * is handed back. Returns the {@link ShutdownReceipt}; the caller closes its clients and exits
 * with {@link ShutdownReceipt#exitCode()}.
 *
 * <pre>{@code
 * Drain drain = Drain.install(DrainConfig.fromEnv());
 * try (FallbackListQueue q = FallbackListQueue.builder(client, "emails").build()) {
 *     ShutdownReceipt r = DrainLoop.builder(drain, q, (job, d) -> { for (Step s : steps(job)) { d.checkpoint(); s.run(); } })
 *             .onHandBack(ledger::handedBack).build().run();
 *     ...
 * }
 * }</pre>
 *
 * @param <J> the job type
 */
public final class DrainLoop<J> {

    private static final Logger LOG = GuardLog.logger(DrainLoop.class);

    private final Drain drain;
    private final JobSource<J> source;
    private final JobHandler<J> handler;
    private final Consumer<String> onHandBack;
    private final BiConsumer<String, Exception> onHandBackFailed;
    private final boolean handBack;
    private final Duration fetchErrorPause;
    private final Predicate<Exception> handBackIf;
    private final JobListener listener;
    /** The job whose handler runs now, and since when (this drain's clock): what the deadline watch names. */
    private volatile J inHand;
    private volatile long inHandSince;

    DrainLoop(Builder<J> b) {
        this.drain = b.drain;
        this.source = b.source;
        this.handler = b.handler;
        this.onHandBack = b.onHandBack;
        this.onHandBackFailed = b.onHandBackFailed;
        this.handBack = b.handBack;
        this.fetchErrorPause = b.fetchErrorPause;
        this.handBackIf = b.handBackIf;
        this.listener = b.listener;
    }

    public static <J> Builder<J> builder(Drain drain, JobSource<J> source, JobHandler<J> handler) {
        return new Builder<>(drain, source, handler);
    }

    /** Runs until a stop is requested and the current job is finished or handed back. */
    public ShutdownReceipt run() {
        Thread watch = new Thread(this::watchDeadline, "guard-drain-deadline-watch");
        watch.setDaemon(true);
        watch.start();
        try {
            loop();
        } finally {
            watch.interrupt();
        }
        return drain.finish();
    }

    private void loop() {
        while (!drain.stopping()) {
            drain.loopTurned();
            Optional<J> next;
            try {
                next = source.fetch();
            } catch (SourceLostException e) {
                LOG.error("guard drain: the job source is lost, no more jobs: {}", e.getMessage());
                drain.sourceLost(e.getMessage());
                break;
            } catch (RuntimeException e) {
                LOG.warn("guard drain: fetch failed ({}); retrying in {} ms", e.toString(), fetchErrorPause.toMillis());
                pause();
                continue;
            }
            if (next.isEmpty()) {
                continue;
            }
            J job = next.get();
            drain.jobFetched();
            if (drain.stopping() && handBack) {
                handBack(job, "fetched as the stop arrived");
                break;
            }
            boolean handled = false;
            drain.loopTurned();
            inHandSince = drain.nanoTime();
            inHand = job;
            listener.jobStarted();
            try {
                handler.handle(job, drain);
                handled = true;
            } catch (HandBack signal) {
                if (handBack) {
                    handBack(job, signal.getMessage());
                } else {
                    LOG.warn("guard drain: job {} passed the deadline and hand-back is off: it is dropped", source.idOf(job));
                }
                break;
            } catch (Settled settled) {
                settle(job, settled);
                continue;
            } catch (Exception e) {
                if (e instanceof InterruptedException) {
                    Thread.currentThread().interrupt();
                }
                if (handBackIf.test(e) || e instanceof CompletionStore.Unavailable) {
                    // not the job's fault (its dead letter could not be written, say): it runs again later
                    if (!handBack(job, "not done: " + e)) {
                        // the job may sit in this worker's own keeping (a processing list, an unacked
                        // delivery) where nobody else takes it while this worker lives: stop, so that
                        // the broker or the restarted worker gives it out again
                        drain.requestStop("hand-back of job " + source.idOf(job) + " failed");
                        break;
                    }
                    continue;
                }
                LOG.warn("guard drain: job {} failed: {}", source.idOf(job), e.toString());
                try {
                    source.fail(job, e);
                    drain.jobFailed();
                } catch (RuntimeException failError) {
                    // a delete-on-read queue kept no copy: the receipt names the job (once: not also as
                    // failed) and is not clean
                    String id = source.idOf(job);
                    drain.jobHandBackFailed(id);
                    LOG.error("guard drain: job {} failed and could not be parked ({}); it may be lost unless the queue"
                            + " kept a copy: reconcile it by id. The worker will exit with code {}.", id, failError.toString(),
                            dev.guard.ExitCodes.SOFTWARE);
                }
            } finally {
                inHand = null;
                listener.jobEnded();
            }
            overran(job);
            if (handled) {
                acknowledge(job);
            }
        }
    }

    /**
     * At the deadline, names the job still running: it has no {@link Drain#checkpoint()} that hands
     * it back, and the grace period ends {@code safetyMargin} later (under Kubernetes: SIGKILL).
     */
    private void watchDeadline() {
        try {
            while (!drain.awaitStop(Duration.ofMinutes(1))) {
                // a long-lived worker: keep waiting for the stop
            }
            Thread.sleep(Math.max(0, drain.timeLeft().toMillis()) + 1);
            J job = inHand;
            if (job != null) {
                DrainConfig c = drain.config();
                LOG.warn("guard drain: job {} is still running at the drain deadline ({} ms after {}, {} ms into the job);"
                        + " nothing hands it back unless it calls drain.checkpoint(). The grace period ends in {} ms;"
                        + " under Kubernetes the worker is SIGKILLed then, mid-job", source.idOf(job), c.budget().toMillis(),
                        drain.receipt().reason(), (drain.nanoTime() - inHandSince) / 1_000_000, c.safetyMargin().toMillis());
            }
        } catch (InterruptedException e) {
            // the loop ended
        } catch (RuntimeException e) {
            LOG.warn("guard drain: the deadline watch failed ({}); the drain itself goes on", e.toString());
        }
    }

    /** A job that finished (or threw) after the deadline: how far past, what SIGKILL would have done, what to change. */
    private void overran(J job) {
        if (!drain.pastDeadline()) {
            return;
        }
        drain.jobOverran();
        DrainConfig c = drain.config();
        long pastMs = (drain.nanoTime() - drain.deadlineNanos()) / 1_000_000;
        long margin = c.safetyMargin().toMillis();
        String verdict = pastMs > margin
                ? "that is past the grace period (" + c.gracePeriod().toMillis() + " ms): under Kubernetes the worker would"
                        + " have been SIGKILLed mid-job"
                : "the grace period (" + c.gracePeriod().toMillis() + " ms) ended " + (margin - pastMs) + " ms later: under"
                        + " Kubernetes a little longer and the worker is SIGKILLed mid-job";
        LOG.warn("guard drain: job {} finished {} ms past the drain deadline, without a checkpoint that would have handed"
                + " it back; {}. Call drain.checkpoint() between its steps (past the deadline it hands the job back),"
                + " or raise the grace period above the longest job plus the safety margin ({} ms): GUARD_GRACE_PERIOD and"
                + " terminationGracePeriodSeconds together", source.idOf(job), pastMs, verdict, margin);
    }

    /**
     * The handler finished the job: it is done, whatever its ack does. An ack that fails (the broker
     * is down or the connection gone) leaves the job with the broker, which gives it out again: it is
     * not failed, not dead-lettered and not lost, but it may run twice, which the log and the
     * receipt ({@code ack_failed}) say.
     */
    private void acknowledge(J job) {
        try {
            source.ack(job);
        } catch (RuntimeException e) {
            String id = source.idOf(job);
            drain.jobAckFailed();
            LOG.warn("guard drain: job {} is done, but its ack failed ({}); the broker still holds it and will give it out"
                    + " again, so it may run twice: its effects must be idempotent", id, e.toString());
        }
        drain.jobDone();
    }

    /**
     * A {@link Once} handler's verdict: a duplicate is acked (its completion is on record, so an
     * ack that fails only means it comes back once more, as a duplicate again); a superseded job is
     * released, left to the worker that claimed it after this one.
     */
    private void settle(J job, Settled settled) {
        String id = source.idOf(job);
        if (settled.kind() == Settled.Kind.DUPLICATE) {
            drain.jobDuplicate();
            LOG.info("guard drain: job {} is a duplicate: {}", id, settled.getMessage());
            try {
                source.ack(job);
            } catch (RuntimeException e) {
                LOG.warn("guard drain: duplicate job {} could not be acked ({}); the broker gives it out again and its"
                        + " completion record settles it again", id, e.toString());
            }
            return;
        }
        drain.jobSuperseded();
        LOG.warn("guard drain: job {} superseded: {}", id, settled.getMessage());
        try {
            source.release(job);
        } catch (HandBackFailedException | RuntimeException e) {
            LOG.warn("guard drain: superseded job {}: giving up this worker's hold failed ({}); if the broker still counts"
                    + " it as this worker's, it gives it out again when this worker's hold ends (exit, lease, AckWait)",
                    id, e.toString());
        }
    }

    /** True when the job went back to the queue. */
    private boolean handBack(J job, String why) {
        String id = source.idOf(job);
        try {
            source.handBack(job);
            drain.jobHandedBack();
            LOG.info("guard drain: job {} handed back ({})", id, why);
            onHandBack.accept(id);
            return true;
        } catch (HandBackFailedException | RuntimeException e) {
            drain.jobHandBackFailed(id);
            LOG.error("guard drain: HAND-BACK FAILED for job {}: {}. The job may be lost unless the queue kept a copy;"
                    + " reconcile it by id. The worker will exit with code {}.", id, e.getMessage(),
                    dev.guard.ExitCodes.SOFTWARE);
            onHandBackFailed.accept(id, e);
            return false;
        }
    }

    private void pause() {
        try {
            drain.awaitStop(fetchErrorPause);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            drain.requestStop("interrupted");
        }
    }

    /** Mutable builder. */
    public static final class Builder<J> {
        private final Drain drain;
        private final JobSource<J> source;
        private final JobHandler<J> handler;
        private Consumer<String> onHandBack = id -> { };
        private BiConsumer<String, Exception> onHandBackFailed = (id, e) -> { };
        private boolean handBack = true;
        private Duration fetchErrorPause = Duration.ofMillis(500);
        private Predicate<Exception> handBackIf = e -> false;
        private JobListener listener = JobListener.NONE;

        Builder(Drain drain, JobSource<J> source, JobHandler<J> handler) {
            this.drain = Objects.requireNonNull(drain, "drain");
            this.source = Objects.requireNonNull(source, "source");
            this.handler = Objects.requireNonNull(handler, "handler");
        }

        /** Called with the job id after each successful hand-back (e.g. a ledger's HANDED_BACK outcome). */
        public Builder<J> onHandBack(Consumer<String> callback) {
            this.onHandBack = Objects.requireNonNull(callback, "callback");
            return this;
        }

        /** Called with the job id and the cause when a hand-back failed. */
        public Builder<J> onHandBackFailed(BiConsumer<String, Exception> callback) {
            this.onHandBackFailed = Objects.requireNonNull(callback, "callback");
            return this;
        }

        /**
         * Whether to hand jobs back (default true). False gives the plain "graceful exit": a job
         * fetched during the stop is still run, and a job past the deadline is dropped.
         */
        public Builder<J> handBack(boolean handBack) {
            this.handBack = handBack;
            return this;
        }

        /** How long to wait after a failed fetch before the next one (default 500 ms). */
        public Builder<J> fetchErrorPause(Duration pause) {
            this.fetchErrorPause = Objects.requireNonNull(pause, "pause");
            return this;
        }

        /**
         * Exceptions from the handler that mean "not done, try again" rather than "this job
         * fails": the job is handed back and the loop goes on (default: none, every exception fails
         * the job). The queue counts each hand-back as an interruption and dead-letters a job at
         * its limit, so a job that always throws one of these does not loop for ever.
         */
        public Builder<J> handBackIf(Predicate<Exception> retryable) {
            this.handBackIf = Objects.requireNonNull(retryable, "retryable");
            return this;
        }

        /**
         * Told when each job's handler starts and when the job leaves this worker's hands (default:
         * nobody), e.g. a {@link dev.guard.drain.kubernetes.DeletionCost} that marks the pod busy.
         */
        public Builder<J> jobListener(JobListener listener) {
            this.listener = Objects.requireNonNull(listener, "listener");
            return this;
        }

        public DrainLoop<J> build() {
            return new DrainLoop<>(this);
        }
    }
}
