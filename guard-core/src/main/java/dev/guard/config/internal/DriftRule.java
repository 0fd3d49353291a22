package dev.guard.config.internal;

import dev.guard.config.Redaction;
import dev.guard.config.Severity;
import dev.guard.config.Violation;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.stream.Collectors;

/** NAME_DRIFT: the setting is unset, but a near name ({@link Names}) the other side uses is set. */
public final class DriftRule {

    private DriftRule() {}

    /**
     * Reports NAME_DRIFT for an unset {@code name} if near names are set in {@code env}; true when it did.
     *
     * @param readBy the config path that reads {@code name}, or {@code null}
     */
    public static boolean check(String name, String origin, String readBy, Map<String, String> env, Consumer<Violation> out) {
        List<String> candidates = Names.driftCandidates(name, env);
        if (candidates.isEmpty()) {
            return false;
        }
        boolean family = Names.familyOf(name).stream().anyMatch(candidates::contains);
        String sets = candidates.stream()
                .map(c -> c + " is set (" + Wording.mask(env.get(c), Redaction.isSecretName(c)) + ")")
                .collect(Collectors.joining("; "));
        String why = family ? "the backend and this worker disagree on the name"
                : "a misspelling, or the backend and this worker disagree on the name";
        String first = candidates.get(0);
        out.accept(new Violation(name, Violation.Rule.NAME_DRIFT, Severity.ERROR, origin, "unset",
                name + " is not set" + (readBy == null ? "" : " (read by " + readBy + ")") + "; " + sets + ": " + why,
                "set " + name + " where this worker's environment is defined, to the same value as " + first
                        + ", or make both sides use one name"));
        return true;
    }
}
