package dev.guard.config;

import java.util.List;

/**
 * Thrown by {@link ConfigGuard#verify()} when at least one {@link Severity#ERROR} violation was
 * found. Carries the whole report; its message lists every violation (redacted).
 */
public final class ConfigViolationException extends RuntimeException {

    private final transient ConfigReport report;

    ConfigViolationException(ConfigReport report) {
        super(describe(report), null, false, true);
        this.report = report;
    }

    private static String describe(ConfigReport report) {
        StringBuilder sb = new StringBuilder("config guard found ").append(report.errors().size())
                .append(report.errors().size() == 1 ? " error" : " errors");
        if (!report.warnings().isEmpty()) {
            sb.append(" and ").append(report.warnings().size()).append(report.warnings().size() == 1 ? " warning" : " warnings");
        }
        sb.append(" before connecting to anything:");
        for (Violation v : report.violations()) {
            sb.append("\n  ").append(v.severity()).append(' ').append(v.rule()).append(": ").append(v.message());
        }
        return sb.toString();
    }

    /** The full report, settings included. */
    public ConfigReport report() {
        return report;
    }

    /** Every violation, errors and warnings. */
    public List<Violation> violations() {
        return report.violations();
    }
}
