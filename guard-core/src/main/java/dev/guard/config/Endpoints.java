package dev.guard.config;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Pattern;

/**
 * Parsing of endpoint settings (URLs, {@code host:port}, comma-separated lists) and the loopback
 * test the config guard applies to them. Pure parsing: nothing here opens a connection; only
 * {@link #isLoopback(String)} may do a short, bounded name lookup.
 *
 * <p>Exception messages never carry a password: the offending value is masked with
 * {@link Redaction#maskText(String)}.
 */
public final class Endpoints {

    /** Schemes guard knows, with their default ports ({@code -1}: none). */
    private static final Map<String, Integer> SCHEMES = Map.ofEntries(
            Map.entry("redis", 6379), Map.entry("rediss", 6379),
            Map.entry("amqp", 5672), Map.entry("amqps", 5671),
            Map.entry("nats", 4222), Map.entry("tls", 4222),
            Map.entry("kafka", 9092), Map.entry("tcp", -1),
            Map.entry("http", 80), Map.entry("https", 443),
            // Kafka's security-protocol prefixes, accepted in bootstrap.servers
            Map.entry("plaintext", 9092), Map.entry("ssl", 9093), Map.entry("sasl_plaintext", 9092), Map.entry("sasl_ssl", 9093));

    /** The scheme names guard knows, in a stable order for messages. */
    public static final List<String> KNOWN_SCHEMES = List.of("redis", "rediss", "amqp", "amqps", "nats", "tls", "kafka", "tcp",
            "http", "https", "plaintext", "ssl", "sasl_plaintext", "sasl_ssl");

    /** How long {@link #isLoopback(String)} waits for a name lookup. */
    public static final Duration DEFAULT_LOOKUP_TIMEOUT = Duration.ofMillis(1500);

    private static final Pattern HOST_NAME = Pattern.compile("[A-Za-z0-9_](?:[A-Za-z0-9_.\\-]*[A-Za-z0-9_.])?");
    private static final Pattern SCHEME = Pattern.compile("[A-Za-z][A-Za-z0-9+._\\-]*");

    private static final List<String> LOOPBACK_NAMES = List.of(
            "localhost", "localhost.localdomain", "localhost4", "localhost4.localdomain4",
            "localhost6", "localhost6.localdomain6", "ip6-localhost", "ip6-loopback");

