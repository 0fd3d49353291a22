package dev.guard.endpoint;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
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
 * guard's one loopback rule: which hosts can only reach this machine (or, in a container, the
 * container itself). The config guard, the probes and diagnose all use it.
 *
 * <p>Loopback by spelling: {@code localhost} in any case, with a trailing dot,
 * {@code *.localhost}, {@code localhost.localdomain}, {@code ip6-localhost}, {@code ip6-loopback};
 * any 127.0.0.0/8 address in any spelling the C resolver accepts ({@code 127.1},
 * {@code 0x7f.0.0.1}, {@code 2130706433}, {@code 0177.0.0.1}); {@code ::1}, {@code [::1]},
 * {@code ::ffff:127.0.0.1}; the wildcard addresses {@code 0.0.0.0} and {@code ::}.
 * {@link #hosts(Collection, Duration)} adds the names whose lookup returns only loopback
 * addresses; diagnose, which reads hosts from another machine's logs, uses the spelling alone.
 */
public final class Loopback {

    /** How long a name lookup may take before the name counts as not loopback. */
    public static final Duration DEFAULT_LOOKUP_TIMEOUT = Duration.ofMillis(1500);

    static final Pattern HOST_NAME = Pattern.compile("[A-Za-z0-9_](?:[A-Za-z0-9_.\\-]*[A-Za-z0-9_.])?");

    private static final List<String> NAMES = List.of(
            "localhost", "localhost.localdomain", "localhost4", "localhost4.localdomain4",
            "localhost6", "localhost6.localdomain6", "ip6-localhost", "ip6-loopback");

    private static final ExecutorService LOOKUPS = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "guard-loopback-lookup");
        t.setDaemon(true);
        return t;
    });

    private Loopback() {}

    /** True when {@code host} is loopback by its spelling alone (see the class comment). */
    public static boolean bySpelling(String host) {
        return Boolean.TRUE.equals(withoutLookup(host));
    }

    /** {@link #isLoopback(String, Duration)} with {@link #DEFAULT_LOOKUP_TIMEOUT}. */
    public static boolean isLoopback(String host) {
        return isLoopback(host, DEFAULT_LOOKUP_TIMEOUT);
    }

    /** Loopback by spelling, or a name whose lookup (bounded by {@code lookupTimeout}) returns only loopback addresses. */
    public static boolean isLoopback(String host, Duration lookupTimeout) {
        String h = host == null ? "" : host;
        return hosts(List.of(h), lookupTimeout).contains(h);
    }

    /**
     * The hosts of {@code hosts} that are loopback by spelling or by lookup. The lookups run in
     * parallel and share one deadline, so a list of names costs at most {@code lookupTimeout}; a
     * name that does not resolve (or not in time) is not loopback.
     */
    public static Set<String> hosts(Collection<String> hosts, Duration lookupTimeout) {
        long deadline = System.nanoTime() + Math.max(1, lookupTimeout.toNanos());
        Set<String> loopback = new LinkedHashSet<>();
        Map<String, CompletableFuture<InetAddress[]>> lookups = new LinkedHashMap<>();
        for (String host : hosts) {
            Boolean literal = withoutLookup(host);
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
                e.getValue().cancel(true);
            } catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        return Set.copyOf(loopback);
    }

    /**
     * True when something accepts a TCP connection at {@code host:port} on this machine (or in
     * this container): a sidecar in the same pod, a server under host networking, a port
     * published into a development container. Tries each address {@code host} resolves to, else
     * 127.0.0.1 and ::1 (for spellings the JDK does not resolve, such as {@code 127.1}); each
     * attempt is bounded by {@code timeout}. Only meaningful for a loopback host: a loopback
     * connection is accepted or refused at once.
     */
    public static boolean answers(String host, int port, Duration timeout) {
        if (port <= 0 || port > 65535) {
            return false;
        }
        List<InetAddress> targets = new ArrayList<>();
        try {
            for (InetAddress a : InetAddress.getAllByName(normalize(host))) {
                if (a.isLoopbackAddress() || a.isAnyLocalAddress()) {
                    targets.add(a);
                }
            }
        } catch (UnknownHostException | RuntimeException e) {
            // a spelling the JDK does not take: the usual loopback addresses below
        }
        if (targets.isEmpty()) {
            targets.add(InetAddress.getLoopbackAddress());
            try {
                targets.add(InetAddress.getByName("::1"));
            } catch (UnknownHostException e) {
                // no IPv6 here
            }
        }
        int millis = (int) Math.max(1, Math.min(Integer.MAX_VALUE, timeout.toMillis()));
        for (InetAddress a : targets) {
            try (Socket s = new Socket()) {
                s.connect(new InetSocketAddress(a, port), millis);
                return true;
            } catch (IOException e) {
                // refused, or nothing within the timeout: try the next address
            }
        }
        return false;
    }

    /**
     * The verdict that needs no lookup: {@code TRUE}/{@code FALSE} for loopback names and IP
     * literals, {@code null} for a host name that would have to be resolved.
     */
    public static Boolean withoutLookup(String host) {
        if (host == null) {
            return false;
        }
        String h = normalize(host);
        if (h.isEmpty()) {
            return false;
        }
        if (NAMES.contains(h) || h.endsWith(".localhost")) {
            return true;
        }
        if (h.indexOf(':') >= 0) {
            if (!Endpoints.isIpv6Literal(h)) {
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

    /** True for an IPv4 literal (any inet_aton spelling) or an IPv6 literal, bracketed or not. */
    public static boolean isIpLiteral(String host) {
        if (host == null) {
            return false;
        }
        String h = normalize(host);
        return h.indexOf(':') >= 0 ? Endpoints.isIpv6Literal(h) : ipv4(h, true).isPresent();
    }

    private static boolean isLoopbackV4(OptionalLong v) {
        return v.isPresent() && ((v.getAsLong() >>> 24) == 127 || v.getAsLong() == 0);
    }

    /** Lower case, without brackets, IPv6 zone or trailing dots. */
    static String normalize(String host) {
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
