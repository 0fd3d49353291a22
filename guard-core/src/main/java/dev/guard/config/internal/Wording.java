package dev.guard.config.internal;

import dev.guard.config.Redaction;
import dev.guard.config.SettingType;
import dev.guard.endpoint.Broker;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/** The config guard's shared phrases: masked values, example values, service words, lists of names. */
public final class Wording {

    private Wording() {}

    /** The value as it may be printed: {@code ****} for a secret, else with URL passwords masked. */
    public static String mask(String value, boolean secret) {
        if (value == null) {
            return null;
        }
        return secret ? Redaction.MASK : Redaction.maskSettingValue(value);
    }

    /**
     * A typesafe-config error message without the file text it quotes: a parse error can quote
     * the token it choked on, which may be an unterminated secret.
     */
    public static String withoutQuotedText(String message) {
        if (message == null) {
            return "(no detail)";
        }
        return Redaction.maskText(message.replaceAll("'[^'\\n]*'?", "'…'").replaceAll("\"[^\"\\n]*\"?", "\"…\""));
    }

    /** "A and B", "A, B and C". */
    public static String and(List<String> names) {
        if (names.size() < 2) {
            return String.join("", names);
        }
        return String.join(", ", names.subList(0, names.size() - 1)) + " and " + names.get(names.size() - 1);
    }

    /** "the Redis service", from the setting's name; "service it names" when the name names no broker. */
    public static String service(String name) {
        return Broker.ofName(name).map(Broker::service).orElse("service it names");
    }

    /** {@code " (e.g. redis://redis:6379)"}, or {@code ""} when there is no good example (or the setting is a secret). */
    public static String example(String name, SettingType type) {
        String v = exampleValue(name, type, null);
        return v == null ? "" : " (e.g. " + v + ")";
    }

    /** An example value for a message; never for a secret, and URL-shaped only for endpoint settings. */
    public static String exampleValue(String name, SettingType type, String fallback) {
        if (Redaction.isSecretName(name)) {
            return null;
        }
        Optional<Broker> broker = Broker.ofName(name);
        switch (type) {
            case PORT:
                return String.valueOf(broker.map(Broker::defaultPort).orElse(6379));
            case INT:
                return "4";
            case DURATION:
                return "30s";
            case HOST:
                return broker.map(b -> b.exampleHostList().split(",")[0].replaceFirst(":\\d+$", "")).orElse("my-service");
            case URL:
            case HOST_LIST:
                break;
            default:
                if (!name.toUpperCase(Locale.ROOT).matches(".*(URL|URI|ADDR|ADDRESS|ADDRESSES|SERVERS|BROKERS|HOST)S?$")) {
                    return fallback;
                }
        }
        if (broker.isEmpty()) {
            return fallback;
        }
        Broker b = broker.get();
        return b == Broker.KAFKA && type != SettingType.URL ? b.exampleHostList() : b.exampleUrl();
    }
}
