package dev.guard.config.internal;

/**
 * One value under check, as the rules see it.
 *
 * @param name    the setting (environment variable or config path)
 * @param setName the name to tell the user to set: the variable itself, or the one behind a config path
 * @param value   the raw value (never printed as is)
 * @param check   what it is checked as
 * @param origin  where it came from ({@code env REDIS_URL}, {@code application.conf:3})
 * @param secret  true when the whole value must be masked
 * @param defaulted true when nobody set the value: it is a library's or a config file's default
 */
public record Subject(String name, String setName, String value, Check check, String origin, boolean secret, boolean defaulted) {

    /** A value somebody set (an environment variable, a file, a system property). */
    public Subject(String name, String setName, String value, Check check, String origin, boolean secret) {
        this(name, setName, value, check, origin, secret, false);
    }

    /** The value as it may be printed. */
    public String found() {
        return Wording.mask(value, secret);
    }

    /** {@code " (checked as a URL: the name ends in _URL)"} for an inferred check, {@code ""} for a declared one. */
    public String inferredNote() {
        return check.inferred() ? " (checked as " + check.type().withArticle() + ": " + check.because() + ")" : "";
    }
}
