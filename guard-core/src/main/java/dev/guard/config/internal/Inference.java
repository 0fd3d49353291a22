package dev.guard.config.internal;

import dev.guard.config.Redaction;
import dev.guard.config.SettingType;
import dev.guard.endpoint.Endpoints;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * What a setting declared without a type evidently is. First its name (environment variable or
 * config path, compared as upper-case words: {@code redis.url} is {@code REDIS_URL}):
 * <ul>
 * <li>{@code *_URL}, {@code *_URI}, {@code *_DSN} (and plurals): a URL;</li>
 * <li>{@code *_BROKERS}, {@code *_SERVERS}, {@code *_HOSTS}, {@code *_NODES}, {@code *_ADDRS},
 *     {@code *_ADDR}, {@code *_ADDRESSES}, {@code *_ENDPOINTS}, any name with {@code BOOTSTRAP}: a host list;</li>
 * <li>{@code *_HOST}, {@code *_HOSTNAME}: a host;</li>
 * <li>{@code *_PORT}: a port.</li>
 * </ul>
 * A name that says it holds a secret ({@code REDIS_PASSWORD}) is a string, and so is a listen
 * address ({@code *_LISTENERS}, {@code *_BIND}: {@code 0.0.0.0} there is no mistake). Otherwise the value
 * decides: {@code scheme://...} is a URL, {@code host:port[,host:port]} a host list, anything
 * else a string.
 */
public final class Inference {

    private static final List<String> URL_WORDS = List.of("URL", "URI", "DSN", "URLS", "URIS");
    private static final List<String> LIST_WORDS = List.of("BROKERS", "SERVERS", "HOSTS", "NODES", "ADDRS", "ADDR",
            "ADDRESSES", "ENDPOINTS", "SEEDS");
    private static final List<String> HOST_WORDS = List.of("HOST", "HOSTNAME");
    /** SCHEMA_REGISTRY_LISTENERS=http://0.0.0.0:8081 binds every interface: a listen address, not an endpoint. */
    private static final List<String> LISTEN_WORDS = List.of("LISTEN", "LISTENER", "LISTENERS", "BIND");
    private static final Pattern HOST_PORT_LIST = Pattern.compile(
            "(?:\\[[0-9A-Fa-f:.]+]|[A-Za-z0-9_][A-Za-z0-9_.\\-]*):\\d{1,5}(?:\\s*,\\s*(?:\\[[0-9A-Fa-f:.]+]|[A-Za-z0-9_][A-Za-z0-9_.\\-]*):\\d{1,5})*");

    /** Why a listen address ({@code *_LISTENERS}, {@code *_BIND}) is a string whose hosts are not checked. */
    public static final String LISTEN_ADDRESS = "the name says where this process listens, not a service it reaches";

    private Inference() {}

    /** The check for {@code name} holding {@code value} ({@code null} when unset). */
    public static Check infer(String name, String value) {
        List<String> words = List.of(name.toUpperCase(Locale.ROOT).split("[^A-Z0-9]+"));
        String last = words.isEmpty() ? "" : words.get(words.size() - 1);
        String suffix = "the name ends in " + (name.contains(".") || name.contains("-") ? last.toLowerCase(Locale.ROOT) : "_" + last);
        if (URL_WORDS.contains(last)) {
            return new Check(SettingType.URL, suffix);
        }
        if (Redaction.isSecretName(name)) {
            return new Check(SettingType.STRING, "the name says it holds a secret");
        }
        if (words.stream().anyMatch(LISTEN_WORDS::contains)) {
            return new Check(SettingType.STRING, LISTEN_ADDRESS);
        }
        if (LIST_WORDS.contains(last)) {
            return new Check(SettingType.HOST_LIST, suffix);
        }
        if (words.contains("BOOTSTRAP")) {
            return new Check(SettingType.HOST_LIST, "the name contains BOOTSTRAP (Kafka's bootstrap servers)");
        }
        if (HOST_WORDS.contains(last)) {
            return new Check(SettingType.HOST, suffix);
        }
        if (last.equals("PORT")) {
            return new Check(SettingType.PORT, suffix);
        }
        String v = value == null ? "" : value.trim();
        if (Endpoints.startsWithScheme(v)) {
            return new Check(SettingType.URL, "the value starts with a scheme (" + v.substring(0, v.indexOf("://") + 3) + ")");
        }
        if (HOST_PORT_LIST.matcher(v).matches()) {
            return new Check(SettingType.HOST_LIST, "the value is host:port" + (v.contains(",") ? " entries" : ""));
        }
        return new Check(SettingType.STRING, "neither its name nor its value says more");
    }
}
