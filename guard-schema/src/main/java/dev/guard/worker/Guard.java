package dev.guard.worker;

import dev.guard.GuardLog;
import dev.guard.ExitCodes;
import dev.guard.config.ConfigGuard;
import dev.guard.config.ConfigReport;
import dev.guard.config.GuardSettings;
import dev.guard.config.Redaction;
import dev.guard.drain.CheckLevel;
import dev.guard.drain.Drain;
import dev.guard.drain.CompletionStore;
import dev.guard.drain.DrainConfig;
import dev.guard.drain.DurabilityCheck;
import dev.guard.drain.HealthEndpoints;
import dev.guard.drain.JobHandler;
import dev.guard.drain.JobListener;
import dev.guard.drain.JobSource;
import dev.guard.drain.OnceHandler;
import dev.guard.drain.ShutdownReceipt;
import dev.guard.drain.SignalPath;
import dev.guard.drain.TimeoutBudget;
import dev.guard.drain.kubernetes.DeletionCost;
import dev.guard.ready.Probes;
import dev.guard.ready.ReadinessGate;
import dev.guard.ready.ReadinessReport;
import dev.guard.schema.Accepted;
import dev.guard.schema.SchemaSelfTestException;
import dev.guard.schema.Schemas;
import dev.guard.schema.boundary.BoundaryLoop;
import dev.guard.schema.boundary.JobBoundary;
import dev.guard.schema.boundary.Ledger;
import dev.guard.schema.SourceInfo;
import dev.guard.schema.deadletter.DeadLetterSink;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import org.slf4j.Logger;

/**
 * guard in a worker's {@code main}, in one call. {@link #boot(GuardSpec)} runs, in this order:
 *
 * <ol>
 *   <li>the <b>config guard</b> on the required variables (the spec's and {@code guard.require}):
 *       missing, placeholder, loopback, unparsable, drifted names; exit 78;</li>
 *   <li>the <b>signal path</b> ({@link SignalPath}): a shell as PID 1 never passes SIGTERM on, so
 *       the drain would never run; exit 78 unless {@code GUARD_SIGNAL_CHECK=warn};</li>
 *   <li>the <b>schema self-test</b>: every schema compiles and every example validates; exit 78;</li>
 *   <li>the <b>drain</b>: SIGTERM and SIGINT only request a stop from here on;</li>
 *   <li>the <b>readiness gate</b> on the targets (the spec's and {@code guard.wait}): each
 *       broker's own protocol, LOADING is not ready; exit 69 at the deadline, 77 on refused
 *       credentials, 78 on a bad URL, 143 when SIGTERM comes while waiting.</li>
 * </ol>
 *
 * Everything that waiting cannot fix is checked before the wait. Then {@link #run} takes jobs
 * through the boundary (schema check, dead letters, the ledger) until SIGTERM, finishing or
 * handing back what is in hand, and returns the exit code of the {@link ShutdownReceipt}:
 *
 * <pre>{@code
 * public static void main(String[] args) {
 *     Guard guard = Guard.boot(GuardSpec.builder("thumbnail-worker")
 *             .require("REDIS_URL", SettingType.URL).waitForEnv("REDIS_URL")
 *             .schema("thumbnail", "schemas/thumbnail.schema.json").build());
 *     RedisClient redis = RedisClient.create(guard.env("REDIS_URL"));
 *     int exit;
 *     try (CrashSafeListQueue jobs = CrashSafeListQueue.builder(redis, "jobs").build();
 *          RedisListDeadLetters dead = RedisListDeadLetters.connect(guard.env("REDIS_URL"), "jobs:dead")) {
 *         exit = guard.run(jobs, RedisJob::payload, dead, (job, drain) -> thumbnail(job.string("image"), job.integer("width")));
 *     }
 *     redis.shutdown();
 *     System.exit(exit);
 * }
 * }</pre>
 */
public final class Guard {

    private static final Logger LOG = GuardLog.logger("guard");

    static final Duration DEFAULT_READY_DEADLINE = Duration.ofSeconds(60);
    static final Duration DEFAULT_ATTEMPT_TIMEOUT = Duration.ofSeconds(2);

