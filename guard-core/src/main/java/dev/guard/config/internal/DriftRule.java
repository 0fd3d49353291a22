package dev.guard.config.internal;

import dev.guard.config.Redaction;
import dev.guard.config.SettingType;
import dev.guard.config.Severity;
import dev.guard.config.Violation;
import dev.guard.endpoint.Broker;
import dev.guard.endpoint.Endpoint;
import dev.guard.endpoint.Endpoints;
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
            return byValue(name, origin, readBy, env, out);
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

    /**
     * Drift across naming families: no near name is set, but a variable holds a value of the broker
     * the required name is about ({@code AMQP_URL} unset, {@code CELERY_BROKER_URL=amqp://...}).
     * Named as a question: the value may be another service's of the same kind.
     */
    private static boolean byValue(String name, String origin, String readBy, Map<String, String> env, Consumer<Violation> out) {
        Broker broker = Broker.ofName(name).orElse(null);
        if (broker == null) {
            return false;
        }
        List<String> holders = env.entrySet().stream()
                .filter(e -> !e.getKey().equalsIgnoreCase(name) && e.getValue() != null && holds(broker, e.getValue()))
                .map(Map.Entry::getKey).sorted().limit(3).toList();
        if (holders.isEmpty()) {
            return false;
        }
        String sets = holders.stream()
                .map(h -> h + " holds " + what(broker, env.get(h)) + " (" + Wording.mask(env.get(h), Redaction.isSecretName(h)) + ")")
                .collect(Collectors.joining("; "));
        out.accept(new Violation(name, Violation.Rule.NAME_DRIFT, Severity.ERROR, origin, "unset",
                name + " is not set" + (readBy == null ? "" : " (read by " + readBy + ")") + "; " + sets
                        + ": the same setting under another name?",
                "if it is, set " + name + " where this worker's environment is defined, to the same value as " + holders.get(0)
                        + ", or make both sides use one name; if not, set " + name + Wording.example(name, SettingType.URL)));
        return true;
    }

    /** True when {@code value} names {@code broker}'s servers: one of its URL schemes, or host:port at its default port. */
    static boolean holds(Broker broker, String value) {
        String v = value.trim();
        if (v.isEmpty() || v.length() > 2000) {
            return false;
        }
        List<Endpoint> endpoints;
        try {
            endpoints = Endpoints.parse(v);
        } catch (IllegalArgumentException e) {
            return false;
        }
        return !endpoints.isEmpty() && endpoints.stream().allMatch(e -> e.scheme() != null
                ? Broker.ofScheme(e.scheme()).orElse(null) == broker
                : e.portGiven() && e.port() == broker.defaultPort());
    }

    private static String what(Broker broker, String value) {
        String v = value.trim();
        int sep = v.indexOf("://");
        String scheme = sep > 0 ? v.substring(0, sep).toLowerCase(java.util.Locale.ROOT) : "";
        return sep > 0 ? ("aeiou".indexOf(scheme.charAt(0)) >= 0 ? "an " : "a ") + scheme + ":// URL"
                : "a " + broker.product() + " host list (port " + broker.defaultPort() + ")";
    }
}
