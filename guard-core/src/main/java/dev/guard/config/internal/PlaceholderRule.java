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

    /** Names of a place, whose value is never the name itself: REDIS_HOST, BROKER_URL, DB_DSN. */
    private static final java.util.regex.Pattern ENDPOINT_NAME =
            java.util.regex.Pattern.compile("(?i)(HOST|URL|URI|ADDR|ADDRESS|DSN|SERVER|ENDPOINT)S?(?![A-Za-z])");

    private PlaceholderRule() {}

    /** Reports a whole value that is a placeholder; true when it did (no other rule applies then). */
    public static boolean whole(Subject s, Consumer<Violation> out) {
        // a secret's phrase is never printed (but for a bare $NAME, which names a variable): it is described from the raw value;
        // any other value from the masked one, so that a placeholder inside a URL's password is reported by parts(), never quoted
        String placeholder = Placeholders.describe(s.secret() ? s.value() : Redaction.maskSettingValue(s.value()), s.secret());
        if (placeholder == null && s.secret() && Placeholders.isGenericSecret(s.value())) {
            placeholder = "the word itself";
        }
        if (placeholder == null && (s.secret() || ENDPOINT_NAME.matcher(s.name()).find())
                && (Placeholders.isOwnName(s.name(), s.value()) || Placeholders.isOwnName(s.setName(), s.value()))) {
            // a user name may well be its variable's (DB_USER=db_user, created by the stack); a password or a host is not
            placeholder = "its own name";
        }
        if (placeholder == null) {
            return false;
        }
        out.accept(new Violation(s.name(), Violation.Rule.PLACEHOLDER, Severity.ERROR, s.origin(), s.found(),
                s.name() + " holds " + (s.secret() && !Placeholders.namesNoSecret(s.value()) ? "a placeholder, not a real value" : placeholder),
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
            if (Placeholders.isWord(e.password()) || Placeholders.isGenericSecret(e.password())) {
                parts.add("password");
            }
            if (Placeholders.isWord(e.user())) {
                parts.add(e.password() == null && e.scheme() != null && Redaction.userIsSecret(e.scheme()) ? "password" : "user");
            }
            if (Placeholders.isWord(e.host()) && !s.secret()) {
                parts.add("host '" + e.host() + "'");
            } else if (Placeholders.isExampleHost(e.host()) && !s.secret()) {
                parts.add("host '" + e.host() + "' (a name reserved for examples, RFC 2606)");
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