    private final GuardSpec spec;
    private final Map<String, String> env;
    private final Schemas schemas;
    private final Drain drain;
    private final ReadinessReport readiness;
    private final SignalPath signalPath;
    private final CheckLevel persistenceCheck;
    private final TimeoutBudget.Settings timeouts;
    private final String graceOrigin;
    private final Ledger ledger = new Ledger();
    private final HealthEndpoints health;
    /** Keeps the pod's deletion cost current when asked to; null otherwise. */
    private final DeletionCost deletionCost;

    private Guard(GuardSpec spec, Map<String, String> env, Schemas schemas, Drain drain, ReadinessReport readiness,
            SignalPath signalPath, CheckLevel persistenceCheck, TimeoutBudget.Settings timeouts,
            String graceOrigin, HealthEndpoints health, DeletionCost deletionCost) {
        this.health = health;
        this.deletionCost = deletionCost;
        this.timeouts = timeouts;
        this.graceOrigin = graceOrigin;
        this.spec = spec;
        this.env = env;
        this.schemas = schemas;
        this.drain = drain;
        this.readiness = readiness;
        this.signalPath = signalPath;
        this.persistenceCheck = persistenceCheck;
    }

    /**
     * {@link #start(GuardSpec)}, or, when the worker must not start, logs why and exits the JVM
     * with the code ({@link ExitCodes}). For {@code main}; it never returns normally otherwise.
     */
    public static Guard boot(GuardSpec spec) {
        try {
            return start(spec);
        } catch (GuardStopped stopped) {
            String line = "guard: " + spec.consumer() + " must not start (" + stopped.stage() + "), exit "
                    + stopped.exitCode() + ":\n" + stopped.getMessage();
            error(line);
            System.exit(stopped.exitCode());
            throw stopped; // not reached
        }
    }

    /**
     * Runs the checks and the wait; returns the booted guard.
     *
     * @throws GuardStopped with the exit code and the report when the worker must not start
     */
    public static Guard start(GuardSpec spec) {
        Objects.requireNonNull(spec, "spec");
        Map<String, String> env = spec.environment != null ? spec.environment : System.getenv();
        GuardSettings settings;
        try {
            settings = GuardSettings.load(env, spec.configFile);
        } catch (GuardSettings.BadSetting e) {
            throw new GuardStopped("config", e.exitCode(), e.getMessage(), e);
        }
        try {
            checkConfig(spec, env, settings);
        } catch (GuardSettings.BadSetting e) {
            throw new GuardStopped("config", e.exitCode(), e.getMessage(), e);
        }
        SignalPath path = checkSignals(spec, settings);
        CheckLevel persistence = persistenceLevel(spec, settings);
        TimeoutBudget.Settings timeouts = timeoutSettings(spec, settings);
        Schemas schemas = selfTest(spec);
        DrainConfig drainConfig;
        try {
            drainConfig = spec.drain != null ? spec.drain : DrainConfig.fromEnv(env);
        } catch (IllegalArgumentException e) {
            throw new GuardStopped("config", ExitCodes.CONFIG, e.getMessage(), e);
        }
        HealthEndpoints health = health(spec, settings);
        Drain drain = spec.installSignalHandlers ? Drain.install(drainConfig) : Drain.create(drainConfig);
        DeletionCost cost = null;
        try {
            ReadinessReport report = awaitReady(spec, env, settings, drain);
            cost = deletionCost(spec, env, settings);
            LOG.info("guard: {} booted: config ok, {}, schema '{}' self-tested, drain installed ({} ms to work after"
                    + " SIGTERM), {}", spec.consumer(), switch (path.kind()) {
                        case DELIVERED -> "SIGTERM reaches this JVM";
                        case FORWARDED -> "SIGTERM is forwarded to this JVM";
                        case NO_CONTAINER -> "SIGTERM path not checked (no container init among this JVM's parents)";
                        default -> "SIGTERM path " + path.kind().name().toLowerCase(Locale.ROOT).replace('_', ' ');
                    },
                    spec.jobType, drainConfig.budget().toMillis(),
                    report.results().isEmpty() ? "no dependency to wait for"
                            : report.results().size() + " dependencies ready after " + report.elapsed().toMillis() + " ms");
            return new Guard(spec, env, schemas, drain, report, path, persistence, timeouts, graceOrigin(spec, env),
                    health, cost);
        } catch (RuntimeException e) {
            if (cost != null) {
                cost.close();
            }
            drain.release();
            if (health != null) {
                health.close();
            }
            throw e;
        }
    }

