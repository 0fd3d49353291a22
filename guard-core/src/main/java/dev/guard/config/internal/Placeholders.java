package dev.guard.config.internal;

import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Recognises values that were never filled in: {@code None}, {@code changeme}, {@code ${VAR}}, {@code $(VAR)}, ... */
public final class Placeholders {

    private static final Set<String> WORDS = Set.of(
            "none", "null", "nil", "undefined", "changeme", "change-me", "change_me", "changeit",
            "todo", "tbd", "fixme", "placeholder", "<nil>", "<none>", "nan");

    private static final Pattern SHELL = Pattern.compile("\\$\\{[^}]*}|\\$\\([^)]*\\)|\\{\\{[^}]*}}");
    private static final Pattern ANGLE = Pattern.compile("<[^<>]+>");

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
        String lower = v.toLowerCase(Locale.ROOT);
        if (WORDS.contains(lower)) {
            return "the placeholder '" + v + "'";
        }
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
        return null;
    }
}
