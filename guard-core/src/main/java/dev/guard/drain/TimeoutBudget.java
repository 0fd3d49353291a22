package dev.guard.drain;

import dev.guard.GuardLog;
import dev.guard.config.Durations;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import org.slf4j.Logger;

/**
 * The timeout budget: the declared longest job against the drain's grace period and every clock
 * of the source ({@link JobSource#clocks()}), checked before the first job. A job longer than its
 * source's AckWait, claim idle time or consumer timeout is taken from a worker that still runs
 * it (run twice, or the channel closed under it); longer than the drain's time after SIGTERM, it
 * is handed back or SIGKILLed mid-work at every scale-down; one interrupted after the broker's
 * message age limit is deleted and never delivered again. Users of every queue library report
 * these as "jobs run twice" and "jobs vanish"; here each is a line with the numbers and the fix.
 *
 * <p>The longest job is declared ({@value #ENV_LONGEST_JOB}, {@code guard.longest-job},
 * {@code GuardSpec.longestJob}); without it the table is logged and nothing is judged. The
 * {@link CheckLevel} ({@value #ENV}) makes a violation stop the start (the default), a warning, or
 * skips the check. A clock whose value is a broker's documented default rather than read
 * ({@link JobClock#assumed()}) gives a warning at most.
 */
public final class TimeoutBudget {

    private static final Logger LOG = GuardLog.logger("guard");

    /** Environment variable (and {@code guard.timeout-check}) for the {@link CheckLevel}: error, warn, off. */
    public static final String ENV = "GUARD_TIMEOUT_CHECK";

    /** Environment variable (and {@code guard.longest-job}) for the longest job a worker runs. */
    public static final String ENV_LONGEST_JOB = "GUARD_LONGEST_JOB";

    /**
     * The {@link CheckLevel} in {@code value}: {@code error}, {@code warn} or {@code off}, any case.
     * Off neither reads the clocks nor judges them.
     *
     * @throws IllegalArgumentException naming {@code origin} and the values allowed
     */
    public static CheckLevel parseLevel(String value, String origin) {
        return CheckLevel.parse(value, origin, ENV, "a worker whose longest job outlasts one of its clocks");
    }

    /**
     * The check's settings.
     *
     * @param level what a violation does
     * @param longestJob the longest job the worker runs; null when not declared
     * @param longestOrigin where it was declared ({@code env GUARD_LONGEST_JOB})
     */
    public record Settings(CheckLevel level, Duration longestJob, String longestOrigin) {
        /** Error level, no longest job declared. */
        public static final Settings DEFAULT = new Settings(CheckLevel.ERROR, null, "not declared");

        public Settings {
            Objects.requireNonNull(level, "level");
            if (longestJob != null && (longestJob.isNegative() || longestJob.isZero())) {
                throw new IllegalArgumentException(ENV_LONGEST_JOB + " must be positive, was " + longestJob.toMillis()
                        + " ms (from " + longestOrigin + ")");
            }
            longestOrigin = longestOrigin == null ? "not declared" : longestOrigin;
        }
    }

    /**
     * One line of the table.
     *
     * @param clock the clock's name
     * @param value its value
     * @param origin where the value came from
     * @param verdict what the longest job meets there ({@code ok: ...}, {@code VIOLATED: ...}, or a note)
     */
    public record Row(String clock, Duration value, String origin, String verdict) {}

    /**
     * One mismatch.
     *
     * @param clock the clock that the longest job outlasts
     * @param refusing whether it stops the start at {@link CheckLevel#ERROR} (false for an assumed value)
     * @param text the numbers, what goes wrong at run time, and the fix
     */
    public record Violation(String clock, boolean refusing, String text) {}

    private final String source;
    private final Settings settings;
    private final List<Row> rows;
    private final List<Violation> violations;

    private TimeoutBudget(String source, Settings settings, List<Row> rows, List<Violation> violations) {
        this.source = source;
        this.settings = settings;
        this.rows = List.copyOf(rows);
        this.violations = List.copyOf(violations);
    }