    /**
     * The pod's deletion cost keeper when {@value DeletionCost#ENV} (or {@code guard.deletion-cost},
     * {@link GuardSpec.Builder#deletionCost}) turns it on; its first write proves the permission.
     */
    private static DeletionCost deletionCost(GuardSpec spec, Map<String, String> env, GuardSettings settings) {
        Duration after;
        try {
            boolean on;
            if (spec.deletionCost != null) {
                on = spec.deletionCost;
            } else {
                Optional<GuardSettings.Sourced<String>> raw = settings.string(null, null, DeletionCost.ENV, "deletion-cost");
                on = raw.isPresent() && DeletionCost.parseSwitch(raw.get().value(), raw.get().origin());
            }
            if (!on) {
                return null;
            }
            after = settings.duration(spec.deletionCostAfter, "GuardSpec.deletionCostAfter", DeletionCost.ENV_AFTER,
                    "deletion-cost-after", DeletionCost.DEFAULT_AFTER).value();
        } catch (GuardSettings.BadSetting e) {
            throw new GuardStopped("config", e.exitCode(), e.getMessage(), e);
        } catch (IllegalArgumentException e) {
            throw new GuardStopped("config", ExitCodes.CONFIG, e.getMessage(), e);
        }
        try {
            return DeletionCost.startInPod(env, spec.serviceAccount, after);
        } catch (DeletionCost.Refused e) {
            throw new GuardStopped("deletion cost", e.exitCode(), e.getMessage(), e);
        }
    }

    /** Default stall bound of /livez: above the longest job, or a busy worker is restarted. */
    static final Duration DEFAULT_LIVENESS_STALL = Duration.ofMinutes(10);

    /**
     * The probe endpoints, when {@code GUARD_HEALTH_PORT} (or {@code guard.health-port}, or
     * {@link GuardSpec.Builder#healthPort}) asks for them: /readyz 503 until {@link #run} takes
     * jobs and from SIGTERM on, /livez 503 after {@code GUARD_LIVENESS_STALL} (10 minutes) without a
     * turn of the loop.
     */
    private static HealthEndpoints health(GuardSpec spec, GuardSettings settings) {
        Integer port = spec.healthPort;
        Duration stall;
        try {
            if (port == null) {
                Optional<GuardSettings.Sourced<String>> raw = settings.string(null, null, ENV_HEALTH_PORT, "health-port");
                if (raw.isEmpty() || raw.get().value().isBlank()) {
                    return null;
                }
                try {
                    port = Integer.parseInt(raw.get().value().trim());
                } catch (NumberFormatException e) {
                    throw new GuardSettings.BadSetting(ExitCodes.CONFIG, "'" + raw.get().value().trim() + "' (from "
                            + raw.get().origin() + ") is not a port. Action: give a port number (0 picks a free one), or"
                            + " unset it for no health endpoints");
                }
            }
            stall = settings.duration(null, null, ENV_LIVENESS_STALL, "liveness-stall", DEFAULT_LIVENESS_STALL).value();
        } catch (GuardSettings.BadSetting e) {
            throw new GuardStopped("config", e.exitCode(), e.getMessage(), e);
        }
        HealthEndpoints h = HealthEndpoints.start(port, stall);
        LOG.info("guard: {} health endpoints on port {}: /readyz (200 while taking jobs), /livez (503 after {} s"
                + " without a turn of the loop)", spec.consumer(), h.port(), stall.toSeconds());
        return h;
    }

    /** Port of /readyz and /livez ({@link HealthEndpoints}); unset: none. */
    public static final String ENV_HEALTH_PORT = "GUARD_HEALTH_PORT";

    /** How long /livez waits without a turn of the loop before it says stalled (default 10 minutes). */
    public static final String ENV_LIVENESS_STALL = "GUARD_LIVENESS_STALL";

    /** The probe endpoints, when they were asked for. */
    public Optional<HealthEndpoints> health() {
        return Optional.ofNullable(health);
    }

