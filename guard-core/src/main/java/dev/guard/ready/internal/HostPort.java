package dev.guard.ready.internal;

import java.util.ArrayList;
import java.util.List;

/** A host and port parsed from {@code host:port}, {@code [v6]:port} or a comma list of them. */
public record HostPort(String host, int port) {

    public HostPort {
        if (host == null || host.isBlank()) {
            throw new IllegalArgumentException("empty host");
        }
        if (port < 1 || port > 65535) {
            throw new IllegalArgumentException("port " + port + " is not in 1..65535");
        }
    }

    /** Parses {@code host:port}; {@code defaultPort} when the port is absent (-1: required). */
    public static HostPort parse(String text, int defaultPort) {
        String s = text.trim();
        String host;
        String port = null;
        if (s.startsWith("[")) {
            int end = s.indexOf(']');
            if (end < 0) {
                throw new IllegalArgumentException("'" + text + "': unclosed [ in IPv6 address");
            }
            host = s.substring(1, end);
            if (end + 1 < s.length()) {
                if (s.charAt(end + 1) != ':') {
                    throw new IllegalArgumentException("'" + text + "': expected ':' after ]");
                }
                port = s.substring(end + 2);
            }
        } else {
            int colon = s.lastIndexOf(':');
            host = colon < 0 ? s : s.substring(0, colon);
            port = colon < 0 ? null : s.substring(colon + 1);
        }
        int p;
        if (port == null || port.isEmpty()) {
            if (defaultPort < 0) {
                throw new IllegalArgumentException("'" + text + "': missing port (expected host:port)");
            }
            p = defaultPort;
        } else {
            try {
                p = Integer.parseInt(port);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("'" + text + "': port '" + port + "' is not a number");
            }
        }
        return new HostPort(host, p);
    }

    /** Parses {@code h1:p1,h2:p2}. */
    public static List<HostPort> parseList(String text, int defaultPort) {
        if (text == null || text.isBlank()) {
            throw new IllegalArgumentException("empty host list (expected host:port[,host:port])");
        }
        List<HostPort> out = new ArrayList<>();
        for (String part : text.split(",")) {
            if (!part.isBlank()) {
                out.add(parse(part, defaultPort));
            }
        }
        return List.copyOf(out);
    }

    @Override
    public String toString() {
        return (host.contains(":") ? "[" + host + "]" : host) + ":" + port;
    }
}
