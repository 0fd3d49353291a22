package dev.guard.config.internal;

import dev.guard.config.Redaction;
import dev.guard.config.Severity;
import dev.guard.config.Violation;
import dev.guard.endpoint.Endpoint;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;

/** PLACEHOLDER: a value, or a URL's user, password or host, that was never filled in. */
public final class PlaceholderRule {

    private PlaceholderRule() {}

    /** Reports a whole value that is a placeholder; true when it did (no other rule applies then). */
    public static boolean whole(Subject s, Consumer<Violation> out) {
        // described from the masked value: a placeholder inside a URL's password is reported by parts(), never quoted
        String placeholder = Placeholders.describe(Redaction.maskSettingValue(s.value()));
        if (placeholder == null && s.secret() && Placeholders.isGenericSecret(s.value())) {
            placeholder = "the word itself";
        }
        if (placeholder == null) {
            return false;
        }
        out.accept(new Violation(s.name(), Violation.Rule.PLACEHOLDER, Severity.ERROR, s.origin(), s.found(),
                s.name() + " holds " + (s.secret() ? "a placeholder, not a real value" : placeholder),
                replace(s)));
        return true;
    }

    /**
     * Reports placeholders inside parsed endpoints: {@code redis://:changeme@redis:6379},
     * {@code amqp://worker:change-me-in-cluster@rabbitmq/jobs}, {@code redis://your-host:6379}. The
     * user and password are never quoted; a host is. True when it reported.
     */
    public static boolean parts(Subject s, List<Endpoint> endpoints, Consumer<Violation> out) {
        Set<String> parts = new LinkedHashSet<>();
        for (Endpoint e : endpoints) {
            if (Placeholders.isWord(e.password())) {
                parts.add("password");
            }
            if (Placeholders.isWord(e.user())) {
                parts.add(e.password() == null && e.scheme() != null && Redaction.userIsSecret(e.scheme()) ? "password" : "user");
            }
            if (Placeholders.isWord(e.host()) && !s.secret()) {
                parts.add("host '" + e.host() + "'");
            }
        }
        if (parts.isEmpty()) {
            return false;
        }
        List<String> distinct = List.copyOf(parts);
        out.accept(new Violation(s.name(), Violation.Rule.PLACEHOLDER, Severity.ERROR, s.origin(), s.found(),
                s.name() + "'s " + Wording.and(distinct) + (distinct.size() == 1 ? " is a placeholder" : " are placeholders")
                        + (distinct.stream().anyMatch(p -> !p.startsWith("host")) ? " (not shown: it would be a secret)" : ""),
                replace(s)));
        return true;
    }

    private static String replace(Subject s) {
        return "replace it with the real value: whatever fills " + s.setName()
                + " (Helm values, .env file, Secret, CI variable) left the placeholder in";
    }
}
