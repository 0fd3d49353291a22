package dev.guard.init.diagnose;

import java.util.Locale;
import java.util.regex.Pattern;

/** Host names as the rules compare them: loopback, IP literal, first DNS label. */
final class Hosts {
    private static final Pattern IPV4 = Pattern.compile("\\d{1,3}(\\.\\d{1,3}){3}");

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

    /** localhost, 127.0.0.0/8, ::1, 0.0.0.0 and Python's None: the defaults a drifted worker falls back to. */
    static boolean isLoopback(String host) {
        if (host == null) {
            return false;
        }
        String h = clean(host);
        return h.equals("localhost") || h.startsWith("localhost.") || h.equals("ip6-localhost")
                || h.startsWith("127.") || h.equals("::1") || h.equals("0:0:0:0:0:0:0:1")
                || h.equals("0.0.0.0") || h.equals("none") || h.equals("null");
    }

    static boolean isIpLiteral(String host) {
        return host != null && (IPV4.matcher(host).matches() || host.contains(":"));
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
