package dev.guard.init;

import dev.guard.config.GuardSettings;
import dev.guard.ExitCodes;
import dev.guard.config.Redaction;
import dev.guard.ready.Probes;
import dev.guard.ready.ReadinessGate;
import dev.guard.ready.ReadinessReport;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/** {@code guard-init wait TARGET...}: waits, in parallel and under one deadline, until every target serves. */
@Command(name = "wait", mixinStandardHelpOptions = true, sortOptions = false,
        description = {
            "Waits until every TARGET serves (its own protocol's health exchange, not just an open port), in parallel, "
                    + "under one deadline. Stops at once on what waiting cannot fix (wrong password, TLS, bad URL).",
            "TARGET: redis://[user:pass@]host[:port][/db][?key=K], rediss://..., "
                    + "redis-sentinel://[user:pass@]host:26379[,host:26379][/db][?key=K]#master (rediss-sentinel://...), "
                    + "redis://host:port[,host:port]?cluster=true[&key=K] (a Redis Cluster), amqp(s)://[user:pass@]host[:port][/vhost]"
                    + "[?queues=a,b&exchanges=x], nats://[user:pass@]host[:port][?stream=S] (or token@host), tls://..., "
                    + "kafka://host:port[,host:port][?topics=a,b&brokers=N], tcp://host:port, http(s)://...",
            "Targets also come from $GUARD_WAIT (separated by spaces, or commas before a scheme://) or guard.wait in "
                    + "the --config file; the timeout from $GUARD_TIMEOUT / guard.timeout.",
            "Output: one line per state change of a target, then a summary that says for each failure what was found "
                    + "and what to do (stderr when not ready). --json prints one JSON report instead. Passwords are masked."
        },
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {
            ExitCodes.OK + ":every target ready",
            ExitCodes.USAGE + ":usage error (no target, bad flag)",
            ExitCodes.UNAVAILABLE + ":not ready by the deadline",
            ExitCodes.NO_PERMISSION + ":authentication refused (waiting cannot fix it)",
            ExitCodes.CONFIG + ":bad target URL, TLS failure, Sentinel or Cluster announcing a loopback address, or bad GUARD_*/config setting",
            ExitCodes.TERMINATED + ":stopped by SIGTERM while waiting (" + ExitCodes.INTERRUPTED + ": SIGINT)"
        })
final class WaitCommand implements Callable<Integer> {

    static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(60);
    static final Duration DEFAULT_ATTEMPT_TIMEOUT = Duration.ofSeconds(2);

    @ParentCommand
    GuardInit root;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Parameters(paramLabel = "TARGET", arity = "0..*", description = "URLs to wait for (default: $GUARD_WAIT, guard.wait)")
    List<String> targets = new ArrayList<>();

    @Option(names = "--timeout", paramLabel = "DURATION", converter = DurationConverter.class,
            description = "overall deadline: seconds (60) or with a unit (500ms, 2m) (default: $GUARD_TIMEOUT, guard.timeout, 60s)")
    Duration timeout;

    @Option(names = "--attempt-timeout", paramLabel = "DURATION", converter = DurationConverter.class,
            description = "bound of one attempt: seconds (2) or with a unit (default: $GUARD_ATTEMPT_TIMEOUT, guard.attempt-timeout, 2s)")
    Duration attemptTimeout;

    @Option(names = "--json", description = "print one machine-readable JSON report on stdout instead of lines")
    boolean json;

    @Mixin
    ProbeExtras extras;