    private static void checkConfig(GuardSpec spec, Map<String, String> env, GuardSettings settings) {
        ConfigGuard.Builder guard = ConfigGuard.builder().environment(env);
        Set<String> seen = new LinkedHashSet<>();
        for (GuardSettings.Requirement r : spec.required) {
            if (seen.add(r.name())) {
                r.addTo(guard);
            }
        }
        for (GuardSettings.Sourced<String> n : settings.list(null, null, GuardSettings.ENV_REQUIRE, "require",
                GuardSettings::splitNames)) {
            GuardSettings.Requirement r;
            try {
                r = GuardSettings.Requirement.parse(n.value());
            } catch (IllegalArgumentException e) {
                throw new GuardSettings.BadSetting(ExitCodes.CONFIG, "'" + n.value().trim() + "' (from " + n.origin() + ") "
                        + e.getMessage());
            }
            if (seen.add(r.name())) {
                r.addTo(guard);
            }
        }
        List<String> loopback = spec.allowLoopback != null ? spec.allowLoopback : settings.loopbackAllowed(null, null).value();
        ConfigReport report = guard.allowLoopback(loopback.toArray(String[]::new)).loopbackAllowance(LOOPBACK_ALLOWANCE)
                .build().check();
        if (!report.ok()) {
            throw new GuardStopped("config", ExitCodes.CONFIG, "the config guard stopped it before any connection ("
                    + report.errors().size() + (report.errors().size() == 1 ? " violation" : " violations") + "):\n"
                    + report.render(), null);
        }
        if (!report.warnings().isEmpty()) {
            LOG.warn("guard: {} config warnings:\n{}", spec.consumer(), report.render().stripTrailing());
        }
    }

    private static SignalPath checkSignals(GuardSpec spec, GuardSettings settings) {
        GuardSpec.SignalCheck check = spec.signalCheck;
        if (check == null) {
            Optional<GuardSettings.Sourced<String>> raw;
            try {
                raw = settings.string(null, null, GuardSpec.ENV_SIGNAL_CHECK, "signal-check");
            } catch (GuardSettings.BadSetting e) {
                throw new GuardStopped("config", e.exitCode(), e.getMessage(), e);
            }
            check = GuardSpec.SignalCheck.ERROR;
            if (raw.isPresent()) {
                try {
                    check = GuardSpec.SignalCheck.valueOf(raw.get().value().trim().toUpperCase(Locale.ROOT));
                } catch (IllegalArgumentException e) {
                    throw new GuardStopped("config", ExitCodes.CONFIG, GuardSpec.ENV_SIGNAL_CHECK + "='" + raw.get().value()
                            + "' (from " + raw.get().origin() + ") is not one of error, warn, off. Action: set it to error"
                            + " (the default), or warn to start a worker that SIGTERM cannot reach", e);
                }
            }
        }
        SignalPath path = SignalPath.inspect();
        if (check == GuardSpec.SignalCheck.OFF) {
            return path; // recorded, not judged
        }
        if (path.trap()) {
            if (check == GuardSpec.SignalCheck.ERROR) {
                throw new GuardStopped("signals", ExitCodes.CONFIG, path.describe(), null);
            }
            LOG.warn("guard: {}: {} (starting anyway: {}=warn)", spec.consumer(), path.describe(), GuardSpec.ENV_SIGNAL_CHECK);
        } else {
            LOG.debug("guard: {} signal path: {}", spec.consumer(), path.reason());
        }
        return path;
    }

    private static CheckLevel persistenceLevel(GuardSpec spec, GuardSettings settings) {
        if (spec.persistenceCheck != null) {
            return spec.persistenceCheck;
        }
        try {
            Optional<GuardSettings.Sourced<String>> raw = settings.string(null, null, DurabilityCheck.ENV, "persistence-check");
            return raw.isEmpty() ? CheckLevel.ERROR : DurabilityCheck.parseLevel(raw.get().value(), raw.get().origin());
        } catch (GuardSettings.BadSetting e) {
            throw new GuardStopped("config", e.exitCode(), e.getMessage(), e);
        } catch (IllegalArgumentException e) {
            throw new GuardStopped("config", ExitCodes.CONFIG, e.getMessage(), e);
        }
    }

    private static TimeoutBudget.Settings timeoutSettings(GuardSpec spec, GuardSettings settings) {
        try {
            CheckLevel level = spec.timeoutCheck;
            if (level == null) {
                Optional<GuardSettings.Sourced<String>> raw = settings.string(null, null, TimeoutBudget.ENV, "timeout-check");
                level = raw.isEmpty() ? CheckLevel.ERROR : TimeoutBudget.parseLevel(raw.get().value(), raw.get().origin());
            }
            GuardSettings.Sourced<Duration> longest = settings.duration(spec.longestJob, "GuardSpec.longestJob",
                    TimeoutBudget.ENV_LONGEST_JOB, "longest-job", null);
            return new TimeoutBudget.Settings(level, longest.value(), longest.origin());
        } catch (GuardSettings.BadSetting e) {
            throw new GuardStopped("config", e.exitCode(), e.getMessage(), e);
        } catch (IllegalArgumentException e) {
            throw new GuardStopped("config", ExitCodes.CONFIG, e.getMessage(), e);
        }
    }

