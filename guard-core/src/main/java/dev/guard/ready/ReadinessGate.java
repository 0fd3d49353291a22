package dev.guard.ready;

import dev.guard.GuardLog;
import dev.failsafe.Execution;
import dev.failsafe.RetryPolicy;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReferenceArray;
import org.slf4j.Logger;

/**
 * Waits until every dependency serves, in parallel, under one overall deadline.
 *
 * <pre>{@code
 * try (ReadinessGate gate = ReadinessGate.builder()
 *         .probe(Probes.forUrl("redis://redis:6379"))
 *         .probe(Probes.kafkaBuilder("kafka:9092").requireTopics("jobs").build())
 *         .deadline(Duration.ofSeconds(60))
 *         .build()) {
 *     ReadinessReport report = gate.await();
 *     if (!report.ready()) { System.err.print(report.render()); ... }
 * }
 * }</pre>
 *
 * <p>Each target runs its own attempt loop: an attempt bounded by the attempt timeout (and by
 * what is left of the deadline), then failsafe's backoff ({@link Backoff}, or the target's own
 * estimate of when it is ready) until READY, never more than {@link #MAX_ATTEMPTS_PER_SECOND}
 * attempt starts in any one second. A
 * state waiting cannot fix (AUTH, TLS, CONFIG) ends the whole wait at once. One log line per
 * state change per target. Built gates are immutable and reusable; {@link #close()} releases
 * the probes' client resources.
 */
public final class ReadinessGate implements AutoCloseable {

    private static final Logger LOG = GuardLog.logger(ReadinessGate.class);
    private static final Duration MIN_ATTEMPT = Duration.ofMillis(20);
    /** Attempt starts per target in any one second, at most, however the attempts are paced. */
    public static final int MAX_ATTEMPTS_PER_SECOND = 20;

    private final List<Probe> probes;
    private final Duration deadline;
    private final Duration attemptTimeout;
    private final Duration stableFor;
    private final Backoff backoff;
    private final ReadinessListener listener;
    private final Clock clock;
    private final Sleeper sleeper;
    private final RetryPolicy<ProbeResult> retryPolicy;

    ReadinessGate(Builder b) {
        this.probes = List.copyOf(b.probes);
        this.deadline = b.deadline;
        this.attemptTimeout = b.attemptTimeout;
        this.stableFor = b.stableFor;
        this.backoff = b.backoff;
        this.listener = b.listener;
        this.clock = b.clock;
        this.sleeper = b.sleeper;
        this.retryPolicy = backoff.retryPolicy();
    }

    public static Builder builder() {
        return new Builder();
    }

    public List<Probe> probes() {
        return probes;
    }

    public Duration deadline() {
        return deadline;
    }

    public Duration attemptTimeout() {
        return attemptTimeout;
    }

    public Duration stableFor() {
        return stableFor;
    }

    public Backoff backoff() {
        return backoff;
    }

