package dev.guard.init.lint;

import dev.guard.config.Durations;
import dev.guard.drain.DrainConfig;
import dev.guard.drain.TimeoutBudget;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The drain's grace period against the one the platform gives: Compose's {@code stop_grace_period}
 * (10 s by default) or the pod's {@code terminationGracePeriodSeconds} (30 s by default). Checked
 * on containers whose environment speaks to guard ({@code GUARD_*}), since only guard's drain
 * plans by {@code GUARD_GRACE_PERIOD}; the longest job ({@code GUARD_LONGEST_JOB}, or the
 * {@code guard.dev/longest-job-seconds} annotation) against what the platform's grace leaves.
 */
final class Grace {

    private Grace() {}

    /** Compose's and Go's durations: {@code 1m30s}, {@code 90s}, {@code 500ms}; a bare number is seconds. */
    static Duration parse(String text) {
        String t = text.trim();
        if (t.matches("\\d+(\\.\\d+)?")) {
            return Durations.parse(t);
        }
        Matcher m = Pattern.compile("(\\d+(?:\\.\\d+)?)(ms|us|µs|ns|h|m|s)").matcher(t);
        long nanos = 0;
        int end = 0;
        while (m.find()) {
            if (m.start() != end) {
                throw new IllegalArgumentException("not a duration: " + text);
            }
            end = m.end();
            double v = Double.parseDouble(m.group(1));
            nanos += (long) (v * switch (m.group(2)) {
                case "h" -> 3_600_000_000_000L;
                case "m" -> 60_000_000_000L;
                case "s" -> 1_000_000_000L;
                case "ms" -> 1_000_000L;
                case "us", "µs" -> 1_000L;
                default -> 1L;
            });
        }
        if (end != t.length() || end == 0) {
            throw new IllegalArgumentException("not a duration: " + text);
        }
        return Duration.ofNanos(nanos);
    }

    /**
     * @param platform the grace the platform gives
     * @param platformName how the file names it ({@code stop_grace_period}, {@code terminationGracePeriodSeconds})
     * @param line where it is set, or the container's line when it is the default
     * @param longestAnnotation the longest job an annotation declares, or null
     */
    static void check(Container c, Duration platform, String platformName, int line, Duration longestAnnotation,
            List<Finding> out) {
        if (c.init || !(c.env.containsKey(DrainConfig.ENV_GRACE_PERIOD) || c.env.containsKey(DrainConfig.ENV_SAFETY_MARGIN)
                || c.env.containsKey(TimeoutBudget.ENV_LONGEST_JOB))) {
            return; // only a worker that sets the drain's settings is known to drain (guard-init's own steps do not)
        }
        Map<String, String> env = new HashMap<>();
        c.env.values().forEach(e -> {
            if (e.value() != null) {
                env.put(e.name(), e.value());
            }
        });
        DrainConfig drain;
        try {
            drain = DrainConfig.fromEnv(env);
        } catch (IllegalArgumentException e) {
            return; // the config guard says so at start, with the variable
        }
        String shownPlatform = platformName + " " + Durations.show(platform);
        if (drain.gracePeriod().compareTo(platform) > 0) {
            out.add(new Finding(c.file, lineOf(c, DrainConfig.ENV_GRACE_PERIOD, line), "grace-mismatch", Finding.Severity.ERROR,
                    c.where + ": guard's drain plans for a grace period of " + Durations.show(drain.gracePeriod())
                            + (env.containsKey(DrainConfig.ENV_GRACE_PERIOD) ? " (" + DrainConfig.ENV_GRACE_PERIOD + ")"
                            : " (its default: " + DrainConfig.ENV_GRACE_PERIOD + " is not set)") + ", the platform gives "
                            + shownPlatform,
                    "the drain lets the job in hand run until " + Durations.show(drain.budget()) + " after SIGTERM, but"
                            + " SIGKILL comes at " + Durations.show(platform) + ": the job dies mid-work before the drain"
                            + " hands it back, and the receipt is never written",
                    "set " + DrainConfig.ENV_GRACE_PERIOD + " to the platform's grace (" + ceilSeconds(platform) + "s), or raise "
                            + platformName));
        }
        Duration longest = longestAnnotation;
        String longestFrom = "the guard.dev/longest-job-seconds annotation";
        String declared = env.get(TimeoutBudget.ENV_LONGEST_JOB);
        if (declared != null) {
            try {
                longest = Durations.parse(declared);
                longestFrom = TimeoutBudget.ENV_LONGEST_JOB;
            } catch (IllegalArgumentException e) {
                // refused at start by the worker, with the variable
            }
        }
        Duration room = platform.minus(drain.safetyMargin());
        if (longest != null && longest.compareTo(room) > 0) {
            out.add(new Finding(c.file, lineOf(c, TimeoutBudget.ENV_LONGEST_JOB, line), "grace-shorter-than-job",
                    Finding.Severity.ERROR, c.where + ": the longest job (" + Durations.show(longest) + ", " + longestFrom
                    + ") does not fit in " + shownPlatform + " less the drain's safety margin ("
                    + Durations.show(drain.safetyMargin()) + ")",
                    "at every scale-down or rollout a job started just before SIGTERM is still running when the grace"
                            + " period ends: handed back at its next checkpoint and run again from the start, or SIGKILLed"
                            + " mid-work",
                    "raise " + platformName + " to at least " + ceilSeconds(longest.plus(drain.safetyMargin())) + " s (and "
                            + DrainConfig.ENV_GRACE_PERIOD + " with it)"));
        }
    }

    private static int lineOf(Container c, String env, int otherwise) {
        Container.Env e = c.env.get(env);
        return e == null ? otherwise : e.line();
    }

    private static long ceilSeconds(Duration d) {
        return (d.toMillis() + 999) / 1000;
    }
}