    private static String graceOrigin(GuardSpec spec, Map<String, String> env) {
        if (spec.drain != null) {
            return "GuardSpec.drain";
        }
        String g = env.get(DrainConfig.ENV_GRACE_PERIOD);
        return g != null && !g.isBlank() ? "env " + DrainConfig.ENV_GRACE_PERIOD : "default";
    }

    private static Schemas selfTest(GuardSpec spec) {
        Schemas.Builder b = Schemas.builder();
        spec.schemas.accept(b);
        Schemas schemas;
        try {
            schemas = b.build();
        } catch (SchemaSelfTestException e) {
            throw new GuardStopped("schemas", ExitCodes.CONFIG, e.getMessage(), e);
        }
        if (schemas.schemaId(spec.jobType) == null) {
            throw new GuardStopped("schemas", ExitCodes.CONFIG, "job type '" + spec.jobType + "' has no schema (registered: "
                    + String.join(", ", schemas.jobTypes()) + "). Action: register its schema under that name", null);
        }
        return schemas;
    }

    private static ReadinessReport awaitReady(GuardSpec spec, Map<String, String> env, GuardSettings settings, Drain drain) {
        List<String> targets = targets(spec, env, settings);
        if (targets.isEmpty()) {
            return new ReadinessReport(ReadinessReport.Outcome.READY, List.of(), Duration.ZERO, Duration.ZERO);
        }
        Duration deadline;
        Duration attempt;
        try {
            deadline = spec.readyDeadline != null ? spec.readyDeadline : settings.duration(null, null,
                    GuardSettings.ENV_TIMEOUT, "timeout", DEFAULT_READY_DEADLINE).value();
            attempt = spec.attemptTimeout != null ? spec.attemptTimeout : settings.duration(null, null,
                    GuardSettings.ENV_ATTEMPT_TIMEOUT, "attempt-timeout", DEFAULT_ATTEMPT_TIMEOUT).value();
        } catch (GuardSettings.BadSetting e) {
            throw new GuardStopped("config", e.exitCode(), e.getMessage(), e);
        }
        LOG.info("guard: {} waits up to {} ms for {}", spec.consumer(), deadline.toMillis(),
                targets.stream().map(Redaction::maskSettingValue).toList());
        ReadinessGate.Builder b = ReadinessGate.builder().deadline(deadline).attemptTimeout(attempt)
                .listener((previous, current) -> {
                    LOG.info("guard: {}", current.stateLine());
                    if (spec.listener != null) {
                        spec.listener.onStateChange(previous, current);
                    }
                });
        targets.forEach(t -> b.probe(Probes.forUrl(t)));
        Thread booting = Thread.currentThread();
        Thread watcher = new Thread(() -> {
            try {
                if (drain.awaitStop(deadline.plus(attempt).plusSeconds(5))) {
                    booting.interrupt(); // SIGTERM while waiting: stop waiting, start nothing
                }
            } catch (InterruptedException e) {
                // the wait ended first
            }
        }, "guard-boot-stop-watch");
        watcher.setDaemon(true);
        ReadinessReport report;
        try (ReadinessGate gate = b.build()) {
            watcher.start();
            report = gate.await();
        } finally {
            watcher.interrupt();
        }
        if (report.outcome() == ReadinessReport.Outcome.INTERRUPTED) {
            Thread.interrupted(); // handled here: the exit code says it
            String why = drain.stopping() ? drain.receipt().reason() : "an interrupt";
            throw new GuardStopped("readiness", "SIGINT".equals(why) ? ExitCodes.INTERRUPTED : ExitCodes.TERMINATED,
                    "stopped by " + why + " after " + report.elapsed().toMillis() + " ms of waiting, before every"
                            + " dependency was ready; no job was taken\n" + report.render(), null);
        }
        if (!report.ready()) {
            throw new GuardStopped("readiness", report.exitCode(), report.render(), null);
        }
        return report;
    }

