package dev.guard.config.internal;

import dev.guard.config.Durations;
import dev.guard.config.Redaction;
import dev.guard.config.SettingType;
import dev.guard.config.Severity;
import dev.guard.config.Violation;
import dev.guard.endpoint.Broker;
import dev.guard.endpoint.Endpoint;
import dev.guard.endpoint.Endpoints;
import dev.guard.endpoint.Scheme;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.stream.Collectors;

/**
 * MALFORMED: the value must parse as what it is checked as (URL, host list, host, integer,
 * duration, port). URLs and host lists are parsed by {@link Endpoints}; a scheme one edit away from
 * a known one ({@code htp}) is a typo, and a name that names a broker ({@code REDIS_URL}) must carry
 * one of that broker's schemes.
 */
public final class TypeRule {

    /** Schemes a broker's clients read beyond the broker's own (plain TCP, unix sockets, Heroku's kafka+ssl). */
    private static final java.util.Map<Broker, List<String>> ALSO_READ = java.util.Map.of(
            Broker.REDIS, List.of("tcp", "unix"),
            Broker.RABBITMQ, List.of("tcp"),
            Broker.NATS, List.of("tcp", "ws", "wss"),
            Broker.KAFKA, List.of("tcp", "kafka+ssl", "kafka+plaintext"));

    private TypeRule() {}

    /**
     * Checks the value's form, reporting each fault.
     *
     * @return the endpoints the value names (for the loopback and placeholder rules), or {@code null}
     *         when it names none or did not parse
     */
    public static List<Endpoint> check(Subject s, Consumer<Violation> out) {
        String v = s.value().trim();
        SettingType type = s.check().type();
        switch (type) {
            case URL, HOST_LIST -> {
                List<Endpoint> endpoints;
                try {
                    endpoints = Endpoints.parse(v);
                } catch (IllegalArgumentException e) {
                    malformed(s, e.getMessage(), out);
                    return null;
                }
                List<String> faults = new ArrayList<>();
                for (Endpoint e : endpoints) {
                    if (type == SettingType.URL && e.scheme() == null) {
                        faults.add("'" + e.hostPort() + "' has no scheme");
                    }
                }
                Optional<Broker> named = surelyNamed(s);
                faults.addAll(schemeFaults(s, named, endpoints));
                faults.addAll(sentinelFaults(v, endpoints));
                if (!faults.isEmpty()) {
                    malformed(s, faults.stream().distinct().collect(Collectors.joining("; ")), out);
                }
                if (named.orElse(null) == Broker.KAFKA) {
                    kafkaPorts(s, endpoints, out);
                }
                return endpoints;
            }
            case HOST -> {
                return host(s, v, out);
            }
            case INT -> {
                try {
                    Integer.parseInt(v);
                } catch (NumberFormatException e) {
                    malformed(s, "'" + v + "' is not a whole number", out);
                }
                return null;
            }
            case PORT -> {
                port(s, v, out);
                return null;
            }
            case DURATION -> {
                try {
                    Durations.parse(v);
                } catch (IllegalArgumentException e) {
                    malformed(s, e.getMessage(), out);
                }
                return null;
            }
            case STRING -> {
                // a listen address binds 0.0.0.0 on purpose; any other string with a scheme is still checked for loopback
                // any string is a valid STRING: one that does not parse names no endpoint
                return v.contains("://") && !Inference.LISTEN_ADDRESS.equals(s.check().because()) ? tryParse(v) : null;
            }
            default -> throw new IllegalStateException("unknown type " + type);
        }
    }

    /** {@code ?master=NAME}, {@code &master_name=NAME} ...: the master named in the query, as other clients write it. */
    private static final java.util.regex.Pattern MASTER_QUERY =
            java.util.regex.Pattern.compile("[?&](?:" + String.join("|", Scheme.SENTINEL_MASTER_PARAMS) + ")=[^&#]+");

    /**
     * A Sentinel URL must name the master the sentinels monitor ({@code #mymaster}, lettuce's
     * {@code ?sentinelMasterId=mymaster}, or {@code ?master=mymaster} as other clients write it):
     * without it no client knows which master to ask for. kombu's {@code sentinel://} takes the
     * name from its transport options, so it is not asked for there.
     */
    private static List<String> sentinelFaults(String value, List<Endpoint> endpoints) {
        boolean sentinel = endpoints.stream().anyMatch(e -> e.scheme() != null && e.scheme().endsWith("-sentinel"));
        if (!sentinel) {
            return List.of();
        }
        int hash = value.indexOf('#');
        boolean named = (hash >= 0 && hash < value.length() - 1) || value.contains("sentinelMasterId=")
                || MASTER_QUERY.matcher(value).find();
        return named ? List.of() : List.of("a Sentinel URL must name the master the sentinels monitor: add '#' and its name"
                + " (redis-sentinel://s1:26379,s2:26379#mymaster, or ?master=mymaster; the name in `sentinel monitor <name> ...`)");
    }

    private static List<String> schemeFaults(Subject s, Optional<Broker> named, List<Endpoint> endpoints) {
        List<String> faults = new ArrayList<>();
        for (Endpoint e : endpoints) {
            if (e.scheme() == null) {
                continue;
            }
            String scheme = e.scheme();
            if (named.isPresent() && !reads(named.get(), scheme)) {
                Broker b = named.get();
                faults.add(s.name() + " names " + b.product() + ", but '" + scheme
                        + "://' is not a scheme its clients read (" + schemes(b) + ")");
                continue;
            }
            List<String> near = Scheme.nearMisses(scheme);
            if (!near.isEmpty()) {
                faults.add("'" + scheme + "' is not a URL scheme guard knows; did you mean " + String.join(" or ", near) + "?");
            }
        }
        return faults;
    }

