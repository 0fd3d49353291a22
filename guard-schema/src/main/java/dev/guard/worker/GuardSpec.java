package dev.guard.worker;

import dev.guard.config.GuardSettings;
import dev.guard.config.SettingType;
import dev.guard.drain.CheckLevel;
import dev.guard.drain.DrainConfig;
import dev.guard.drain.DurabilityCheck;
import dev.guard.drain.TimeoutBudget;
import dev.guard.drain.kubernetes.DeletionCost;
import dev.guard.drain.kubernetes.PodApi;
import dev.guard.ready.ReadinessListener;
import dev.guard.schema.Schemas;
import java.io.File;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * What {@link Guard#boot(GuardSpec)} checks before a worker takes its first job. What the code
 * names here is added to what the deployment names in the same settings guard-init reads (the
 * {@code GUARD_CONFIG} file's {@code guard.require} and {@code guard.wait}, or
 * {@code GUARD_REQUIRE} / {@code GUARD_WAIT}), so one ConfigMap serves the initContainer and the
 * worker. Immutable; built with {@link #builder(String)}.
 *
 * <pre>{@code
 * GuardSpec spec = GuardSpec.builder("thumbnail-worker")
 *         .require("REDIS_URL", SettingType.URL)
 *         .waitForEnv("REDIS_URL")
 *         .schema("thumbnail", "schemas/thumbnail.schema.json")
 *         .build();
 * }</pre>
 */
public final class GuardSpec {

    /** How a trapped signal path ({@link dev.guard.drain.SignalPath}) is treated. */
    public enum SignalCheck {
        /** Stop the boot (exit 78): the default, since such a worker loses its in-flight jobs on every scale-down. */
        ERROR,
        /** Log the problem and its fix, and start. */
        WARN,
        /** Do not look. */
        OFF
    }

    /** Environment variable (or {@code guard.signal-check}) for {@link SignalCheck}: error, warn, off. */
    public static final String ENV_SIGNAL_CHECK = "GUARD_SIGNAL_CHECK";

    final String consumer;
    final List<GuardSettings.Requirement> required;
    final List<String> targets;
    final List<EnvTarget> envTargets;
    final String jobType;
    final Consumer<Schemas.Builder> schemas;
    final Map<String, String> environment;
    final File configFile;
    final Duration readyDeadline;
    final Duration attemptTimeout;
    final List<String> allowLoopback;
    final Integer healthPort;
    final SignalCheck signalCheck;
    final CheckLevel persistenceCheck;
    final CheckLevel timeoutCheck;
    final Duration longestJob;
    final Boolean deletionCost;
    final Duration deletionCostAfter;
    final Path serviceAccount;
    final DrainConfig drain;
    final boolean installSignalHandlers;
    final ReadinessListener listener;

    /** A target built from a variable's value when the guard boots: the URL plus a suffix such as {@code ?key=ready}. */
    record EnvTarget(String name, String suffix) {}

    private GuardSpec(Builder b) {
        this.consumer = b.consumer;
        this.required = List.copyOf(b.required);
        this.targets = List.copyOf(b.targets);
        this.envTargets = List.copyOf(b.envTargets);
        this.jobType = b.jobType;
        this.schemas = b.schemas;
        this.environment = b.environment == null ? null : Map.copyOf(b.environment);
        this.configFile = b.configFile;
        this.readyDeadline = b.readyDeadline;
        this.attemptTimeout = b.attemptTimeout;
        this.allowLoopback = b.allowLoopback;
        this.healthPort = b.healthPort;
        this.signalCheck = b.signalCheck;
        this.persistenceCheck = b.persistenceCheck;
        this.timeoutCheck = b.timeoutCheck;
        this.longestJob = b.longestJob;
        this.deletionCost = b.deletionCost;
        this.deletionCostAfter = b.deletionCostAfter;
        this.serviceAccount = b.serviceAccount;
        this.drain = b.drain;
        this.installSignalHandlers = b.installSignalHandlers;
        this.listener = b.listener;
    }

    /** A spec for the consumer named {@code consumer} (logs, dead letters, the receipt). */
    public static Builder builder(String consumer) {
        return new Builder(consumer);
    }

    public String consumer() {
        return consumer;
    }

    /** Mutable builder. */
    public static final class Builder {
        private final String consumer;
        private final List<GuardSettings.Requirement> required = new ArrayList<>();
        private final List<String> targets = new ArrayList<>();
        private final List<EnvTarget> envTargets = new ArrayList<>();
        private String jobType;
        private Consumer<Schemas.Builder> schemas;
        private Map<String, String> environment;
        private File configFile;
        private Duration readyDeadline;
        private Duration attemptTimeout;
        private List<String> allowLoopback;
        private Integer healthPort;
        private SignalCheck signalCheck;
        private CheckLevel persistenceCheck;
        private CheckLevel timeoutCheck;
        private Duration longestJob;
        private Boolean deletionCost;
        private Duration deletionCostAfter;
        private Path serviceAccount = PodApi.SERVICE_ACCOUNT;
        private DrainConfig drain;
        private boolean installSignalHandlers = true;
        private ReadinessListener listener;

        Builder(String consumer) {
            if (consumer == null || consumer.isBlank()) {
                throw new IllegalArgumentException("GuardSpec: the consumer needs a name (it is in every log line,"
                        + " dead letter and receipt)");
            }
            this.consumer = consumer;
        }

        /** This variable must be set and usable; its type is inferred from its name (REDIS_URL: a URL). */
        public Builder require(String name) {
            return require(name, null);
        }

        /** This variable must be set and parse as {@code type} (null: inferred). */
        public Builder require(String name, SettingType type) {
            required.add(new GuardSettings.Requirement(Objects.requireNonNull(name, "name"), type));
            return this;
        }

        /** Wait until this target serves (any URL {@code guard-init wait} takes: redis://, amqp://, nats://, kafka://, tcp://, http://). */
        public Builder waitFor(String targetUrl) {
            targets.add(Objects.requireNonNull(targetUrl, "targetUrl"));
            return this;
        }

        /** Wait until the URL in this (required) variable serves. */
        public Builder waitForEnv(String name) {
            return waitForEnv(name, "");
        }

        /**
         * Wait until the URL in this variable, followed by {@code suffix} (for example
         * {@code ?key=stack:ready}: Redis must also hold that key), serves. The variable is
         * required too.
         */
        public Builder waitForEnv(String name, String suffix) {
            envTargets.add(new EnvTarget(Objects.requireNonNull(name, "name"), Objects.requireNonNull(suffix, "suffix")));
            if (required.stream().noneMatch(r -> r.name().equals(name))) {
                require(name, SettingType.URL);
            }
            return this;
        }

        /** Every payload is of this job type, with its schema on the class path; self-tested at boot. */
        public Builder schema(String jobType, String classpathResource) {
            return schemas(jobType, b -> b.fromClasspath(jobType, classpathResource));
        }

        /**
         * Every payload is of this job type; {@code registry} registers its schema, references
         * and examples on the builder ({@link Schemas.Builder#example} payloads are validated at
         * boot).
         */
        public Builder schemas(String jobType, Consumer<Schemas.Builder> registry) {
            this.jobType = Objects.requireNonNull(jobType, "jobType");
            this.schemas = Objects.requireNonNull(registry, "registry");
            return this;
        }

        /** The environment to read (default: the process's). */
        public Builder environment(Map<String, String> environment) {
            this.environment = Objects.requireNonNull(environment, "environment");
            return this;
        }

        /** The settings file (default: {@code GUARD_CONFIG}, when set). */
        public Builder configFile(File file) {
            this.configFile = Objects.requireNonNull(file, "file");
            return this;
        }

        /** Overall readiness deadline (default: {@code GUARD_TIMEOUT}, {@code guard.timeout}, 60 s). */
        public Builder readyDeadline(Duration deadline) {
            this.readyDeadline = Objects.requireNonNull(deadline, "deadline");
            return this;
        }

        /** Bound of one readiness attempt (default: {@code GUARD_ATTEMPT_TIMEOUT}, {@code guard.attempt-timeout}, 2 s). */
        public Builder attemptTimeout(Duration timeout) {
            this.attemptTimeout = Objects.requireNonNull(timeout, "timeout");
            return this;
        }

        /**
         * Loopback is meant for every setting (a worker that only ever runs beside its brokers),
         * or for none. Default: {@code GUARD_ALLOW_LOOPBACK}, {@code guard.allow-loopback}, none.
         * {@link #allowLoopback(String...)} allows single settings.
         */
        public Builder allowLoopback(boolean allow) {
            this.allowLoopback = allow ? List.of("*") : List.of();
            return this;
        }

        /**
         * Loopback is meant for these settings: a sidecar in the same pod serves {@code REDIS_URL},
         * the worker runs with host networking, or Redis is published into a development
         * container. Without it guard refuses a loopback value where nothing answers and warns
         * about one where something does ({@code ConfigGuard.Builder#allowLoopback(String...)}).
         * Default: {@code GUARD_ALLOW_LOOPBACK=REDIS_URL}, {@code guard.allow-loopback = [REDIS_URL]}.
         */
        public Builder allowLoopback(String... names) {
            this.allowLoopback = List.of(names);
            return this;
        }

        /**
         * Serve /readyz and /livez on this port (0: a free one) for Kubernetes' probes
         * ({@link dev.guard.drain.HealthEndpoints}). Default: {@code GUARD_HEALTH_PORT},
         * {@code guard.health-port}, none.
         */
        public Builder healthPort(int port) {
            if (port < 0 || port > 65535) {
                throw new IllegalArgumentException("healthPort must be 0 to 65535, was " + port);
            }
            this.healthPort = port;
            return this;
        }

        /** What a trapped signal path does (default: {@value #ENV_SIGNAL_CHECK}, {@code guard.signal-check}, ERROR). */
        public Builder signalCheck(SignalCheck check) {
            this.signalCheck = Objects.requireNonNull(check, "check");
            return this;
        }

        /**
         * What a broker that would lose the source's jobs on a restart (a Redis with neither AOF nor
         * anything else on disk, a non-durable queue, JetStream memory storage) does to
         * {@link Guard#run}: ERROR stops it before the first job (exit 78), WARN logs and runs, OFF
         * does not ask. Default: {@value DurabilityCheck#ENV}, {@code guard.persistence-check}, ERROR.
         */
        public Builder persistenceCheck(CheckLevel level) {
            this.persistenceCheck = Objects.requireNonNull(level, "level");
            return this;
        }

        /**
         * The longest job this worker runs: {@link Guard#run} judges it against the drain's time
         * after SIGTERM and every clock of the source (AckWait, claim idle time, consumer timeout,
         * message age limits) before the first job ({@link TimeoutBudget}). Default:
         * {@value TimeoutBudget#ENV_LONGEST_JOB}, {@code guard.longest-job}; unset, the table is
         * logged and nothing judged.
         */
        public Builder longestJob(Duration longest) {
            if (longest.isNegative() || longest.isZero()) {
                throw new IllegalArgumentException("longestJob must be positive, was " + longest.toMillis() + " ms");
            }
            this.longestJob = longest;
            return this;
        }

        /**
         * What a violated timeout budget does to {@link Guard#run}: ERROR stops it before the first
         * job (exit 78), WARN logs and runs, OFF does not read the clocks. Default:
         * {@value TimeoutBudget#ENV}, {@code guard.timeout-check}, ERROR.
         */
        public Builder timeoutCheck(CheckLevel level) {
            this.timeoutCheck = Objects.requireNonNull(level, "level");
            return this;
        }

        /**
         * Keep this pod's {@value DeletionCost#ANNOTATION} current ({@link DeletionCost}): busy pods
         * high, idle ones low, so that a scale-down removes idle workers first. Needs the pod's
         * service account to have patch on pods; refused at boot (exit 77) when it has not. Default:
         * {@value DeletionCost#ENV}, {@code guard.deletion-cost}, off.
         */
        public Builder deletionCost(boolean on) {
            this.deletionCost = on;
            return this;
        }

        /**
         * How long a job runs before the pod counts as busy, and how long without a job before it
         * counts as idle again; also the shortest time between two writes. Default:
         * {@value DeletionCost#ENV_AFTER}, {@code guard.deletion-cost-after}, 5 s.
         */
        public Builder deletionCostAfter(Duration after) {
            if (after.isNegative() || after.isZero()) {
                throw new IllegalArgumentException("deletionCostAfter must be positive, was " + after.toMillis() + " ms");
            }
            this.deletionCostAfter = after;
            return this;
        }

        /** Where the pod's service account is mounted (default {@code /var/run/secrets/kubernetes.io/serviceaccount}). */
        public Builder serviceAccount(Path dir) {
            this.serviceAccount = Objects.requireNonNull(dir, "dir");
            return this;
        }

        /** The grace period and safety margin (default: {@link DrainConfig#fromEnv(Map)} on the spec's environment). */
        public Builder drain(DrainConfig config) {
            this.drain = Objects.requireNonNull(config, "config");
            return this;
        }

        /**
         * False runs the drain without SIGTERM/SIGINT handlers and shutdown hook (several guards
         * in one JVM, tests); stop it with {@code guard.drain().requestStop(why)}. Default true.
         */
        public Builder installSignalHandlers(boolean install) {
            this.installSignalHandlers = install;
            return this;
        }

        /** Also told of each state change of the readiness wait (which guard logs anyway); called from probe threads. */
        public Builder readinessListener(ReadinessListener listener) {
            this.listener = Objects.requireNonNull(listener, "listener");
            return this;
        }

        /** @throws IllegalStateException when no schema was given: the boundary validates every job against one */
        public GuardSpec build() {
            if (schemas == null) {
                throw new IllegalStateException("GuardSpec for '" + consumer + "': no schema; give the job type and its"
                        + " schema with schema(jobType, \"schemas/job.schema.json\") or schemas(jobType, builder -> ...)");
            }
            return new GuardSpec(this);
        }
    }
}