    @Mixin
    ConfigFileOption config;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        // a bad setting ends the command through GuardInit's one path for them
        GuardSettings settings = GuardSettings.load(root.env, config.file);
        List<GuardSettings.Sourced<String>> resolved = targets(settings, targets, extras);
        GuardSettings.Sourced<Duration> deadline =
                settings.duration(timeout, "--timeout", GuardSettings.ENV_TIMEOUT, "timeout", DEFAULT_TIMEOUT);
        GuardSettings.Sourced<Duration> attempt = settings.duration(attemptTimeout, "--attempt-timeout",
                GuardSettings.ENV_ATTEMPT_TIMEOUT, "attempt-timeout", DEFAULT_ATTEMPT_TIMEOUT);
        if (deadline.value().isZero() || attempt.value().isZero()) {
            throw new GuardSettings.BadSetting(ExitCodes.CONFIG, "the timeout (from " + deadline.origin()
                    + ") and attempt timeout (from " + attempt.origin() + ") must be more than zero");
        }
        if (resolved.isEmpty()) {
            err.println("guard-init wait: no target to wait for. Action: give TARGET arguments (e.g. redis://redis:6379), "
                    + "or set " + GuardSettings.ENV_WAIT + ", or guard.wait in the --config file");
            err.println(spec.commandLine().getUsageMessage());
            return ExitCodes.USAGE;
        }
        if (!json) {
            out.println("guard-init wait: " + resolved.size() + (resolved.size() == 1 ? " target" : " targets")
                    + " (from " + resolved.get(0).origin() + "), deadline " + seconds(deadline.value()) + " (from "
                    + deadline.origin() + "), attempt timeout " + seconds(attempt.value()) + ": "
                    + resolved.stream().map(t -> Redaction.maskSettingValue(t.value())).collect(Collectors.joining(" ")));
            out.flush();
        }
        ReadinessGate.Builder b = ReadinessGate.builder()
                .deadline(deadline.value())
                .attemptTimeout(attempt.value());
        resolved.forEach(t -> b.probe(Probes.forUrl(t.value())));
        if (!json) {
            b.listener((previous, current) -> {
                synchronized (out) {
                    out.println("  " + current.stateLine());
                    out.flush();
                }
            });
        }
        ReadinessReport report;
        try (ReadinessGate gate = b.build()) {
            report = gate.await();
        }
        int code = exitCode(report);
        if (json) {
            out.println(report.toJson(settings(resolved.get(0).origin(), deadline, attempt)));
        } else if (report.outcome() == ReadinessReport.Outcome.INTERRUPTED) {
            String signal = GuardInit.STOPPED_BY.get();
            err.println("guard-init wait: " + (signal == null ? "interrupted" : "stopped by " + signal) + " after "
                    + seconds(report.elapsed()) + ", before every target was ready; not waiting any longer");
            err.print(report.render());
        } else if (report.ready()) {
            out.print(report.render());
        } else {
            err.print(report.render());
        }
        out.flush();
        err.flush();
        if (report.outcome() == ReadinessReport.Outcome.INTERRUPTED) {
            Thread.interrupted(); // handled: the exit code says it
        }
        return code;
    }

    /** Targets from the arguments, else GUARD_WAIT, else guard.wait; the extras flags applied to each. */
    static List<GuardSettings.Sourced<String>> targets(GuardSettings settings, List<String> args, ProbeExtras extras) {
        List<GuardSettings.Sourced<String>> out = new ArrayList<>();
        for (GuardSettings.Sourced<String> t : settings.list(args, "arguments", GuardSettings.ENV_WAIT, "wait", GuardSettings::splitTargets)) {
            out.add(new GuardSettings.Sourced<>(extras.apply(t.value().trim()), t.origin()));
        }
        return out;
    }

    /** {@link ReadinessReport#exitCode()}; for an interrupted wait 143 or 130 by the signal that stopped it. */
    static int exitCode(ReadinessReport report) {
        return report.outcome() == ReadinessReport.Outcome.INTERRUPTED ? Signals.exitCode(GuardInit.STOPPED_BY.get())
                : report.exitCode();
    }

    /** Where the wait's settings came from, for {@code --json}: {@code "settings": {"deadlineFrom": "env GUARD_TIMEOUT", ...}}. */
    private static Map<String, Object> settings(String targetsFrom, GuardSettings.Sourced<Duration> deadline,
            GuardSettings.Sourced<Duration> attempt) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("targetsFrom", targetsFrom);
        m.put("deadlineMs", deadline.value().toMillis());
        m.put("deadlineFrom", deadline.origin());
        m.put("attemptTimeoutMs", attempt.value().toMillis());
        m.put("attemptTimeoutFrom", attempt.origin());
        return m;
    }

    static String seconds(Duration d) {
        long ms = d.toMillis();
        return ms % 1000 == 0 ? (ms / 1000) + "s" : String.format(Locale.ROOT, "%.1fs", ms / 1000.0);
    }
}
