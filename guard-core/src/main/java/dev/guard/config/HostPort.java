package dev.guard.config;

/**
 * One endpoint parsed by {@link Endpoints#parse(String)}.
 *
 * @param scheme lower-case scheme ({@code redis}, {@code amqps}, ...) or {@code null} for a bare {@code host:port}
 * @param host   host name or IP literal, without IPv6 brackets
 * @param port   port, the scheme's default port when the URL names none, or {@code -1} when unknown
 */
public record HostPort(String scheme, String host, int port) {

    /** True when a port is known (given, or the scheme's default). */
    public boolean hasPort() {
        return port > 0;
    }

    /** {@code host:port}, with brackets around an IPv6 literal; just the host when no port is known. */
    @Override
    public String toString() {
        String h = host.indexOf(':') >= 0 ? "[" + host + "]" : host;
        return hasPort() ? h + ":" + port : h;
    }
}
