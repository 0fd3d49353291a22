package dev.guard.endpoint;

import java.util.Optional;

/**
 * One endpoint parsed by {@link Endpoints}: a host (and port) with the scheme and user info of
 * the URL it came from. {@link #toString()} never shows the user info.
 *
 * @param scheme   lower-case scheme ({@code redis}, {@code jdbc:postgresql}), or {@code null} for a bare {@code host:port}
 * @param user     the URL's or entry's user name, {@code null} when none was written ({@code ""} for {@code redis://:pw@h})
 * @param password the password, {@code null} when none was written
 * @param host     host name or IP literal, without IPv6 brackets; {@code ""} only for a hostless scheme ({@code sqlite:///a.db})
 * @param port     the port written, else the scheme's default, else {@code -1}
 * @param portGiven true when the port was written, not defaulted
 * @param rest     what follows the host list in a URL ({@code /0?key=jobs#m}), {@code ""} when nothing does
 */
public record Endpoint(String scheme, String user, String password, String host, int port, boolean portGiven, String rest) {

    /**
     * A bare {@code host:port}.
     *
     * @throws IllegalArgumentException for a blank host or a port outside 1-65535
     */
    public static Endpoint of(String host, int port) {
        if (host == null || host.isBlank()) {
            throw new IllegalArgumentException("empty host");
        }
        if (port < 1 || port > 65535) {
            throw new IllegalArgumentException("port " + port + " is not in 1..65535");
        }
        String h = host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
        return new Endpoint(null, null, null, h, port, true, "");
    }

    /** True when a port is known (written, or the scheme's default). */
    public boolean hasPort() {
        return port > 0;
    }

    /** The scheme as a table entry, when guard knows it. */
    public Optional<Scheme> knownScheme() {
        return Scheme.of(scheme);
    }

    /** The path of {@link #rest()}: {@code /0} of {@code /0?key=jobs#m}; {@code ""} when there is none. */
    public String path() {
        int end = rest.length();
        for (char c : new char[] {'?', '#'}) {
            int i = rest.indexOf(c);
            if (i >= 0 && i < end) {
                end = i;
            }
        }
        return rest.substring(0, end);
    }

    /** The broker the scheme means ({@code rediss}: Redis), if any. */
    public Optional<Broker> broker() {
        return knownScheme().map(Scheme::broker);
    }

    /** {@code host:port}, with brackets around an IPv6 literal; just the host when no port is known. */
    public String hostPort() {
        String h = host.indexOf(':') >= 0 ? "[" + host + "]" : host;
        return hasPort() ? h + ":" + port : h;
    }

    /** {@code scheme://host:port} (or {@link #hostPort()} without a scheme): safe to print. */
    public String display() {
        return scheme == null ? hostPort() : scheme + "://" + hostPort();
    }

    /** {@link #hostPort()}: never the user info. */
    @Override
    public String toString() {
        return hostPort();
    }
}
