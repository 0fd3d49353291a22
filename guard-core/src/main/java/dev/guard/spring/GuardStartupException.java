package dev.guard.spring;

import dev.guard.ExitCodes;
import dev.guard.config.ConfigReport;
import dev.guard.config.Setting;
import dev.guard.config.Violation;
import dev.guard.ready.ProbeResult;
import dev.guard.ready.ReadinessReport;
import java.util.LinkedHashSet;
import java.util.Set;
import org.springframework.boot.ExitCodeGenerator;

/**
 * Why guard stopped a Spring Boot application from starting: its settings failed the config
 * check (exit 78), or a broker was not ready by the deadline (69; 77 for rejected credentials).
 * {@link GuardFailureAnalyzer} prints {@link #description()} and {@link #action()} in Spring Boot's
 * "APPLICATION FAILED TO START" report; every text is already redacted.
 */
public final class GuardStartupException extends RuntimeException implements ExitCodeGenerator {

    private final String description;
    private final String action;
    private final int exitCode;

    private GuardStartupException(String summary, String description, String action, int exitCode) {
        super(summary);
        this.description = description;
        this.action = action;
        this.exitCode = exitCode;
    }

    /** The config check's errors, each with its origin and what was found, then every setting checked. */
    static GuardStartupException config(ConfigReport report) {
        StringBuilder d = new StringBuilder();
        int n = report.errors().size();
        d.append("guard checked this application's settings before Spring created any bean, and found ")
                .append(n).append(n == 1 ? " error" : " errors").append(report.inContainer() ? " (in a container)" : "")
                .append(":\n");
        for (Violation v : report.errors()) {
            d.append("\n  ").append(v.rule()).append(' ').append(v.setting()).append(": ").append(v.problem()).append('\n')
                    .append("      origin: ").append(v.origin()).append('\n')
                    .append("      found:  ").append(v.found()).append('\n');
        }
        for (Violation v : report.warnings()) {
            d.append("\n  WARNING ").append(v.rule()).append(' ').append(v.setting()).append(": ").append(v.problem()).append('\n');
        }
        d.append("\nSettings checked:\n");
        for (Setting s : report.settings()) {
            d.append("  ").append(s.name()).append(" = ").append(s.redactedValue() == null ? "(unset)" : s.redactedValue())
                    .append("  (").append(s.origin()).append(")\n");
        }
        StringBuilder a = new StringBuilder();
        Set<String> seen = new LinkedHashSet<>();
        for (Violation v : report.errors()) {
            if (seen.add(v.action())) {
                a.append(a.isEmpty() ? "" : "\n").append("- ").append(v.setting()).append(": ").append(v.action());
            }
        }
        String summary = "guard's config check found " + n + (n == 1 ? " error: " : " errors, the first: ")
                + report.errors().get(0).message();
        return new GuardStartupException(summary, d.toString().stripTrailing(), a.toString(), ExitCodes.CONFIG);
    }

    /** One of guard's own settings ({@code guard.*}) that guard cannot act on. */
    static GuardStartupException setting(String name, String origin, String found, String problem, String action) {
        String d = "guard read its own settings before Spring created any bean, and found 1 error:\n\n"
                + "  INVALID " + name + ": " + problem + "\n"
                + "      origin: " + origin + "\n"
                + "      found:  " + found;
        return new GuardStartupException(name + " " + problem, d, "- " + name + ": " + action, ExitCodes.CONFIG);
    }

    /**
     * A worker's broker would lose its jobs on a restart ({@link dev.guard.drain.DurabilityCheck}):
     * {@code report} is the check's refusal, naming what was found and what to set.
     */
    public static GuardStartupException durability(String consumer, String report) {
        String d = "guard asked the broker of worker '" + consumer + "' what it keeps across a restart, before the worker"
                + " took its first job:\n\n" + report.strip().indent(2).stripTrailing();
        return new GuardStartupException("guard: " + consumer + ": the broker would lose its jobs on a restart", d,
                "- set on the broker what the report says (its 'action'), or start anyway with guard.persistence-check=warn",
                ExitCodes.CONFIG);
    }

    /**
     * A worker's longest job outlasts one of its source's clocks or the drain
     * ({@link dev.guard.drain.TimeoutBudget}): {@code report} is the table and each violation's fix.
     */
    public static GuardStartupException timeouts(String consumer, String report) {
        String d = "guard compared the longest job of worker '" + consumer + "' with its grace period and its broker's"
                + " clocks, before the worker took its first job:\n\n" + report.strip().indent(2).stripTrailing();
        return new GuardStartupException("guard: " + consumer + ": the longest job outlasts a clock of its source or drain",
                d, "- change what each violation's 'Action' says, or start anyway with guard.timeout-check=warn",
                ExitCodes.CONFIG);
    }

    /**
     * The pod's deletion cost was asked for ({@code guard.deletion-cost=on}) and cannot be kept:
     * {@code why} says what the API server or the pod's mounts answered and what to grant or set.
     */
    public static GuardStartupException deletionCost(String why, int exitCode) {
        return new GuardStartupException("guard: the pod's deletion cost cannot be kept", "guard wrote this pod's"
                + " controller.kubernetes.io/pod-deletion-cost once before the first job, to prove it may:\n\n"
                + why.strip().indent(2).stripTrailing(), "- grant what the description says, or start without it:"
                + " guard.deletion-cost=off (GUARD_DELETION_COST=off)", exitCode);
    }

    /** The readiness gate's last result for each broker. */
    static GuardStartupException notReady(ReadinessReport report) {
        String d = "guard waited for this application's brokers before starting its listeners, and "
                + switch (report.outcome()) {
                    case DEADLINE, NOT_READY -> "they were not all ready within " + ReadinessReport.seconds(report.deadline());
                    case NOT_RETRYABLE -> "one is in a state that waiting cannot fix";
                    case INTERRUPTED -> "the wait was interrupted (the application is shutting down)";
                    case READY -> "they were ready";
                } + ":\n\n" + report.render().stripTrailing().indent(2).stripTrailing();
        StringBuilder a = new StringBuilder();
        Set<String> seen = new LinkedHashSet<>();
        for (ProbeResult r : report.failures()) {
            if (seen.add(r.state().action())) {
                a.append(a.isEmpty() ? "" : "\n").append("- ").append(r.kind()).append(' ').append(r.target()).append(" (")
                        .append(r.state().label()).append("): ").append(r.state().action());
            }
        }
        if (report.outcome() == ReadinessReport.Outcome.DEADLINE) {
            a.append("\n- or give the brokers longer: guard.wait.deadline (now ").append(ReadinessReport.seconds(report.deadline()))
                    .append(")");
        }
        String summary = "guard: brokers not ready: " + report.failures().stream().map(ProbeResult::summary)
                .reduce((x, y) -> x + "; " + y).orElse(report.outcome().name());
        return new GuardStartupException(summary, d, a.toString(), report.exitCode());
    }

    /** What was checked and found, for the Description section. */
    public String description() {
        return description;
    }

    /** What to do, for the Action section. */
    public String action() {
        return action;
    }

    /** 78 for settings, 69 for a broker not ready, 77 for rejected credentials: the CLI's codes. */
    @Override
    public int getExitCode() {
        return exitCode;
    }
}
