package dev.guard.config;

/**
 * The type a setting is checked as: declared ({@code requireEnv("REDIS_URL", SettingType.URL)}),
 * or, for a setting declared without one, inferred from its name and value (see
 * {@link ConfigGuard.Builder#requireEnv(String)}).
 */
public enum SettingType {
    /** Any non-blank, non-placeholder text. A value with a scheme ({@code x://}) is still checked for loopback. */
    STRING("string"),
    /** One URL of any scheme, or a comma-separated list of them ({@code nats://n1:4222,nats://n2:4222}). */
    URL("URL"),
    /** Comma-separated {@code host:port} entries or URLs ({@code b1:9092,b2:9092}). */
    HOST_LIST("host list"),
    /** One host name or IP address, without a port or scheme. */
    HOST("host"),
    /** A decimal integer. */
    INT("integer"),
    /** A duration: a bare number is seconds ({@code 30}), or with a unit ({@code 500ms}, {@code 2m}, {@code PT10S}). */
    DURATION("duration"),
    /** A TCP port, 1 to 65535. */
    PORT("port");

    private final String word;

    SettingType(String word) {
        this.word = word;
    }

    /** How messages name it: {@code URL}, {@code host list}. */
    public String word() {
        return word;
    }

    /** {@code a URL}, {@code an integer}. */
    public String withArticle() {
        return (this == INT ? "an " : "a ") + word;
    }
}
