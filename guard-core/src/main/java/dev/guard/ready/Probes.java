package dev.guard.ready;

import dev.guard.config.Redaction;
import dev.guard.endpoint.Endpoint;
import dev.guard.endpoint.Endpoints;
import dev.guard.endpoint.Scheme;
import dev.guard.ready.amqp.AmqpProbe;
import dev.guard.ready.kafka.KafkaProbe;
import dev.guard.ready.nats.NatsProbe;
import dev.guard.ready.net.HttpProbe;
import dev.guard.ready.net.TcpProbe;
import dev.guard.ready.redis.RedisClusterProbe;
import dev.guard.ready.redis.RedisProbe;
import dev.guard.ready.redis.RedisSentinelProbe;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Named factories for probes. The broker clients are optional dependencies: a factory for a
 * client that is not on the classpath throws {@link IllegalStateException} saying which
 * artifact to add ({@code add io.lettuce:lettuce-core to use redis:// and rediss:// targets ...});
 * nothing here loads a client class before that check.
 *
 * <p>{@link #forUrl(String)} never throws: a malformed URL, an unknown scheme or a missing
 * client yields a probe whose every check is {@link ProbeState#CONFIG} with that message, so a
 * gate reports it beside the other targets and stops without retrying. The typed factories
 * ({@link #redis(String)} ...) throw {@link IllegalArgumentException} for a malformed URL.
 */
public final class Probes {

    private Probes() {}

    /**
     * A probe from a URL:
     * <ul>
     * <li>{@code redis://[user:password@]host[:port][/db][?key=NAME&async-loading=ok]}, {@code rediss://...}</li>
     * <li>{@code redis-sentinel://[user:password@]host:26379[,host:26379][/db][?key=NAME]#master-name}
     *     (lettuce's form; {@code ?master=NAME} as other clients write it; {@code rediss-sentinel://} for TLS): see
     *     {@link RedisSentinelProbe}</li>
     * <li>{@code redis://[user:password@]host:port[,host:port]?cluster=true[&key=NAME]} (or {@code rediss://}): a
     *     Redis Cluster, the hosts its seeds: see {@link RedisClusterProbe}</li>
     * <li>{@code amqp://[user:password@]host[:port][/vhost][?queues=a,b&exchanges=x]}, {@code amqps://...}</li>
     * <li>{@code nats://[user:password@|token@]host[:port][?stream=NAME[&consumer=NAME]]}, {@code tls://...}</li>
     * <li>{@code kafka://host:port[,host:port][?topics=a,b&brokers=N&group=G&acks=all|1]}</li>
     * <li>{@code tcp://host:port}, {@code http(s)://...}</li>
     * </ul>
     * Never throws; see the class comment.
     */
    public static Probe forUrl(String url) {
        if (url == null || url.isBlank()) {
            return new ConfigProbe("unknown", "(empty)", "empty target URL (expected e.g. redis://redis:6379)");
        }
        String trimmed = url.trim();
        int sep = trimmed.indexOf("://");
        String scheme = sep <= 0 ? "" : trimmed.substring(0, sep).toLowerCase(Locale.ROOT);
        String kind = kindOf(scheme);
        String shown = Redaction.maskSettingValue(trimmed);
        if (scheme.equals("sentinel") || trimmed.matches("(?s)[A-Za-z][A-Za-z0-9+.\\-]*://[^;]*;\\s*[A-Za-z][A-Za-z0-9+.\\-]*://.*")) {
            // kombu's (Celery's) dialect: a ';' between failover URLs, sentinel:// with the master's name in transport options
            String hosts;
            try {
                hosts = Endpoints.parse(trimmed).stream().map(Endpoint::hostPort).distinct().collect(Collectors.joining(","));
            } catch (IllegalArgumentException e) {
                hosts = targetOf(trimmed);
            }
            return new ConfigProbe(scheme.equals("sentinel") ? "redis-sentinel" : kind == null ? scheme : kind, hosts,
                    "'" + shown + "' is kombu's (Celery's) " + (scheme.equals("sentinel")
                            ? "Sentinel URL: the master's name is in its broker_transport_options (master_name), not in the URL;"
                            + " for a readiness wait write redis-sentinel://host-a:26379,host-b:26379#<master_name>"
                            : "failover list (';' between URLs): wait for each URL as a target of its own"));
        }
        if (kind == null) {
            List<String> near = Scheme.nearMisses(scheme).stream().filter(n -> kindOf(n) != null).toList();
            return new ConfigProbe(sep <= 0 ? "unknown" : scheme, trimmed, "unknown scheme in '" + shown
                    + "': expected one of " + String.join(", ", Scheme.probedNames())
                    + (near.isEmpty() ? "" : "; did you mean " + String.join(" or ", near) + "?") + " (e.g. redis://redis:6379)");
        }
        if (!kind.equals("http") && trimmed.indexOf('@') >= 0) {
            // user info is parsed before the query and the fragment are cut off below: a raw '?' or '#' in a password
            // must be named as such, never split into a "host" or "port" that a message would quote
            try {
                Endpoints.parse(trimmed);
            } catch (IllegalArgumentException e) {
                return new ConfigProbe(scheme, trimmed, "malformed " + kind + " target '" + shown + "': " + e.getMessage());
            }
        }
        try {
            if (kind.equals("http")) {
                return HttpProbe.of(trimmed);
            }
            // a fragment names the Sentinel master (redis-sentinel://s1,s2#mymaster); the query may come before it.
            // Other kinds keep a '#' where it is: a raw one in a password is reported as such by the URL parser
            int hash = kind.equals("redis") && trimmed.lastIndexOf('@') < trimmed.indexOf('#') ? trimmed.indexOf('#') : -1;
            String fragment = hash < 0 ? "" : trimmed.substring(hash);
            String beforeFragment = hash < 0 ? trimmed : trimmed.substring(0, hash);
            int q = beforeFragment.indexOf('?');
            String base = q < 0 ? beforeFragment : beforeFragment.substring(0, q);
            Map<String, String> params = query(q < 0 ? "" : beforeFragment.substring(q + 1));
            switch (kind) {
                case "redis" -> {
                    String key = params.remove("key");
                    String asyncLoading = params.remove("async-loading");
                    if (asyncLoading != null && !asyncLoading.equalsIgnoreCase("ok") && !asyncLoading.equalsIgnoreCase("no")) {
                        throw new IllegalArgumentException("async-loading=" + asyncLoading + " is neither ok nor no");
                    }
                    boolean staleOk = "ok".equalsIgnoreCase(asyncLoading);
                    if (staleOk && (scheme.endsWith("-sentinel") || params.containsKey("cluster"))) {
                        throw new IllegalArgumentException("async-loading=ok is for one server (a replica); a Sentinel"
                                + " or Cluster target reaches masters, which do not load in the background");
                    }
                    if (scheme.endsWith("-sentinel")) {
                        // ?master=NAME (and master_name, masterName, service_name): other clients' spelling of lettuce's #NAME
                        for (String alias : Scheme.SENTINEL_MASTER_PARAMS) {
                            String named = params.remove(alias);
                            if (named != null && !named.isBlank() && fragment.isEmpty()) {
                                fragment = "#" + named;
                            }
                        }
                        RedisSentinelProbe.Builder b = RedisSentinelProbe.builder(rebuild(base, params) + fragment);
                        if (key != null) {
                            b.requireKey(key);
                        }
                        return b.build();
                    }
                    String cluster = params.remove("cluster");
                    if (cluster != null && !cluster.equalsIgnoreCase("false")) {
                        if (!cluster.equalsIgnoreCase("true") && !cluster.isEmpty()) {
                            throw new IllegalArgumentException("cluster=" + cluster + " is neither true nor false");
                        }
                        RedisClusterProbe.Builder b = RedisClusterProbe.builder(rebuild(base, params) + fragment);
                        if (key != null) {
                            b.requireKey(key);
                        }
                        return b.build();
                    }
                    RedisProbe.Builder b = RedisProbe.builder(rebuild(base, params) + fragment);
                    if (key != null) {
                        b.requireKey(key);
                    }
                    if (staleOk) {
                        b.acceptAsyncLoading();
                    }
                    return b.build();
                }
                case "amqp" -> {
                    String queues = params.remove("queues");
                    String exchanges = params.remove("exchanges");
                    AmqpProbe.Builder b = AmqpProbe.builder(rebuild(base, params));
                    if (queues != null) {
                        b.requireQueues(list(queues));
                    }
                    if (exchanges != null) {
                        b.requireExchanges(list(exchanges));
                    }
                    return b.build();
                }
                case "nats" -> {
                    String stream = params.remove("stream");
                    String consumer = params.remove("consumer");
                    NatsProbe.Builder b = NatsProbe.builder(rebuild(base, params));
                    if (stream != null) {
                        b.requireStream(stream);
                    }
                    if (consumer != null) {
                        b.requireConsumer(consumer);
                    }
                    return b.build();
                }
                case "kafka" -> {
                    String topics = params.remove("topics");
                    String brokers = params.remove("brokers");
                    String group = params.remove("group");
                    String acks = params.remove("acks");
                    KafkaProbe.Builder b = KafkaProbe.builder(base.substring(sep + 3));
                    if (group != null) {
                        b.group(group);
                    }
                    if (acks != null) {
                        b.acks(acks);
                    }
                    if (topics != null) {
                        b.requireTopics(list(topics));
                    }
                    if (brokers != null) {
                        try {
                            b.minBrokers(Integer.parseInt(brokers));
                        } catch (NumberFormatException e) {
                            throw new IllegalArgumentException("brokers=" + brokers + " is not a number");
                        }
                    }
                    params.forEach(b::property);
                    return b.build();
                }
                case "tcp" -> {
                    String hostPort = base.substring(sep + 3);
                    if (hostPort.endsWith("/")) {
                        hostPort = hostPort.substring(0, hostPort.length() - 1);
                    }
                    Endpoint hp = Endpoints.parseHostPort(hostPort, -1);
                    return TcpProbe.of(hp.host(), hp.port());
                }
                default -> throw new IllegalStateException("unreachable: " + kind);
            }
        } catch (IllegalArgumentException e) {
            String probeKind = scheme.endsWith("-sentinel") ? "redis-sentinel" : kind;
            return new ConfigProbe(probeKind, targetOf(trimmed), "malformed " + probeKind + " target '" + shown + "': "
                    + e.getMessage());
        } catch (IllegalStateException e) {
            return new ConfigProbe(scheme.endsWith("-sentinel") ? "redis-sentinel" : kind, targetOf(trimmed), e.getMessage());
        }
    }

    /** PING must answer PONG. @see RedisProbe */
    public static Probe redis(String uri) {
        return redisBuilder(uri).build();
    }

    public static RedisProbe.Builder redisBuilder(String uri) {
        return RedisProbe.builder(uri);
    }

    /** AMQP handshake and a channel. @see AmqpProbe */
    public static Probe amqp(String uri) {
        return amqpBuilder(uri).build();
    }

    public static AmqpProbe.Builder amqpBuilder(String uri) {
        return AmqpProbe.builder(uri);
    }

    /** Connect and PING/PONG. @see NatsProbe */
    public static Probe nats(String url) {
        return natsBuilder(url).build();
    }

    public static NatsProbe.Builder natsBuilder(String url) {
        return NatsProbe.builder(url);
    }

    /** Cluster metadata with a broker and a controller. @see KafkaProbe */
    public static Probe kafka(String bootstrapServers) {
        return kafkaBuilder(bootstrapServers).build();
    }

    public static KafkaProbe.Builder kafkaBuilder(String bootstrapServers) {
        return KafkaProbe.builder(bootstrapServers);
    }

    /** A TCP connect. */
    public static Probe tcp(String host, int port) {
        return TcpProbe.of(host, port);
    }

    /** An HTTP(S) GET that must answer 2xx. */
    public static Probe http(String url) {
        return HttpProbe.of(url);
    }

    /** Probes for several URLs ({@link #forUrl} each). */
    public static List<Probe> forUrls(List<String> urls) {
        List<Probe> out = new ArrayList<>();
        for (String u : urls) {
            out.add(forUrl(u));
        }
        return List.copyOf(out);
    }

    /** The probe family of a scheme guard probes ({@code rediss}: redis), from {@link Scheme}'s table; null for any other. */
    private static String kindOf(String scheme) {
        Scheme s = Scheme.of(scheme).filter(Scheme::probed).orElse(null);
        if (s == null) {
            return null;
        }
        if (s.broker() != null) {
            return switch (s.broker()) {
                case REDIS -> "redis";
                case RABBITMQ -> "amqp";
                case NATS -> "nats";
                case KAFKA -> "kafka";
            };
        }
        return s.name().startsWith("http") ? "http" : s.name();
    }

    /** host:port part of a URL for a CONFIG result's target (no user info, no query). */
    private static String targetOf(String url) {
        String s = url;
        int sep = s.indexOf("://");
        if (sep >= 0) {
            s = s.substring(sep + 3);
        }
        int at = s.lastIndexOf('@');
        if (at >= 0) {
            s = s.substring(at + 1);
        }
        int end = s.length();
        for (char c : new char[] {'/', '?', '#'}) {
            int i = s.indexOf(c);
            if (i >= 0 && i < end) {
                end = i;
            }
        }
        s = s.substring(0, end);
        return s.isEmpty() ? "(no host)" : s;
    }

    private static Map<String, String> query(String q) {
        Map<String, String> out = new LinkedHashMap<>();
        if (q.isEmpty()) {
            return out;
        }
        for (String pair : q.split("&")) {
            if (pair.isEmpty()) {
                continue;
            }
            int eq = pair.indexOf('=');
            String k = URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8);
            String v = eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8);
            out.put(k, v);
        }
        return out;
    }

    private static String rebuild(String base, Map<String, String> rest) {
        if (rest.isEmpty()) {
            return base;
        }
        StringBuilder sb = new StringBuilder(base).append('?');
        rest.forEach((k, v) -> sb.append(k).append('=').append(v).append('&'));
        sb.setLength(sb.length() - 1);
        return sb.toString();
    }

    private static String[] list(String csv) {
        return java.util.Arrays.stream(csv.split(",")).map(String::trim).filter(s -> !s.isEmpty())
                .toArray(String[]::new);
    }
}
