package dev.guard.config;

/**
 * One declared setting as the boot report shows it.
 *
 * @param name          environment variable name or config path
 * @param origin        where the value came from: {@code env REDIS_URL}, {@code application.conf:3},
 *                      {@code default (reference.conf:1)}, {@code env REDIS_URL (unset)}
 * @param redactedValue the value with secrets masked, or {@code null} when unset
 * @param type          the type it was checked as: the declared one, or the one inferred from its name or value
 * @param source        the kind of origin, for comparing backend and worker reports
 * @param inferredBecause why {@code type} was inferred ({@code the name ends in _BROKERS}), or {@code null} when it was declared
 */
public record Setting(String name, String origin, String redactedValue, SettingType type, Source source, String inferredBecause) {

    /** A setting of a declared type. */
    public Setting(String name, String origin, String redactedValue, SettingType type, Source source) {
        this(name, origin, redactedValue, type, source, null);
    }

    /** True when the type was inferred, not declared. */
    public boolean inferred() {
        return inferredBecause != null;
    }

    /** The kind of place a value came from. */
    public enum Source {
        /** An environment variable. */
        ENV,
        /** A JVM system property ({@code -Dpath=value}). */
        SYSTEM_PROPERTY,
        /** A config file (application.conf or a file named by config.file). */
        FILE,
        /** A library default: reference.conf. */
        DEFAULT,
        /** Nowhere: the setting is not set. */
        UNSET,
        /** Anything else typesafe-config can report (a string parsed in code, a map). */
        OTHER
    }
}
