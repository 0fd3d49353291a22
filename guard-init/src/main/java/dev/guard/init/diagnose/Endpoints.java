package dev.guard.init.diagnose;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The endpoints a host named in an error is checked against, each with where it came from. */
final class Endpoints {
    /** host -> port (0: any port). */
    private final Map<String, Integer> hosts = new LinkedHashMap<>();
    private final Map<String, String> origins = new LinkedHashMap<>();

    void add(String hostPort, String origin) {
        String h = hostPort.trim();
        int port = 0;
        int colon = h.lastIndexOf(':');
        if (colon > 0 && h.indexOf(':') == colon && h.substring(colon + 1).matches("\\d{1,5}")) {
            port = Integer.parseInt(h.substring(colon + 1));
            h = h.substring(0, colon);
        } else if (h.startsWith("[") && h.contains("]:") && h.substring(h.indexOf("]:") + 2).matches("\\d{1,5}")) {
            port = Integer.parseInt(h.substring(h.indexOf("]:") + 2));
            h = h.substring(0, h.indexOf("]:") + 1);
        }
        String host = Hosts.clean(h);
        if (host == null) {
            return;
        }
        Integer old = hosts.get(host);
        if (old == null) {
            hosts.put(host, port);
            origins.put(host, origin);
        } else if (old != 0 && port != 0 && old != port) {
            hosts.put(host, 0);
        }
    }

    boolean isEmpty() {
        return hosts.isEmpty();
    }

    /** True when host (and port, if the endpoint names one) matches a known endpoint, by full name or first DNS label. */
    boolean matches(String host, int port) {
        if (host == null) {
            return false;
        }
        for (Map.Entry<String, Integer> e : hosts.entrySet()) {
            String known = e.getKey();
            boolean hostMatch = known.equals(host) || Hosts.firstLabel(known).equals(Hosts.firstLabel(host))
                    && !Hosts.isIpLiteral(host);
            if (hostMatch && (e.getValue() == 0 || port == 0 || e.getValue() == port)) {
                return true;
            }
        }
        return false;
    }

    List<String> describe() {
        List<String> out = new ArrayList<>();
        for (Map.Entry<String, Integer> e : hosts.entrySet()) {
            String hp = e.getValue() == 0 ? e.getKey() : Hosts.withPort(e.getKey(), e.getValue());
            out.add(hp + " (" + origins.get(e.getKey()) + ")");
        }
        return out;
    }
}