    /**
     * Waits for all targets in parallel. Returns when all are READY (and stayed READY for
     * {@code stableFor}), at once when one hits a non-retryable state, or at the deadline.
     * Interrupting the calling thread returns promptly with what is known (outcome
     * INTERRUPTED, interrupt flag kept). Never throws for a dependency's failure.
     */
    public ReadinessReport await() {
        Instant start = clock.instant();
        Instant deadlineAt = start.plus(deadline);
        AtomicReferenceArray<ProbeResult> latest = new AtomicReferenceArray<>(probes.size());
        AtomicBoolean stop = new AtomicBoolean();
        CompletableFuture<ProbeResult> blocked = new CompletableFuture<>();
        ExecutorService pool = Executors.newFixedThreadPool(Math.max(1, probes.size()), daemonThreads("guard-ready"));
        List<CompletableFuture<ProbeResult>> futures = new ArrayList<>();
        for (int i = 0; i < probes.size(); i++) {
            int index = i;
            futures.add(CompletableFuture.supplyAsync(
                    () -> runTarget(index, start, deadlineAt, latest, stop, blocked), pool));
        }
        ReadinessReport.Outcome outcome;
        try {
            CompletableFuture<Object> all = CompletableFuture.allOf(futures.toArray(CompletableFuture[]::new))
                    .thenApply(v -> (Object) Boolean.TRUE);
            // workers stop on the injected clock; the real-time bound is only a safety net
            long waitMs = deadline.plus(attemptTimeout).plusMillis(500).toMillis();
            CompletableFuture.anyOf(all, blocked).get(waitMs, TimeUnit.MILLISECONDS);
            if (blocked.isDone()) { // checked first: both may be complete when a lone target is blocked
                outcome = ReadinessReport.Outcome.NOT_RETRYABLE;
            } else {
                outcome = allReady(futures) ? ReadinessReport.Outcome.READY : ReadinessReport.Outcome.DEADLINE;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            outcome = ReadinessReport.Outcome.INTERRUPTED;
        } catch (TimeoutException e) {
            outcome = ReadinessReport.Outcome.DEADLINE;
        } catch (ExecutionException e) {
            // runTarget throws only on a bug (a probe's or a pacing function's): say so, keep what we have
            LOG.error("guard readiness: the wait on a target ended with an internal error; reporting what is known", e.getCause());
            outcome = ReadinessReport.Outcome.DEADLINE;
        } finally {
            stop.set(true);
            pool.shutdownNow();
        }
        Duration elapsed = Duration.between(start, clock.instant());
        List<ProbeResult> results = new ArrayList<>();
        for (int i = 0; i < probes.size(); i++) {
            ProbeResult r = latest.get(i);
            if (r == null) {
                Probe p = probes.get(i);
                r = new ProbeResult(p.kind(), p.target(), ProbeState.TIMEOUT,
                        "no attempt finished before the wait ended", "", 0, elapsed);
            }
            results.add(r);
        }
        ReadinessReport report = new ReadinessReport(outcome, results, elapsed, deadline);
        if (listener != null) {
            try {
                listener.onWaitEnded(report);
            } catch (RuntimeException e) {
                LOG.warn("readiness listener failed on the end of the wait", e);
            }
        }
        if (report.ready()) {
            LOG.info("readiness: all {} target(s) ready after {}", results.size(), ReadinessReport.seconds(elapsed));
        } else {
            LOG.warn("{}", report.render().stripTrailing());
        }
        return report;
    }

    /** One attempt per target, in parallel (a healthcheck). Never throws. */
    public ReadinessReport checkOnce() {
        Instant start = clock.instant();
        List<CompletableFuture<ProbeResult>> futures = new ArrayList<>();
        ExecutorService pool = Executors.newFixedThreadPool(Math.max(1, probes.size()), daemonThreads("guard-check"));
        try {
            for (Probe p : probes) {
                futures.add(CompletableFuture.supplyAsync(() -> safeCheck(p, attemptTimeout), pool));
            }
            List<ProbeResult> results = new ArrayList<>();
            boolean interrupted = false;
            for (int i = 0; i < futures.size(); i++) {
                ProbeResult r;
                try {
                    r = futures.get(i).get(attemptTimeout.toMillis() + 1000, TimeUnit.MILLISECONDS);
                } catch (InterruptedException e) {
                    interrupted = true;
                    Thread.currentThread().interrupt();
                    r = null;
                } catch (ExecutionException | TimeoutException e) {
                    r = null;
                }
                if (r == null) {
                    Probe p = probes.get(i);
                    r = new ProbeResult(p.kind(), p.target(), ProbeState.TIMEOUT,
                            "the check did not finish within " + ReadinessReport.seconds(attemptTimeout), "", 1,
                            Duration.between(start, clock.instant()));
                }
                results.add(r);
            }
            boolean ok = results.stream().allMatch(ProbeResult::ready);
            ReadinessReport.Outcome outcome = interrupted ? ReadinessReport.Outcome.INTERRUPTED
                    : ok ? ReadinessReport.Outcome.READY
                    : results.stream().anyMatch(r -> !r.state().retryable()) ? ReadinessReport.Outcome.NOT_RETRYABLE
                    : ReadinessReport.Outcome.NOT_READY;
            return new ReadinessReport(outcome, results, Duration.between(start, clock.instant()), attemptTimeout);
        } finally {
            pool.shutdownNow();
        }
    }

    /** Releases every probe's client resources. */
    @Override
    public void close() {
        for (Probe p : probes) {
            try {
                p.close();
            } catch (RuntimeException e) {
                LOG.debug("closing probe {} failed", p.target(), e);
            }
        }
    }

    private ProbeResult runTarget(int index, Instant start, Instant deadlineAt, AtomicReferenceArray<ProbeResult> latest,
                                  AtomicBoolean stop, CompletableFuture<ProbeResult> blocked) {
        Probe probe = probes.get(index);
        Execution<ProbeResult> execution = Execution.of(retryPolicy);
        int attempt = 0;
        Instant readySince = null;
        AttemptWindow window = new AttemptWindow(MAX_ATTEMPTS_PER_SECOND);
        try {
            while (!stop.get() && !Thread.currentThread().isInterrupted()) {
                Duration hold = window.waitBefore(Duration.between(start, clock.instant()).toNanos());
                if (isPositive(hold)) {
                    sleeper.sleep(min(hold, positive(Duration.between(clock.instant(), deadlineAt))));
                }
                Duration remaining = Duration.between(clock.instant(), deadlineAt);
                if (attempt > 0 && !isPositive(remaining)) {
                    break;
                }
                attempt++;
                Duration timeout = min(attemptTimeout, max(remaining, MIN_ATTEMPT));
                Instant attemptStart = clock.instant();
                window.started(Duration.between(start, attemptStart).toNanos());
                ProbeResult raw = safeCheck(probe, timeout);
                Instant now = clock.instant();
                ProbeResult r = raw.withAttempt(attempt, Duration.between(start, now));
                if (r.state() == ProbeState.TIMEOUT && timeout.compareTo(attemptTimeout) < 0
                        && latest.get(index) != null) {
                    // an attempt cut short by the deadline says nothing new: keep the last full attempt's
                    // state. (Whether the clock has passed the deadline does not matter: a client's own
                    // timer may fire a few ms early, and the next attempt would only be shorter still.)
                    break;
                }
                if (r.ready()) {
                    if (readySince == null) {
                        readySince = now;
                    }
                    Duration stableLeft = stableFor.minus(Duration.between(readySince, now));
                    if (isPositive(stableLeft)) {
                        r = r.withDetail("ready for " + ReadinessReport.seconds(Duration.between(readySince, now))
                                + " of the required " + ReadinessReport.seconds(stableFor) + " (not yet stable)");
                        publish(index, r, latest, deadlineAt);
                        sleeper.sleep(min(min(backoff.max(), stableLeft), positive(Duration.between(now, deadlineAt))));
                        continue;
                    }
                    if (!stableFor.isZero()) {
                        r = r.withDetail("stable for " + ReadinessReport.seconds(Duration.between(readySince, now)));
                    }
                    publish(index, r, latest, deadlineAt);
                    return r;
                }
                if (readySince != null) {
                    readySince = null;
                    execution = Execution.of(retryPolicy); // it flipped back: start the schedule over
                }
                publish(index, r, latest, deadlineAt);
                if (!r.state().retryable()) {
                    blocked.complete(r);
                    return r;
                }
                execution.recordResult(r);
                if (execution.isComplete()) {
                    return r;
                }
                Duration left = Duration.between(clock.instant(), deadlineAt);
                if (!isPositive(left)) {
                    break;
                }
                // the backoff spaces attempt STARTS: time the attempt itself took counts against the
                // delay, so a slow reply (a loading Redis answers late) does not stretch the period
                Duration sinceStart = Duration.between(attemptStart, clock.instant());
                sleeper.sleep(min(positive(execution.getDelay().minus(sinceStart)), left));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return null; // not done: the last result is in `latest`
    }

    private void publish(int index, ProbeResult r, AtomicReferenceArray<ProbeResult> latest, Instant deadlineAt) {
        ProbeResult previous = latest.getAndSet(index, r);
        if (previous != null && previous.state() == r.state()) {
            return;
        }
        String line = logLine(r, deadline);
        if (!r.state().retryable()) {
            LOG.warn("{}; not retrying: {} does not change by waiting; {}", line, r.state().label(), r.cause());
        } else {
            LOG.info("{}", line);
        }
        if (listener != null) {
            try {
                listener.onStateChange(previous, r);
            } catch (RuntimeException e) {
                LOG.warn("readiness listener failed on {}", line, e);
            }
        }
    }

    /** {@code redis 127.0.0.1:6379 loading (dataset 40% loaded), attempt 7, 3.1s of 60s}. */
    static String logLine(ProbeResult r, Duration deadline) {
        return r.kind() + " " + r.target() + " " + r.state().label()
                + (r.detail().isEmpty() ? "" : " (" + r.detail() + ")")
                + ", attempt " + r.attempt() + ", " + ReadinessReport.seconds(r.elapsed()) + " of "
                + ReadinessReport.seconds(deadline);
    }

    static ProbeResult safeCheck(Probe probe, Duration timeout) {
        long t0 = System.nanoTime();
        try {
            ProbeResult r = probe.check(timeout);
            if (r != null) {
                return r;
            }
            return new ProbeResult(probe.kind(), probe.target(), ProbeState.PROTOCOL, "the probe returned no result",
                    "", 1, Duration.ofNanos(System.nanoTime() - t0));
        } catch (RuntimeException | LinkageError e) {
            return new ProbeResult(probe.kind(), probe.target(), ProbeState.PROTOCOL, "the probe failed unexpectedly",
                    ProbeResult.describe(e), 1, Duration.ofNanos(System.nanoTime() - t0));
        }
    }

    /** True when every worker finished with a READY (and stable) result. */
    private static boolean allReady(List<CompletableFuture<ProbeResult>> futures) {
        for (CompletableFuture<ProbeResult> f : futures) {
            ProbeResult r = f.getNow(null);
            if (r == null || !r.ready()) {
                return false;
            }
        }
        return true;
    }

    private static java.util.concurrent.ThreadFactory daemonThreads(String prefix) {
        AtomicInteger n = new AtomicInteger();
        return r -> {
            Thread t = new Thread(r, prefix + "-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
    }

    private static Duration min(Duration a, Duration b) {
        return a.compareTo(b) <= 0 ? a : b;
    }

    private static Duration max(Duration a, Duration b) {
        return a.compareTo(b) >= 0 ? a : b;
    }

    private static boolean isPositive(Duration d) {
        return !d.isNegative() && !d.isZero();
    }

    private static Duration positive(Duration d) {
        return d.isNegative() ? Duration.ZERO : d;
    }

    /** Builder; {@link #build()} validates and copies into an immutable gate. */
    public static final class Builder {
        private final List<Probe> probes = new ArrayList<>();
        private Duration deadline = Duration.ofSeconds(60);
        private Duration attemptTimeout = Duration.ofSeconds(2);
        private Duration stableFor = Duration.ZERO;
        private Backoff backoff = Backoff.DEFAULT;
        private ReadinessListener listener;
        private Clock clock = Clock.systemUTC();
        private Sleeper sleeper = Sleeper.SYSTEM;

        Builder() {}

        public Builder probe(Probe probe) {
            probes.add(Objects.requireNonNull(probe, "probe"));
            return this;
        }

        public Builder probes(Collection<? extends Probe> more) {
            more.forEach(this::probe);
            return this;
        }

        /** Overall bound of {@link #await()} (default 60 s). */
        public Builder deadline(Duration deadline) {
            this.deadline = Objects.requireNonNull(deadline, "deadline");
            return this;
        }

        /** Bound of each single attempt (default 2 s); also the command/connect timeout of the clients. */
        public Builder attemptTimeout(Duration attemptTimeout) {
            this.attemptTimeout = Objects.requireNonNull(attemptTimeout, "attemptTimeout");
            return this;
        }

        /** A target counts as ready only after staying READY this long (default 0: the first READY). */
        public Builder stableFor(Duration stableFor) {
            this.stableFor = Objects.requireNonNull(stableFor, "stableFor");
            return this;
        }

        public Builder backoff(Backoff backoff) {
            this.backoff = Objects.requireNonNull(backoff, "backoff");
            return this;
        }

        /** Told once per state change per target. */
        public Builder listener(ReadinessListener listener) {
            this.listener = listener;
            return this;
        }

        /** For tests: the clock for deadlines and elapsed times. */
        public Builder clock(Clock clock) {
            this.clock = Objects.requireNonNull(clock, "clock");
            return this;
        }

        /** For tests: how to wait between attempts. */
        public Builder sleeper(Sleeper sleeper) {
            this.sleeper = Objects.requireNonNull(sleeper, "sleeper");
            return this;
        }

        public ReadinessGate build() {
            if (probes.isEmpty()) {
                throw new IllegalArgumentException("a readiness gate needs at least one probe");
            }
            if (!isPositive(deadline)) {
                throw new IllegalArgumentException("deadline must be > 0, got " + deadline);
            }
            if (!isPositive(attemptTimeout)) {
                throw new IllegalArgumentException("attemptTimeout must be > 0, got " + attemptTimeout);
            }
            if (stableFor.isNegative()) {
                throw new IllegalArgumentException("stableFor must be >= 0, got " + stableFor);
            }
            return new ReadinessGate(this);
        }
    }
}
