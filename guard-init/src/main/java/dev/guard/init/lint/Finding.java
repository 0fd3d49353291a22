package dev.guard.init.lint;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * One pitfall found in a file: where, what, what it does at run time, and the fix.
 *
 * @param file the file as given ({@code -} for standard input)
 * @param line 1-based line of what was found
 * @param rule the rule's id ({@code shell-pid1})
 * @param severity error (the exit code says so) or warning
 * @param found what the file says there, secrets masked
 * @param runtime what goes wrong at run time because of it, in the seeds' terms
 * @param fix what to write instead
 */
public record Finding(String file, int line, String rule, Severity severity, String found, String runtime, String fix) {

    /** Error: it loses or runs jobs twice, or stops a worker, as written. Warning: it does under a condition the file cannot show. */
    public enum Severity { ERROR, WARNING }

    public Finding {
        Objects.requireNonNull(file, "file");
        Objects.requireNonNull(rule, "rule");
        Objects.requireNonNull(severity, "severity");
    }

    /** {@code file:line: error [rule] found} and the two lines below it. */
    public String render() {
        return file + ":" + line + ": " + severity.name().toLowerCase(java.util.Locale.ROOT) + " [" + rule + "] " + found
                + "\n    at run time: " + runtime + "\n    fix: " + fix;
    }

    /** The JSON object of {@code --json}. */
    public Map<String, Object> json() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("file", file);
        m.put("line", line);
        m.put("rule", rule);
        m.put("severity", severity.name().toLowerCase(java.util.Locale.ROOT));
        m.put("found", found);
        m.put("runtime", runtime);
        m.put("fix", fix);
        return m;
    }
}