    /**
     * {@code url} followed by {@code suffix}, a query ({@code ?key=ready}) joining the URL's own with
     * {@code &} and going before a fragment ({@code redis-sentinel://s1,s2#mymaster}).
     */
    static String withSuffix(String url, String suffix) {
        if (suffix.isEmpty()) {
            return url;
        }
        int hash = url.indexOf('#');
        String fragment = hash < 0 ? "" : url.substring(hash);
        String base = hash < 0 ? url : url.substring(0, hash);
        String s = suffix.startsWith("?") && base.contains("?") ? "&" + suffix.substring(1) : suffix;
        return base + s + fragment;
    }

    private static List<String> targets(GuardSpec spec, Map<String, String> env, GuardSettings settings) {
        Set<String> out = new LinkedHashSet<>(spec.targets);
        for (GuardSpec.EnvTarget t : spec.envTargets) {
            out.add(withSuffix(env.get(t.name()).trim(), t.suffix())); // set: the config guard required it
        }
        try {
            settings.list(null, null, GuardSettings.ENV_WAIT, "wait", GuardSettings::splitTargets)
                    .forEach(t -> out.add(t.value().trim()));
        } catch (GuardSettings.BadSetting e) {
            throw new GuardStopped("config", e.exitCode(), e.getMessage(), e);
        }
        return new ArrayList<>(out);
    }

    /** The consumer's name. */
    public String consumer() {
        return spec.consumer();
    }

    /** The value of a variable from the environment the guard checked (required ones are set and usable). */
    public String env(String name) {
        String v = env.get(name);
        if (v == null) {
            throw new IllegalArgumentException(name + " is not set; require it in the GuardSpec so the guard checks it"
                    + " at boot");
        }
        return v.trim();
    }

    /** The environment the guard checked. */
    public Map<String, String> environment() {
        return env;
    }

    /** The self-tested schemas. */
    public Schemas schemas() {
        return schemas;
    }

    /** Every received job's one outcome. */
    public Ledger ledger() {
        return ledger;
    }

    /** The installed drain: {@code checkpoint()} between steps of a long job, {@code stopping()}. */
    public Drain drain() {
        return drain;
    }

    /** What the readiness gate found at boot. */
    public ReadinessReport readiness() {
        return readiness;
    }

    /** What the signal path check found at boot. */
    public SignalPath signalPath() {
        return signalPath;
    }

    /** The boundary for this consumer's job type, recording into {@link #ledger()} and dead-lettering to {@code sink}. */
    public JobBoundary<Accepted> boundary(DeadLetterSink sink) {
        return JobBoundary.builder().schemas(schemas).jobType(spec.jobType).deadLetters(sink).ledger(ledger)
                .consumer(spec.consumer()).build();
    }

    /** {@link #run(JobSource, Function, Function, DeadLetterSink, JobHandler)}, dead letters naming where the source says each job came from. */
    public <J> int run(JobSource<J> source, Function<J, String> payload, DeadLetterSink deadLetters,
            JobHandler<Accepted> work) {
        return run(source, payload, job -> SourceInfo.of(source.originOf(job)), deadLetters, work);
    }

    /**
     * Takes jobs from {@code source} until SIGTERM (or {@code drain().requestStop}): each
     * payload is checked by the boundary; accepted ones go to {@code work}, which may call
     * {@code drain.checkpoint()} between steps; rejected and failed ones are dead-lettered; each
     * is acked after its outcome. A job whose dead letter cannot be written, or that is past the
     * drain deadline, is handed back. Logs the ledger's summary and the receipt.
     *
     * <p>Before the first job it asks the source whether its broker keeps what it holds
     * ({@link JobSource#durability()}): a broker that would lose the jobs on a restart (a Redis
     * that keeps nothing on disk) stops the run with exit 78 and the report, unless
     * {@value DurabilityCheck#ENV} (or {@link GuardSpec.Builder#persistenceCheck}) says warn or off.
     *
     * @return the receipt's exit code: 0 after a clean drain, 70 when a job could not be handed
     *     back, 78 when the broker would lose the jobs on a restart (no job was taken)
     */
    public <J> int run(JobSource<J> source, Function<J, String> payload, Function<J, SourceInfo> where,
            DeadLetterSink deadLetters, JobHandler<Accepted> work) {
        if (refusedDurability(DurabilityCheck.refusal(source, persistenceCheck, spec.consumer(), ALLOW_LOSS))
                || refusedTimeouts(source)) {
            return ExitCodes.CONFIG;
        }
        watchHealth();
        return finish(BoundaryLoop.run(drain, boundary(deadLetters), source, payload, where, work, listener()));
    }