    /**
     * Judges {@code clocks} of {@code source} and the drain against the declared longest job.
     *
     * @param graceOrigin where the grace period came from ({@code env GUARD_GRACE_PERIOD}, {@code default})
     */
    public static TimeoutBudget evaluate(String source, Settings settings, DrainConfig drain, String graceOrigin,
            List<JobClock> clocks) {
        Objects.requireNonNull(settings, "settings");
        Objects.requireNonNull(drain, "drain");
        Duration longest = settings.longestJob();
        List<Row> rows = new ArrayList<>();
        List<Violation> violations = new ArrayList<>();
        Duration pickup = clocks.stream().filter(c -> c.effect() == JobClock.Effect.PICKUP)
                .map(JobClock::value).max(Duration::compareTo).orElse(Duration.ZERO);

        Duration budget = drain.budget();
        String drainFrom = "grace period " + Durations.show(drain.gracePeriod()) + " (" + graceOrigin + ") - safety margin "
                + Durations.show(drain.safetyMargin());
        if (longest == null) {
            rows.add(new Row("work after SIGTERM", budget, drainFrom, "not judged: no longest job declared"));
        } else if (longest.compareTo(budget) > 0) {
            Duration needed = longest.plus(drain.safetyMargin());
            rows.add(new Row("work after SIGTERM", budget, drainFrom, "VIOLATED: the longest job needs " + Durations.show(longest)));
            violations.add(new Violation("work after SIGTERM", true, "the longest job (" + Durations.show(longest) + ", "
                    + settings.longestOrigin() + ") outlasts the drain's time after SIGTERM (" + Durations.show(budget) + ": "
                    + drainFrom + "). At every scale-down or rollout, a job started just before SIGTERM is still running at"
                    + " the deadline: it is handed back at its next drain.checkpoint() and run again from the start"
                    + " elsewhere, or, if it never checks, SIGKILLed mid-work when the grace period ends and run again"
                    + " after the broker's pickup. Action: set the pod's terminationGracePeriodSeconds and "
                    + DrainConfig.ENV_GRACE_PERIOD + " to at least " + ceilSeconds(needed) + " s (the longest job plus the"
                    + " safety margin), or split the job"));
        } else {
            rows.add(new Row("work after SIGTERM", budget, drainFrom, "ok: " + Durations.show(budget.minus(longest)) + " to spare"));
        }

        for (JobClock c : clocks) {
            rows.add(judge(c, longest, pickup, violations));
        }
        return new TimeoutBudget(source, settings, rows, violations);
    }

    private static Row judge(JobClock c, Duration longest, Duration pickup, List<Violation> violations) {
        String from = c.origin() + (c.assumed() ? ", assumed: not readable here" : "");
        switch (c.effect()) {
            case RENEWED -> {
                return new Row(c.name(), c.value(), from, "renewed every " + Durations.show(c.renewEvery())
                        + " while a job runs: no limit on a live worker (a pause of the JVM over "
                        + Durations.show(c.value().minus(c.renewEvery())) + " would lose it)");
            }
            case PICKUP -> {
                return new Row(c.name(), c.value(), from, "a killed worker's job waits this long for another worker");
            }
            case LIMITS_RUN -> {
                if (longest == null) {
                    return new Row(c.name(), c.value(), from, "not judged: a job longer than this " + c.consequence());
                }
                if (longest.compareTo(c.value()) < 0) {
                    return new Row(c.name(), c.value(), from, "ok: " + Durations.show(c.value().minus(longest)) + " to spare");
                }
                violations.add(new Violation(c.name(), !c.assumed(), "the longest job (" + Durations.show(longest)
                        + ") outlasts " + c.name() + " (" + Durations.show(c.value()) + ", " + from + "): a job longer"
                        + " than this " + c.consequence() + ". Action: " + c.fix()));
                return new Row(c.name(), c.value(), from, "VIOLATED: the longest job needs " + Durations.show(longest));
            }
            case LIMITS_AGE -> {
                if (longest == null) {
                    return new Row(c.name(), c.value(), from, "not judged: a job interrupted after this age " + c.consequence());
                }
                Duration age = longest.plus(pickup);
                if (age.compareTo(c.value()) < 0) {
                    return new Row(c.name(), c.value(), from, "ok: a job interrupted at its end is delivered again at "
                            + Durations.show(age) + " of age, plus its time waiting in the queue");
                }
                violations.add(new Violation(c.name(), !c.assumed(), "a job interrupted near its end (the longest job "
                        + Durations.show(longest) + ", plus " + Durations.show(pickup) + " before a killed worker's job is"
                        + " delivered again) is " + Durations.show(age) + " old, past " + c.name() + " ("
                        + Durations.show(c.value()) + ", " + from + "), before counting its time waiting in the queue: it "
                        + c.consequence() + ". Action: " + c.fix()));
                return new Row(c.name(), c.value(), from, "VIOLATED: a job interrupted at its end is "
                        + Durations.show(age) + " old");
            }
            default -> throw new IllegalStateException(c.effect().name());
        }
    }