    /**
     * The broker the setting is about beyond doubt: its name has the broker's word and otherwise
     * only endpoint and framework words ({@code REDIS_URL}, {@code SPRING_DATA_REDIS_URL},
     * {@code KAFKA_BOOTSTRAP_SERVERS}). {@code KAFKA_REST_URL} or {@code RABBITMQ_MANAGEMENT_URL}
     * name another service of the broker (HTTP), and {@code CACHE_URL} may be Memcached.
     */
    static Optional<Broker> surelyNamed(Subject s) {
        for (String n : List.of(s.name(), s.setName())) {
            Optional<Broker> b = Broker.ofName(n);
            if (b.isPresent() && b.get().namedSurelyBy(n) && Names.onlyEndpointWordsBesides(n, b.get().nameWords())) {
                return b;
            }
        }
        return Optional.empty();
    }

    private static boolean reads(Broker b, String scheme) {
        return b.schemes().contains(scheme) || ALSO_READ.get(b).contains(scheme);
    }

    private static String schemes(Broker b) {
        return b.schemes().stream().map(x -> x + "://").collect(Collectors.joining(", "));
    }

    /** Kafka's bootstrap.servers needs a port on every entry; its clients refuse a bare host. */
    private static void kafkaPorts(Subject s, List<Endpoint> endpoints, Consumer<Violation> out) {
        List<String> bare = endpoints.stream().filter(e -> e.scheme() == null && !e.portGiven()).map(Endpoint::hostPort).toList();
        if (!bare.isEmpty()) {
            malformed(s, "Kafka clients need host:port for every bootstrap server, and " + String.join(", ", bare)
                    + (bare.size() == 1 ? " has" : " have") + " no port", out);
        }
    }

    private static List<Endpoint> host(Subject s, String v, Consumer<Violation> out) {
        if (v.startsWith("/")) {
            return null; // a unix socket directory (libpq's DB_HOST=/var/run/postgresql): local by design, no host to check
        }
        if (v.contains("://")) {
            malformed(s, "it holds a URL, but a host setting takes only the host name", out);
            return tryParse(v);
        }
        if (v.contains(",")) {
            malformed(s, "it holds a list, but a host setting takes one host name", out);
            return tryParse(v);
        }
        List<Endpoint> endpoints;
        try {
            endpoints = Endpoints.parse(v);
        } catch (IllegalArgumentException e) {
            malformed(s, e.getMessage(), out);
            return null;
        }
        Endpoint e = endpoints.get(0);
        if (e.user() != null) {
            malformed(s, "it holds user info before '@', but a host setting takes only the host name", out);
        } else if (e.portGiven()) {
            String portName = s.setName().toUpperCase(Locale.ROOT).endsWith("_HOST")
                    ? s.setName().substring(0, s.setName().length() - 5) + "_PORT" : "the port setting";
            out.accept(new Violation(s.name(), Violation.Rule.MALFORMED, Severity.WARNING, s.origin(), s.found(),
                    s.name() + " holds host:port (" + e.hostPort() + ")" + s.inferredNote()
                            + "; a client that adds its own port will connect to " + e.hostPort() + ":" + e.port(),
                    "set " + s.setName() + " to the host alone (" + e.host() + ") and the port in " + portName
                            + ", unless this worker reads host:port from it"));
        }
        return endpoints;
    }

    private static List<Endpoint> tryParse(String v) {
        try {
            return Endpoints.parse(v);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    private static void port(Subject s, String v, Consumer<Violation> out) {
        if (v.matches("(?i)tcp://.*:\\d+")) {
            // Kubernetes' service links: a Service named "redis" sets REDIS_PORT=tcp://10.96.0.12:6379 in every pod
            malformed(s, "'" + Redaction.maskText(v) + "' is a Kubernetes service link (a Service named like this setting's "
                    + "prefix sets it in every pod), not a port", out, "set enableServiceLinks: false in the pod spec, or name "
                    + "the port setting differently; then set " + s.setName() + Wording.example(s.setName(), SettingType.PORT));
            return;
        }
        try {
            int p = Integer.parseInt(v);
            if (p < 1 || p > 65535) {
                malformed(s, "port " + p + " is out of range 1-65535", out);
            }
        } catch (NumberFormatException e) {
            malformed(s, "'" + v + "' is not a port number", out);
        }
    }

    private static void malformed(Subject s, String problem, Consumer<Violation> out) {
        malformed(s, problem, out, "fix " + s.setName() + Wording.example(s.setName(), s.check().type()));
    }

    private static void malformed(Subject s, String problem, Consumer<Violation> out, String action) {
        out.accept(new Violation(s.name(), Violation.Rule.MALFORMED, Severity.ERROR, s.origin(), s.found(),
                s.name() + " is not a valid " + s.check().type().word() + (s.check().inferred() ? " (inferred: " + s.check().because() + ")" : "")
                        + ": " + (s.secret() ? "the value does not parse (not shown: it is a secret)" : Redaction.maskText(problem)),
                action));
    }
}