    private static final ExecutorService LOOKUPS = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "guard-config-lookup");
        t.setDaemon(true);
        return t;
    });

    private Endpoints() {}

    /**
     * Parses one endpoint or a comma-separated list of them: URLs of the schemes in
     * {@link #KNOWN_SCHEMES}, bare {@code host:port} or {@code host}, IPv6 literals in brackets
     * ({@code [::1]:6379}).
     *
     * @throws IllegalArgumentException with a message naming the entry and what is wrong with it
     *                                  (empty, unknown scheme, no host, bad port, port out of range)
     */
    public static List<HostPort> parse(String value) {
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException("no endpoint: the value is empty");
        }
        String[] items = value.split(",", -1);
        List<HostPort> out = new ArrayList<>(items.length);
        for (int i = 0; i < items.length; i++) {
            String item = items[i].trim();
            if (item.isEmpty()) {
                throw new IllegalArgumentException("entry " + (i + 1) + " of '" + Redaction.maskText(value.trim())
                        + "' is empty (stray comma?)");
            }
            out.add(parseOne(item));
        }
        return List.copyOf(out);
    }

    private static HostPort parseOne(String item) {
        int sep = item.indexOf("://");
        int bareAt = sep < 0 ? item.lastIndexOf('@') : -1;
        String shown = bareAt >= 0 ? maskBareUserInfo(item, bareAt) : Redaction.maskText(item);
        if (item.chars().anyMatch(Character::isWhitespace)) {
            throw new IllegalArgumentException("'" + shown + "' contains whitespace");
        }
        String scheme = null;
        String authority = item;
        int defaultPort = -1;
        if (sep >= 0) {
            String s = item.substring(0, sep);
            if (!SCHEME.matcher(s).matches()) {
                throw new IllegalArgumentException("'" + shown + "' does not start with a valid URL scheme");
            }
            scheme = s.toLowerCase(Locale.ROOT);
            Integer port = SCHEMES.get(scheme);
            if (port == null) {
                throw new IllegalArgumentException("unknown scheme '" + scheme + "' in '" + shown + "' (guard knows "
                        + String.join(", ", KNOWN_SCHEMES) + ")");
            }
            defaultPort = port;
            String rest = item.substring(sep + 3);
            int end = indexOfAny(rest, "/?#");
            authority = end >= 0 ? rest.substring(0, end) : rest;
            int at = authority.lastIndexOf('@');
            if (at >= 0) {
                authority = authority.substring(at + 1);
            }
        } else {
            if (bareAt >= 0) {
                // user:password@host:port, as Spring's spring.rabbitmq.addresses allows
                authority = item.substring(bareAt + 1);
            }
            if (authority.contains("/")) {
                throw new IllegalArgumentException("'" + shown + "' is neither a URL (scheme://host:port) nor host:port");
            }
        }
        if (authority.isEmpty()) {
            throw new IllegalArgumentException("no host in '" + shown + "'");
        }
        String host;
        String portText = null;
        if (authority.startsWith("[")) {
            int close = authority.indexOf(']');
            if (close < 0) {
                throw new IllegalArgumentException("unclosed '[' in '" + shown + "': write IPv6 as [2001:db8::1]:6379");
            }
            host = authority.substring(1, close);
            String after = authority.substring(close + 1);
            if (!after.isEmpty()) {
                if (!after.startsWith(":")) {
                    throw new IllegalArgumentException("unexpected '" + after + "' after ']' in '" + shown + "'");
                }
                portText = after.substring(1);
            }
            if (!isIpv6Literal(host)) {
                throw new IllegalArgumentException("'" + host + "' in '" + shown + "' is not an IPv6 address");
            }
        } else {
            int colons = (int) authority.chars().filter(c -> c == ':').count();
            if (colons > 1) {
                if (scheme == null && isIpv6Literal(authority)) {
                    return new HostPort(null, authority, -1);
                }
                throw new IllegalArgumentException("'" + shown + "' has more than one ':'; write IPv6 as [2001:db8::1]:6379");
            }
            int colon = authority.indexOf(':');
            host = colon >= 0 ? authority.substring(0, colon) : authority;
            portText = colon >= 0 ? authority.substring(colon + 1) : null;
            if (host.isEmpty()) {
                throw new IllegalArgumentException("no host in '" + shown + "'");
            }
            if (!HOST_NAME.matcher(host).matches()) {
                throw new IllegalArgumentException("'" + Redaction.maskText(host) + "' in '" + shown + "' is not a valid host name");
            }
        }
        int port = defaultPort;
        if (portText != null) {
            if (portText.isEmpty() || !portText.chars().allMatch(c -> c >= '0' && c <= '9')) {
                throw new IllegalArgumentException("port '" + portText + "' in '" + shown + "' is not a number");
            }
            long p = portText.length() > 6 ? Long.MAX_VALUE : Long.parseLong(portText);
            if (p < 1 || p > 65535) {
                throw new IllegalArgumentException("port " + portText + " in '" + shown + "' is out of range 1-65535");
            }
            port = (int) p;
        }
        return new HostPort(scheme, host, port);
    }

    private static String maskBareUserInfo(String item, int at) {
        String userInfo = item.substring(0, at);
        int colon = userInfo.indexOf(':');
        return (colon >= 0 ? userInfo.substring(0, colon) + ":" : "") + Redaction.MASK + item.substring(at);
    }

    private static int indexOfAny(String s, String chars) {
        for (int i = 0; i < s.length(); i++) {
            if (chars.indexOf(s.charAt(i)) >= 0) {
                return i;
            }
        }
        return -1;
    }

    private static boolean isIpv6Literal(String host) {
        if (host.isEmpty() || host.indexOf(':') < 0 || !host.chars().allMatch(c -> Character.digit(c, 16) >= 0
                || c == ':' || c == '.' || c == '%' || Character.isLetterOrDigit(c))) {
            return false;
        }
        try {
            // a literal containing ':' is parsed, never looked up
            InetAddress.getByName("[" + host + "]");
            return true;
        } catch (UnknownHostException | SecurityException e) {
            return false;
        }
    }

    /** {@link #isLoopback(String, Duration)} with {@link #DEFAULT_LOOKUP_TIMEOUT}. */
    public static boolean isLoopback(String host) {
        return isLoopback(host, DEFAULT_LOOKUP_TIMEOUT);
    }

    /**
     * True when connecting to {@code host} can only reach this machine (or, in a container, the
     * container itself): {@code localhost} in any case, with a trailing dot, {@code *.localhost},
     * {@code ip6-localhost}, {@code ip6-loopback}; any 127.0.0.0/8 address in any spelling the C
     * resolver accepts ({@code 127.1}, {@code 0x7f.0.0.1}, {@code 2130706433}, {@code 0177.0.0.1});
     * {@code ::1} and {@code [::1]}; the wildcard addresses {@code 0.0.0.0} and {@code ::}; and any
     * other name whose lookup, bounded by {@code lookupTimeout}, returns only loopback addresses. A
     * name that does not resolve (or not in time) is not loopback.
     */
    public static boolean isLoopback(String host, Duration lookupTimeout) {
        return loopbackHosts(List.of(host == null ? "" : host), lookupTimeout).contains(host == null ? "" : host);
    }

    /**
     * The hosts of {@code hosts} that are loopback by {@link #isLoopback(String, Duration)}'s rules.
     * The lookups run in parallel and share one deadline, so a list of names costs at most
     * {@code lookupTimeout} in all.
     */
    public static Set<String> loopbackHosts(Collection<String> hosts, Duration lookupTimeout) {
        long deadline = System.nanoTime() + Math.max(1, lookupTimeout.toNanos());
        Set<String> loopback = new LinkedHashSet<>();
        Map<String, CompletableFuture<InetAddress[]>> lookups = new LinkedHashMap<>();
        for (String host : hosts) {
            Boolean literal = loopbackWithoutLookup(host);
            if (literal != null) {
                if (literal) {
                    loopback.add(host);
                }
                continue;
            }
            String h = normalize(host);
            if (HOST_NAME.matcher(h).matches() && !lookups.containsKey(host)) {
                lookups.put(host, CompletableFuture.supplyAsync(() -> {
                    try {
                        return InetAddress.getAllByName(h);
                    } catch (UnknownHostException e) {
                        return new InetAddress[0];
                    }
                }, LOOKUPS));
            }
        }
        for (Map.Entry<String, CompletableFuture<InetAddress[]>> e : lookups.entrySet()) {
            try {
                long left = Math.max(1, deadline - System.nanoTime());
                InetAddress[] all = e.getValue().get(left, TimeUnit.NANOSECONDS);
                if (all.length > 0 && Arrays.stream(all).allMatch(a -> a.isLoopbackAddress() || a.isAnyLocalAddress())) {
                    loopback.add(e.getKey());
                }
            } catch (TimeoutException | ExecutionException ex) {
                e.getValue().cancel(true); // a name that does not resolve in time is not loopback
            } catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        return Set.copyOf(loopback);
    }

    /**
     * The loopback verdict that needs no name lookup: {@code TRUE}/{@code FALSE} for loopback names
     * and IP literals, {@code null} for a host name that would have to be resolved.
     */
    static Boolean loopbackWithoutLookup(String host) {
        if (host == null) {
            return false;
        }
        String h = normalize(host);
        if (h.isEmpty()) {
            return false;
        }
        if (LOOPBACK_NAMES.contains(h) || h.endsWith(".localhost")) {
            return true;
        }
        if (h.indexOf(':') >= 0) {
            if (!isIpv6Literal(h)) {
                return false;
            }
            try {
                InetAddress a = InetAddress.getByName("[" + h + "]");
                return a.isLoopbackAddress() || a.isAnyLocalAddress();
            } catch (UnknownHostException e) {
                return false;
            }
        }
        OptionalLong c = ipv4(h, true);
        OptionalLong d = ipv4(h, false);
        if (c.isPresent() || d.isPresent()) {
            return isLoopbackV4(c) || isLoopbackV4(d);
        }
        return null;
    }

    private static boolean isLoopbackV4(OptionalLong v) {
        return v.isPresent() && ((v.getAsLong() >>> 24) == 127 || v.getAsLong() == 0);
    }

    private static String normalize(String host) {
        String h = host.trim();
        if (h.startsWith("[") && h.endsWith("]")) {
            h = h.substring(1, h.length() - 1);
        }
        int zone = h.indexOf('%');
        if (zone >= 0 && h.indexOf(':') >= 0) {
            h = h.substring(0, zone);
        }
        while (h.endsWith(".")) {
            h = h.substring(0, h.length() - 1);
        }
        return h.toLowerCase(Locale.ROOT);
    }

    /**
     * An IPv4 address in inet_aton's spellings: 1 to 4 parts, each decimal, octal (leading 0) or
     * hex (0x); the last part fills the remaining bytes. With {@code cStyle} false, leading zeros
     * are decimal (how some resolvers read {@code 0177.0.0.1}).
     */
    private static OptionalLong ipv4(String h, boolean cStyle) {
        String[] parts = h.split("\\.", -1);
        if (parts.length < 1 || parts.length > 4) {
            return OptionalLong.empty();
        }
        long[] v = new long[parts.length];
        for (int i = 0; i < parts.length; i++) {
            String p = parts[i];
            int radix = 10;
            if (p.startsWith("0x") || p.startsWith("0X")) {
                radix = 16;
                p = p.substring(2);
            } else if (cStyle && p.length() > 1 && p.startsWith("0")) {
                radix = 8;
                p = p.substring(1);
            }
            if (p.isEmpty() || p.length() > 12) {
                return OptionalLong.empty();
            }
            try {
                v[i] = Long.parseLong(p, radix);
            } catch (NumberFormatException e) {
                return OptionalLong.empty();
            }
        }
        long result = 0;
        for (int i = 0; i < v.length - 1; i++) {
            if (v[i] > 255) {
                return OptionalLong.empty();
            }
            result |= v[i] << (24 - 8 * i);
        }
        long last = v[v.length - 1];
        long max = (1L << (8 * (4 - (v.length - 1)))) - 1;
        if (last > max) {
            return OptionalLong.empty();
        }
        return OptionalLong.of(result | last);
    }
}