    private static long ceilSeconds(Duration d) {
        return (d.toMillis() + 999) / 1000;
    }

    /** Every clock with its verdict, the drain's first. */
    public List<Row> rows() {
        return rows;
    }

    /** The mismatches, each with its fix. */
    public List<Violation> violations() {
        return violations;
    }

    /** Whether a violation stops the start at {@link CheckLevel#ERROR}. */
    public boolean refusing() {
        return violations.stream().anyMatch(Violation::refusing);
    }

    /** The table and the violations, for the boot log. */
    public String render() {
        StringBuilder b = new StringBuilder();
        b.append("timeout budget of ").append(source).append(" (longest job ")
                .append(settings.longestJob() == null ? "not declared: set " + ENV_LONGEST_JOB + " to have it judged"
                        : Durations.show(settings.longestJob()) + ", from " + settings.longestOrigin())
                .append("):\n");
        int w0 = "clock".length();
        int w1 = "value".length();
        int w2 = "from".length();
        for (Row r : rows) {
            w0 = Math.max(w0, r.clock().length());
            w1 = Math.max(w1, Durations.show(r.value()).length());
            w2 = Math.max(w2, r.origin().length());
        }
        String fmt = "  %-" + w0 + "s  %-" + w1 + "s  %-" + w2 + "s  %s%n";
        b.append(String.format(Locale.ROOT, fmt, "clock", "value", "from", "verdict"));
        for (Row r : rows) {
            b.append(String.format(Locale.ROOT, fmt, r.clock(), Durations.show(r.value()), r.origin(), r.verdict()));
        }
        for (int i = 0; i < violations.size(); i++) {
            Violation v = violations.get(i);
            b.append("  violation ").append(i + 1).append(v.refusing() ? "" : " (warning: the value is assumed)")
                    .append(": ").append(v.text()).append('\n');
        }
        return b.toString().stripTrailing();
    }

    /**
     * Reads {@code source}'s clocks and judges them: the table at INFO, violations at WARN.
     *
     * @param allow how to start anyway, in the caller's words ({@code GUARD_TIMEOUT_CHECK=warn})
     * @return the report to stop with, when a violation refuses the start at {@link CheckLevel#ERROR}
     */
    public static Optional<String> refusal(JobSource<?> source, Settings settings, DrainConfig drain, String graceOrigin,
            String consumer, String allow) {
        Objects.requireNonNull(source, "source");
        if (settings.level() == CheckLevel.OFF) {
            return Optional.empty();
        }
        List<JobClock> clocks;
        try {
            clocks = source.clocks();
        } catch (RuntimeException e) {
            LOG.warn("guard: {} timeout budget: the clocks of {} could not be read ({}); only the grace period is judged",
                    consumer, source.getClass().getSimpleName(), e.toString());
            clocks = List.of();
        }
        TimeoutBudget budget = evaluate(consumer + " on " + source.getClass().getSimpleName(), settings, drain, graceOrigin,
                clocks);
        if (budget.violations().isEmpty()) {
            LOG.info("guard: {}", budget.render());
            return Optional.empty();
        }
        if (settings.level() == CheckLevel.ERROR && budget.refusing()) {
            return Optional.of(budget.render() + "\n  to start anyway: " + allow);
        }
        LOG.warn("guard: {}{}", budget.render(), settings.level() == CheckLevel.WARN ? "\n  (starting anyway, " + ENV + "=warn)" : "");
        return Optional.empty();
    }
}
