package dev.guard.config.internal;

import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Recognises values that were never filled in, in the spellings templates, examples and
 * languages leave behind: {@code None}, {@code null}, {@code changeme}, {@code change-me},
 * {@code CHANGE_ME}, {@code change-me-in-cluster}, {@code your-password}, {@code replace-me},
 * {@code todo}, {@code xxx}, {@code <redis-url>}, {@code ${VAR}}, {@code $(VAR)},
 * {@code {{ .Values.x }}}. {@link #describe(String)} checks a whole value,
 * {@link #isWord(String)} one part of a URL (its user, password or host).
 */
public final class Placeholders {

    /** Whole values that mean "nothing here", compared in lower case. */
    private static final Set<String> WORDS = Set.of(
            "none", "null", "nil", "undefined", "changeit", "todo", "tbd", "fixme", "placeholder", "<nil>", "<none>", "nan",
            "your-value-here", "secret-here", "password-here", "insert-here");

    /** Words that start a placeholder, compared without separators: change-me-in-cluster, CHANGE_ME_PLEASE, replace-me. */
    private static final Pattern PREFIXES = Pattern.compile("(?:changeme|changethis|replaceme|replacethis|fillme|fillin|setme|"
            + "enteryour|insertyour|putyour|addyour|your(?:password|pass|pw|secret|token|key|apikey|api|user|username|host|hostname"
            + "|url|domain|value))[a-z0-9]*");
    /** your-redis-url, your_bucket, "your host": "your" and a separator. */
    private static final Pattern YOUR = Pattern.compile("your[-_ ][a-z0-9].*");
    private static final Pattern XS = Pattern.compile("x{3,}|\\*{3,}|\\.{3,}|_{3,}|-{3,}|\\?{3,}");

    private static final Pattern SHELL = Pattern.compile("\\$\\{[^}]*}|\\$\\([^)]*\\)|\\{\\{[^}]*}}");
    private static final Pattern ANGLE = Pattern.compile("<[^<>]+>");

    /** The name of the thing instead of the thing, as a secret's value: {@code password}, {@code secret}, {@code token}. */
    private static final Set<String> GENERIC_SECRETS = Set.of("password", "passwd", "pass", "pwd", "secret", "token", "apikey",
            "api-key", "api_key", "key", "privatekey", "private-key");

    private Placeholders() {}

    /**
     * What kind of placeholder {@code value} is, as a phrase for a message, or {@code null} when it
     * is a real value. The phrase never quotes more of the value than the placeholder itself.
     */
    public static String describe(String value) {
        if (value == null) {
            return null;
        }
        String v = value.trim();
        Matcher m = SHELL.matcher(v);
        if (m.find()) {
            String found = m.group();
            if (found.startsWith("{{")) {
                return "an unrendered template expression " + found;
            }
            return "an unresolved substitution " + found + " (the variable it names was not expanded)";
        }
        if (ANGLE.matcher(v).matches()) {
            return "the template placeholder " + v;
        }
        if (isWord(v)) {
            return "the placeholder '" + v + "'";
        }
        return null;
    }

    /** True when a secret's value is only the word for a secret ({@code ES_PASS=password}): a sample's default, not a password. */
    public static boolean isGenericSecret(String value) {
        return value != null && GENERIC_SECRETS.contains(value.trim().toLowerCase(Locale.ROOT));
    }

    /**
     * True when {@code part} (a whole value, or a URL's user, password or host) is a placeholder
     * word: {@code changeme}, {@code CHANGE_ME}, {@code change-me-in-cluster}, {@code your_password},
     * {@code xxx}, {@code <password>}, {@code ${PW}} ...
     */
    public static boolean isWord(String part) {
        if (part == null || part.isBlank()) {
            return false;
        }
        String lower = part.trim().toLowerCase(Locale.ROOT);
        if (WORDS.contains(lower) || XS.matcher(lower).matches() || YOUR.matcher(lower).matches() || ANGLE.matcher(lower).matches() || SHELL.matcher(lower).find()) {
            return true;
        }
        String squashed = lower.replaceAll("[-_.\\s]+", "");
        return !squashed.isEmpty() && (WORDS.contains(squashed) || PREFIXES.matcher(squashed).matches());
    }
}
