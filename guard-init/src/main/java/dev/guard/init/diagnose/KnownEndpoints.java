package dev.guard.init.diagnose;

import dev.guard.endpoint.Endpoint;
import dev.guard.endpoint.Endpoints;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The endpoints a host named in an error is checked against, each with where it came from. */
final class KnownEndpoints {
    /** host -> port (0: any port). */
    private final Map<String, Integer> hosts = new LinkedHashMap<>();
    private final Map<String, String> origins = new LinkedHashMap<>();

    /** Adds every host of {@code value} ({@code redis}, {@code redis:6379}, {@code redis://redis:6379/0}, {@code b1:9092,b2:9092}). */
    void add(String value, String origin) {
        List<Endpoint> parsed;
        try {
            parsed = Endpoints.parse(value.trim());
        } catch (IllegalArgumentException e) {
            return; // Diagnoser.Builder refused a bad --endpoint; a group name that does not parse names no host
        }
        for (Endpoint e : parsed) {
            add(Hosts.clean(e.host()), e.portGiven() ? e.port() : 0, origin);
        }
    }

    private void add(String host, int port, String origin) {
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
