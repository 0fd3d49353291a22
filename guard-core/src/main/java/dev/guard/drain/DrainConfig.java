package dev.guard.drain;

import dev.guard.config.Durations;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;

/**
 * How long a draining worker may keep working after SIGTERM: the grace period (match the pod's
 * {@code terminationGracePeriodSeconds}) minus a safety margin reserved for handing unfinished
 * jobs back and closing connections. Immutable; build with {@link #builder()} or read the
 * environment with {@link #fromEnv()}.
 */
public final class DrainConfig {

    /** Environment variable for the grace period: seconds ({@code 30}) or with a unit ({@code 1500ms}). */
    public static final String ENV_GRACE_PERIOD = "GUARD_GRACE_PERIOD";
    /** Environment variable for the safety margin: seconds ({@code 5}) or with a unit ({@code 200ms}). */
    public static final String ENV_SAFETY_MARGIN = "GUARD_SAFETY_MARGIN";
    /** Environment variable naming this worker in its receipt; defaults to HOSTNAME, then the pid. */
    public static final String ENV_WORKER_ID = "GUARD_WORKER_ID";

    public static final Duration DEFAULT_GRACE_PERIOD = Duration.ofSeconds(30);
    public static final Duration DEFAULT_SAFETY_MARGIN = Duration.ofSeconds(5);

    private final Duration gracePeriod;
    private final Duration safetyMargin;
    private final String workerId;

    DrainConfig(Builder b) {
        this.gracePeriod = b.gracePeriod;
        this.safetyMargin = b.safetyMargin;
        this.workerId = b.workerId;
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Reads {@value #ENV_GRACE_PERIOD}, {@value #ENV_SAFETY_MARGIN} and {@value #ENV_WORKER_ID} from the process environment. */
    public static DrainConfig fromEnv() {
        return fromEnv(System.getenv());
    }

    /**
     * Reads the settings from {@code env}; unset variables take the defaults (30 s, 5 s).
     *
     * @throws IllegalArgumentException naming the variable, the value found and the accepted forms
     */
    public static DrainConfig fromEnv(Map<String, String> env) {
        Builder b = builder();
        String grace = env.get(ENV_GRACE_PERIOD);
        if (grace != null && !grace.isBlank()) {
            b.gracePeriod(parseDuration(ENV_GRACE_PERIOD, grace));
        }
        String safety = env.get(ENV_SAFETY_MARGIN);
        if (safety != null && !safety.isBlank()) {
            b.safetyMargin(parseDuration(ENV_SAFETY_MARGIN, safety));
        }
        String id = env.get(ENV_WORKER_ID);
        if (id == null || id.isBlank()) {
            id = env.get("HOSTNAME");
        }
        if (id != null && !id.isBlank()) {
            b.workerId(id);
        }
        return b.build(" (from the environment: " + ENV_GRACE_PERIOD + ", " + ENV_SAFETY_MARGIN + ")");
    }

    /** {@link Durations#parse}: plain numbers are seconds, like {@code terminationGracePeriodSeconds}; units as usual (ms, s, m). */
    static Duration parseDuration(String name, String raw) {
        try {
            return Durations.parse(raw);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(name + " (from the environment): " + e.getMessage()
                    + "; the grace period should match the pod's terminationGracePeriodSeconds.", e);
        }
    }

    public Duration gracePeriod() {
        return gracePeriod;
    }

    public Duration safetyMargin() {
        return safetyMargin;
    }

    /** Time a worker may keep working after the stop signal: grace period minus safety margin. */
    public Duration budget() {
        return gracePeriod.minus(safetyMargin);
    }

    public String workerId() {
        return workerId;
    }

    @Override
    public String toString() {
        return "DrainConfig{gracePeriod=" + gracePeriod.toMillis() + "ms, safetyMargin=" + safetyMargin.toMillis()
                + "ms, workerId=" + workerId + "}";
    }

    /** Mutable builder; {@link #build()} checks and copies. */
    public static final class Builder {
        private Duration gracePeriod = DEFAULT_GRACE_PERIOD;
        private Duration safetyMargin = DEFAULT_SAFETY_MARGIN;
        private String workerId = "pid-" + ProcessHandle.current().pid();

        Builder() {}

        public Builder gracePeriod(Duration gracePeriod) {
            this.gracePeriod = Objects.requireNonNull(gracePeriod, "gracePeriod");
            return this;
        }

        public Builder safetyMargin(Duration safetyMargin) {
            this.safetyMargin = Objects.requireNonNull(safetyMargin, "safetyMargin");
            return this;
        }

        public Builder workerId(String workerId) {
            this.workerId = Objects.requireNonNull(workerId, "workerId");
            return this;
        }

        public DrainConfig build() {
            return build("");
        }

        DrainConfig build(String origin) {
            if (gracePeriod.isNegative() || gracePeriod.isZero()) {
                throw new IllegalArgumentException("grace period " + gracePeriod.toMillis() + " ms" + origin
                        + " must be positive; set it to the pod's terminationGracePeriodSeconds.");
            }
            if (safetyMargin.isNegative() || safetyMargin.compareTo(gracePeriod) >= 0) {
                throw new IllegalArgumentException("safety margin " + safetyMargin.toMillis() + " ms" + origin
                        + " must be at least 0 and shorter than the grace period " + gracePeriod.toMillis()
                        + " ms, or no time is left to work after SIGTERM; lower the margin or raise the grace period.");
            }
            return new DrainConfig(this);
        }
    }
}
