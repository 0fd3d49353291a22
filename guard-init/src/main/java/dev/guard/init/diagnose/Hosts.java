package dev.guard.init.diagnose;

import dev.guard.endpoint.HostVerdict;
import dev.guard.endpoint.Loopback;
import java.util.Locale;

/** Host names as the rules compare them: loopback, IP literal, first DNS label. */
final class Hosts {
    private Hosts() {}

    static String clean(String host) {
        if (host == null) {
            return null;
        }
        String h = host.trim();
        if (h.startsWith("[") && h.endsWith("]")) {
            h = h.substring(1, h.length() - 1);
        }
        if (h.endsWith(".")) {
            h = h.substring(0, h.length() - 1);
        }
        return h.isEmpty() ? null : h.toLowerCase(Locale.ROOT);
    }

    static String withPort(String host, int port) {
        return (host.contains(":") ? "[" + host + "]" : host) + ":" + port;
    }

    /**
     * A host a drifted worker falls back to: loopback ({@code localhost}, {@code 127.1}, {@code ::1},
     * {@code 0.0.0.0} ...) or a placeholder ({@code None}, {@code null}): guard's one rule,
     * {@link HostVerdict}, as the config guard and the probes apply it.
     */
    static boolean isLoopback(String host) {
        return host != null && HostVerdict.of(host) != HostVerdict.SERVICE;
    }

    static boolean isIpLiteral(String host) {
        return Loopback.isIpLiteral(host);
    }

    /** redis.jobs.svc.cluster.local -> redis. */
    static String firstLabel(String host) {
        if (host == null || isIpLiteral(host)) {
            return host;
        }
        int dot = host.indexOf('.');
        return dot < 0 ? host : host.substring(0, dot);
    }
}
