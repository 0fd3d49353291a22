package dev.guard.ready;

import dev.failsafe.Execution;
import dev.failsafe.RetryPolicy;
import java.time.Duration;
import java.util.Objects;

/**
 * The retry schedule between attempts on one target: exponential backoff with jitter and a
 * low cap, so readiness is noticed within tens of milliseconds while a target sees at most
 * about {@code 1 / (maxDelay * (1 - jitter))} attempts per second.
 *
 * <p>The schedule is failsafe's ({@code RetryPolicy.builder()} with {@code withBackoff} and
 * {@code withJitter}); the policy also aborts on results whose state is not
 * retryable (AUTH, TLS, CONFIG). The gate drives it through failsafe's standalone
 * {@link Execution} with its own clock and sleeper, so {@link #delays(ProbeResult, int)}
 * computes the exact schedule without sleeping.
 *
 * <p>The delays space attempt <em>starts</em>: the gate subtracts the time an attempt took from
 * the sleep after it, so a slow reply does not stretch the period, and the rate bound holds.
 *
 * <p>Default: 10 ms, doubling, capped at 60 ms, jitter 5 % (at most ~17.5 attempts/s in steady
 * state, and at most 20 in the first second).
 *
 * <p>A target that says when it expects to be ready ({@link ProbeResult#expectedReadyIn()}: a
 * loading Redis, from its progress and rate) is paced by that estimate instead, through failsafe's
 * delay function: while the end is further than {@link #LEAD}, the next attempt comes after half
 * the time left (at least {@link #LEAD}, at most {@link #FAR_CAP}, never past the start of the lead
 * window), each attempt refining the estimate; within the lead window attempts come every
 * {@link #DENSE}. A load of many seconds thus costs a few attempts per second, and its end is seen
 * within about {@link #DENSE}. The gate bounds any pacing to {@link ReadinessGate#MAX_ATTEMPTS_PER_SECOND}
 * attempt starts in any one second.
 */
public final class Backoff {

    /** How long before the expected end attempts become dense. */
    public static final Duration LEAD = Duration.ofMillis(40);
    /** Spacing of the attempts around the expected end. */
    public static final Duration DENSE = Duration.ofMillis(10);
    /**
     * The longest pause while the expected end is far: a prediction is re-checked at least this often,
     * so a load that speeds up beyond its estimate (smaller keys at the end of the file) is seen
     * within this time. 500 ms, not less: each attempt is a round trip the loading server answers, and
     * at 250 ms 500 gates on one Redis lengthened its load by a median 11.8-13.8 % (FleetBench), against
     * 4.2 % at 500 ms; a load that keeps to its estimate is seen within {@link #DENSE} either way.
     */
    public static final Duration FAR_CAP = Duration.ofMillis(500);

    private static final Duration USE_BACKOFF = Duration.ofNanos(-1);

    /** 10 ms start, factor 2, 60 ms cap, 5 % jitter. */
    public static final Backoff DEFAULT = builder().build();

    private final Duration initial;
    private final Duration max;
    private final double factor;
    private final double jitter;

    Backoff(Builder b) {
        this.initial = b.initial;
        this.max = b.max;
        this.factor = b.factor;
        this.jitter = b.jitter;
    }

    public static Builder builder() {
        return new Builder();
    }

    public Duration initial() {
        return initial;
    }

    public Duration max() {
        return max;
    }

    public double factor() {
        return factor;
    }

    public double jitter() {
        return jitter;
    }

    /** Upper bound of attempts per second per target in steady state (ignores attempt duration). */
    public double maxAttemptsPerSecond() {
        return 1000.0 / (max.toNanos() / 1e6 * (1 - jitter));
    }

    /**
     * The failsafe policy: retry every non-READY result, forever (the gate's deadline bounds
     * it), abort on a non-retryable state, backoff + jitter as configured. Package-private: failsafe
     * is how the gate runs the schedule, not part of guard's API.
     */
    RetryPolicy<ProbeResult> retryPolicy() {
        var b = RetryPolicy.<ProbeResult>builder()
                .handleResultIf(r -> r == null || r.state() != ProbeState.READY)
                .abortIf(r -> r != null && !r.state().retryable())
                .withMaxRetries(-1)
                .withDelayFn(ctx -> {
                    Duration paced = paceByEstimate(ctx.getLastResult());
                    return paced == null ? USE_BACKOFF : paced; // failsafe: a negative delay means its own schedule
                });
        if (max.equals(initial)) {
            b.withDelay(initial); // a constant interval: failsafe's withBackoff needs initial < max
        } else {
            b.withBackoff(initial, max, factor);
        }
        if (jitter > 0) {
            b.withJitter(jitter);
        }
        return b.build();
    }

    /**
     * The pause before the next attempt on a target that estimated when it is ready, or null (no
     * estimate: the backoff applies). See the class comment.
     */
    static Duration paceByEstimate(ProbeResult last) {
        Duration readyIn = last == null ? null : last.expectedReadyIn();
        if (readyIn == null) {
            return null;
        }
        if (readyIn.compareTo(LEAD) <= 0) {
            return DENSE;
        }
        Duration toLead = readyIn.minus(LEAD);
        Duration half = readyIn.dividedBy(2);
        Duration pause = half.compareTo(LEAD) < 0 ? LEAD : half;
        pause = pause.compareTo(toLead) > 0 ? toLead : pause;
        return pause.compareTo(FAR_CAP) > 0 ? FAR_CAP : pause;
    }

    /**
     * The delays failsafe schedules after {@code n} consecutive results like {@code failing},
     * computed by a fresh failsafe {@link Execution} without sleeping (jitter included).
     * An empty slot (Duration.ZERO at the end) means failsafe completed (aborted).
     */
    public Duration[] delays(ProbeResult failing, int n) {
        Execution<ProbeResult> execution = Execution.of(retryPolicy());
        Duration[] out = new Duration[n];
        for (int i = 0; i < n; i++) {
            execution.recordResult(failing);
            out[i] = execution.isComplete() ? Duration.ZERO : execution.getDelay();
        }
        return out;
    }

    @Override
    public String toString() {
        return "backoff " + initial.toMillis() + "ms x" + factor + " capped at " + max.toMillis()
                + "ms, jitter " + Math.round(jitter * 100) + "%";
    }

    /** Builder; {@link #build()} validates and copies. */
    public static final class Builder {
        private Duration initial = Duration.ofMillis(10);
        private Duration max = Duration.ofMillis(60);
        private double factor = 2.0;
        private double jitter = 0.05;

        Builder() {}

        public Builder initial(Duration initial) {
            this.initial = Objects.requireNonNull(initial, "initial");
            return this;
        }

        public Builder max(Duration max) {
            this.max = Objects.requireNonNull(max, "max");
            return this;
        }

        public Builder factor(double factor) {
            this.factor = factor;
            return this;
        }

        /** 0 disables jitter; otherwise each delay varies by up to +/- this fraction. */
        public Builder jitter(double jitter) {
            this.jitter = jitter;
            return this;
        }

        public Backoff build() {
            if (initial.isNegative() || initial.isZero()) {
                throw new IllegalArgumentException("backoff initial delay must be > 0, got " + initial);
            }
            if (max.compareTo(initial) < 0) {
                throw new IllegalArgumentException("backoff max delay " + max + " is below the initial delay " + initial);
            }
            if (factor <= 1.0) {
                throw new IllegalArgumentException("backoff factor must be > 1, got " + factor);
            }
            if (jitter < 0 || jitter >= 1) {
                throw new IllegalArgumentException("backoff jitter must be in [0, 1), got " + jitter);
            }
            return new Backoff(this);
        }
    }
}
