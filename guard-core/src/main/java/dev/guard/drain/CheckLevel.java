package dev.guard.drain;

import java.util.Locale;

/**
 * What a failed boot check does to the start, for each check a worker loop runs before its first
 * job ({@link DurabilityCheck}, {@link TimeoutBudget}).
 */
public enum CheckLevel {
    /** Do not start (exit 78): the default. */
    ERROR,
    /** Log the report and its fix, and start. */
    WARN,
    /** Do not run the check. */
    OFF;

    /**
     * {@code error}, {@code warn} or {@code off}, any case, read from {@code setting}.
     *
     * @param warnStarts what warn lets start, for the message ("a worker whose broker would lose its jobs")
     * @throws IllegalArgumentException naming {@code setting}, {@code origin} and the values allowed
     */
    static CheckLevel parse(String value, String origin, String setting, String warnStarts) {
        try {
            return valueOf(value.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(setting + "='" + value + "' (from " + origin + ") is not one of error,"
                    + " warn, off. Action: set it to error (the default), or warn to start " + warnStarts, e);
        }
    }
}