    /** {@link #run(JobSource, Function, Function, DeadLetterSink, CompletionStore, OnceHandler)}, dead letters naming where the source says each job came from. */
    public <J, W> int run(JobSource<J> source, Function<J, String> payload, DeadLetterSink deadLetters,
            CompletionStore<W> completions, OnceHandler<Accepted, W> work) {
        return run(source, payload, job -> SourceInfo.of(source.originOf(job)), deadLetters, completions, work);
    }

    /**
     * {@link #run(JobSource, Function, Function, DeadLetterSink, JobHandler)} with idempotent
     * completion ({@link dev.guard.drain.Once}): each accepted job is claimed in {@code completions}
     * by its id before {@code work} runs; {@code work} puts its results in the store's write buffer
     * (for {@code RedisCompletions}, Redis writes) instead of writing them itself, and the store
     * applies them with the job's completion record in one atomic step. A job whose completion is
     * on record is acked without running ({@code duplicate} in the ledger and the receipt); a job
     * another worker claimed while this one held it writes nothing and is left to that worker
     * ({@code superseded}). The store's own durability is checked as the source's is: one that
     * forgets its records on a restart stops the run with exit 78 unless the check says warn.
     */
    public <J, W> int run(JobSource<J> source, Function<J, String> payload, Function<J, SourceInfo> where,
            DeadLetterSink deadLetters, CompletionStore<W> completions, OnceHandler<Accepted, W> work) {
        if (refusedDurability(DurabilityCheck.refusal(source, persistenceCheck, spec.consumer(), ALLOW_LOSS))
                || refusedDurability(DurabilityCheck.refusal(completions, persistenceCheck, spec.consumer(), ALLOW_LOSS))
                || refusedTimeouts(source)) {
            return ExitCodes.CONFIG;
        }
        LOG.info("guard: {} records each job's completion in {}", spec.consumer(), completions.describe());
        watchHealth();
        return finish(BoundaryLoop.run(drain, boundary(deadLetters), source, payload, where, completions, work,
                listener()));
    }

    /** How a worker's main allows loopback, for the config guard's messages. */
    static final String LOOPBACK_ALLOWANCE = "GUARD_ALLOW_LOOPBACK={name} in the environment (or guard.allow-loopback ="
            + " [{name}] in the GUARD_CONFIG file, or GuardSpec.builder(...).allowLoopback(\"{name}\"); true allows every setting)";

    private static final String ALLOW_LOSS = DurabilityCheck.ENV
            + "=warn (or guard.persistence-check = warn in GUARD_CONFIG, GuardSpec.persistenceCheck(WARN))";

    private static final String ALLOW_TIMEOUTS = TimeoutBudget.ENV
            + "=warn (or guard.timeout-check = warn in GUARD_CONFIG, GuardSpec.timeoutCheck(WARN))";

    /** True (and logged, and the drain released) when the timeout budget refused the start. */
    private boolean refusedTimeouts(JobSource<?> source) {
        return refused("timeout budget", TimeoutBudget.refusal(source, timeouts, drain.config(), graceOrigin,
                spec.consumer(), ALLOW_TIMEOUTS));
    }

    /** True (and logged, and the drain released) when the durability check refused the start. */
    private boolean refusedDurability(Optional<String> refused) {
        return refused("durability", refused);
    }

    private boolean refused(String check, Optional<String> refused) {
        if (refused.isEmpty()) {
            return false;
        }
        error("guard: " + spec.consumer() + " must not take jobs (" + check + "), exit " + ExitCodes.CONFIG + ":\n"
                + refused.get());
        drain.release();
        return true;
    }

    /** Logs {@code line} at ERROR ({@link GuardLog} prints it on stderr where SLF4J has no provider). */
    private static void error(String line) {
        LOG.error("{}", line);
    }

    private void watchHealth() {
        if (health != null) {
            health.watch(drain);
        }
    }

    private JobListener listener() {
        return deletionCost != null ? deletionCost : JobListener.NONE;
    }

    private int finish(ShutdownReceipt receipt) {
        if (deletionCost != null) {
            deletionCost.close();
        }
        LOG.info("guard: {} ledger: {}", spec.consumer(), ledger.summaryLine());
        return receipt.exitCode();
    }
}
