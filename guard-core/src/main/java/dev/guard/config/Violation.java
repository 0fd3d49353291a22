package dev.guard.config;

import java.util.Objects;

/**
 * One broken rule for one setting. Every text field is safe to print: values are masked with
 * {@link Redaction}.
 *
 * @param setting  the environment variable name or config path checked
 * @param rule     the rule broken ({@link Rule#MISSING}, {@link Rule#LOOPBACK}, ...)
 * @param severity {@link Severity#ERROR} stops the boot; {@link Severity#WARNING} is only reported
 * @param origin   where the value came from: {@code env REDIS_URL}, {@code application.conf:3},
 *                 {@code default (reference.conf:1)}
 * @param found    what was found, redacted ({@code unset} when nothing was)
 * @param problem  what is wrong, one sentence naming the setting
 * @param action   what to do about it
 */
public record Violation(String setting, Rule rule, Severity severity, String origin, String found,
                        String problem, String action) {

    /** The rule a violation broke. The names are stable: reports and JSON print them. */
    public enum Rule {
        /** Not set at all. */
        MISSING,
        /** Set, but empty or only whitespace. */
        BLANK,
        /** A placeholder left in: None, null, changeme, an unresolved ${...} or $(...), also as a URL's password. */
        PLACEHOLDER,
        /** Fell back to a default (reference.conf, a literal in a config file) where it must come from the environment. */
        DEFAULTED,
        /** Points at this machine or container itself. */
        LOOPBACK,
        /** Does not parse as its type (declared or inferred: URL, host list, host, int, duration, port), or the config does not parse. */
        MALFORMED,
        /** Not set under its own name, but set under a near name the other side uses. */
        NAME_DRIFT,
        /** Two names of one family are both set and point at different hosts. */
        CONFLICT
    }

    public Violation {
        Objects.requireNonNull(setting, "setting");
        Objects.requireNonNull(rule, "rule");
        Objects.requireNonNull(severity, "severity");
        Objects.requireNonNull(origin, "origin");
        Objects.requireNonNull(found, "found");
        Objects.requireNonNull(problem, "problem");
        Objects.requireNonNull(action, "action");
    }

    /** The full text: problem, origin, what was found, and the action. */
    public String message() {
        return problem + " (origin: " + origin + "; found: " + found + "). Action: " + action;
    }

    @Override
    public String toString() {
        return severity + " " + rule + " " + message();
    }
}
