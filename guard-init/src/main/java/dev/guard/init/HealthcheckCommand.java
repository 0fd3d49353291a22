package dev.guard.init;

import dev.guard.config.GuardSettings;
import dev.guard.ExitCodes;
import dev.guard.ready.ProbeResult;
import dev.guard.ready.Probes;
import dev.guard.ready.ReadinessGate;
import dev.guard.ready.ReadinessReport;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/** {@code guard-init healthcheck TARGET...}: one attempt per target; the Compose/Kubernetes exit convention. */
@Command(name = "healthcheck", mixinStandardHelpOptions = true, sortOptions = false,
        description = {
            "One attempt per TARGET, in parallel (same TARGET URLs as wait). Healthy only when every target answers its "
                    + "protocol's own health exchange: a Redis that answers -LOADING is NOT healthy.",
            "For a Compose healthcheck: test: [\"CMD\", \"java\", \"-jar\", \"/app/guard-init.jar\", \"healthcheck\", "
                    + "\"redis://localhost:6379\"]. Prints one line per target (stdout when healthy, stderr when not)."
        },
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {
            ExitCodes.OK + ":healthy: every target ready",
            ExitCodes.UNHEALTHY + ":not healthy (any state but ready, including a bad target URL)",
            ExitCodes.USAGE + ":usage error"
        })
final class HealthcheckCommand implements Callable<Integer> {

    @ParentCommand
    GuardInit root;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Parameters(paramLabel = "TARGET", arity = "0..*", description = "URLs to check (default: $GUARD_WAIT, guard.wait)")
    List<String> targets = new ArrayList<>();

    @Option(names = {"--attempt-timeout", "--timeout"}, paramLabel = "DURATION", converter = DurationConverter.class,
            description = "bound of the one attempt: seconds (2) or with a unit (default: $GUARD_ATTEMPT_TIMEOUT, guard.attempt-timeout, 2s)")
    Duration attemptTimeout;

    @Option(names = "--json", description = "print the JSON report on stdout")
    boolean json;

    @Mixin
    ProbeExtras extras;

    @Mixin
    ConfigFileOption config;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        // a bad setting ends the command through GuardInit's one path for them (for healthcheck: unhealthy, 1)
        GuardSettings settings = GuardSettings.load(root.env, config.file);
        List<GuardSettings.Sourced<String>> resolved = WaitCommand.targets(settings, targets, extras);
        GuardSettings.Sourced<Duration> attempt = settings.duration(attemptTimeout, "--attempt-timeout",
                GuardSettings.ENV_ATTEMPT_TIMEOUT, "attempt-timeout", WaitCommand.DEFAULT_ATTEMPT_TIMEOUT);
        if (resolved.isEmpty()) {
            err.println("guard-init healthcheck: no target to check. Action: give TARGET arguments (e.g. "
                    + "redis://localhost:6379), or set " + GuardSettings.ENV_WAIT);
            return ExitCodes.USAGE;
        }
        ReadinessGate.Builder b = ReadinessGate.builder().attemptTimeout(attempt.value());
        resolved.forEach(t -> b.probe(Probes.forUrl(t.value())));
        ReadinessReport report;
        try (ReadinessGate gate = b.build()) {
            report = gate.checkOnce();
        }
        if (json) {
            out.println(report.toJson());
        } else {
            PrintWriter w = report.ready() ? out : err;
            for (ProbeResult r : report.results()) {
                w.println((r.ready() ? "healthy   " : "UNHEALTHY ") + r.kind() + " " + r.target() + ": " + r.state().label()
                        + (r.detail().isEmpty() ? "" : " (" + r.detail() + ")")
                        + (r.ready() || r.cause().isEmpty() ? "" : "; found: " + r.cause())
                        + (r.ready() ? "" : "; do: " + r.state().action()));
            }
        }
        return report.ready() ? ExitCodes.OK : ExitCodes.UNHEALTHY;
    }
}
