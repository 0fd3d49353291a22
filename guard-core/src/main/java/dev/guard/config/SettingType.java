package dev.guard.config;

/** The declared type of a setting; decides how its value is parsed and which rules apply. */
public enum SettingType {
    /** Any non-blank, non-placeholder text. A value that looks like a URL is still checked for loopback. */
    STRING,
    /** One URL, or a comma-separated list of URLs, each with a scheme guard knows (redis://, amqp://, nats://, ...). */
    URL,
    /** Comma-separated {@code host:port} entries or URLs ({@code b1:9092,b2:9092}). */
    HOST_LIST,
    /** A decimal integer. */
    INT,
    /** A duration by guard's one rule ({@link Durations}): a bare number is seconds, or {@code 500ms}, {@code 2m}, {@code PT10S}. */
    DURATION,
    /** A TCP port, 1 to 65535. */
    PORT
}
