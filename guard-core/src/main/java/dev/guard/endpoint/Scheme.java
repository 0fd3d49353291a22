package dev.guard.endpoint;

import dev.guard.config.internal.Names;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * A URL scheme guard knows by name: its default port, the broker it means (if any), whether a
 * readiness probe speaks it, and whether its URLs may have no host ({@code sqlite:///app.db}).
 * Any other syntactically valid scheme is accepted too ({@link Endpoints} checks its host and
 * port just the same); this table only adds defaults and recognises near-miss spellings
 * ({@code htp}) as typos.
 *
 * @param name        lower case ({@code rediss})
 * @param defaultPort the port a URL without one means, {@code -1} when there is none
 * @param broker      the broker the scheme means, or {@code null} (http, postgres, ...)
 * @param probed      true when {@code Probes.forUrl} has a probe for it
 * @param hostless    true when a URL of this scheme may have an empty host (a file or socket path, libpq's {@code postgresql:///app})
 */
public record Scheme(String name, int defaultPort, Broker broker, boolean probed, boolean hostless) {

    /**
     * Query parameters that name a Sentinel master as lettuce's {@code #NAME} does:
     * {@code ?master=} (node-redis-sentinel-url style URLs), {@code master_name} (go-redis's
     * failover options, kombu's transport option), {@code masterName}, {@code service_name}.
     */
    public static final List<String> SENTINEL_MASTER_PARAMS = List.of("master", "master_name", "masterName", "service_name");

    private static final Map<String, Scheme> TABLE = new LinkedHashMap<>();

    static {
        probed("redis", 6379, Broker.REDIS);
        probed("rediss", 6379, Broker.REDIS);
        probed("redis-sentinel", 26379, Broker.REDIS);
        probed("rediss-sentinel", 26379, Broker.REDIS);
        hostless("redis-socket", -1, Broker.REDIS);
        // kombu (Celery): sentinel://s1:26379;sentinel://s2:26379, the master's name in the broker's transport options
        known("sentinel", 26379, Broker.REDIS);
        probed("amqp", 5672, Broker.RABBITMQ);
        probed("amqps", 5671, Broker.RABBITMQ);
        probed("nats", 4222, Broker.NATS);
        probed("tls", 4222, Broker.NATS);
        probed("kafka", 9092, Broker.KAFKA);
        // Kafka's security-protocol prefixes, accepted in bootstrap.servers
        known("plaintext", 9092, Broker.KAFKA);
        known("ssl", 9093, Broker.KAFKA);
        known("sasl_plaintext", 9092, Broker.KAFKA);
        known("sasl_ssl", 9093, Broker.KAFKA);
        probed("tcp", -1, null);
        probed("http", 80, null);
        probed("https", 443, null);
        // not probed, but common in a worker's environment; listed for their default ports and so
        // that a near-miss of one of them reads as a typo
        for (Object[] s : new Object[][] {
            {"mysql", 3306}, {"mariadb", 3306}, {"mongodb", 27017},
            {"mongodb+srv", -1}, {"mssql", 1433}, {"sqlserver", 1433}, {"oracle", 1521}, {"cockroachdb", 26257},
            {"memcached", 11211}, {"memcache", 11211}, {"elasticsearch", 9200}, {"opensearch", 9200},
            {"mqtt", 1883}, {"mqtts", 8883}, {"stomp", 61613}, {"stomp+ssl", 61614}, {"activemq", 61616},
            {"pulsar", 6650}, {"pulsar+ssl", 6651}, {"zookeeper", 2181}, {"etcd", 2379}, {"consul", 8500},
            {"ws", 80}, {"wss", 443}, {"grpc", -1}, {"grpcs", -1}, {"dns", 53}, {"ldap", 389}, {"ldaps", 636},
            {"smtp", 25}, {"smtps", 465}, {"imap", 143}, {"imaps", 993}, {"ftp", 21}, {"sftp", 22}, {"ssh", 22},
            {"s3", -1}, {"gs", -1}, {"udp", -1}, {"statsd", 8125}, {"sentry", -1}, {"clickhouse", 9000},
            {"cassandra", 9042}, {"neo4j", 7687}, {"bolt", 7687}, {"couchbase", 8091}, {"influxdb", 8086},
            {"jdbc", -1}, {"rtmp", 1935}, {"git", 9418}}) {
            known((String) s[0], (Integer) s[1], null);
        }
        // Galera's group communication: gcomm:// with no members bootstraps a new cluster
        hostless("gcomm", 4567, null);
        for (String s : List.of("file", "unix", "sqlite", "sqlite3", "http+unix", "npipe")) {
            hostless(s, -1, null);
        }
        // libpq: postgresql:///app is the local socket
        hostless("postgres", 5432, null);
        hostless("postgresql", 5432, null);
    }

    private static void probed(String name, int port, Broker broker) {
        TABLE.put(name, new Scheme(name, port, broker, true, false));
    }

    private static void known(String name, int port, Broker broker) {
        TABLE.put(name, new Scheme(name, port, broker, false, false));
    }

    private static void hostless(String name, int port, Broker broker) {
        TABLE.put(name, new Scheme(name, port, broker, false, true));
    }

    /** The known scheme of that name (any case; {@code jdbc:postgresql} is {@code postgresql}), if guard knows it. */
    public static Optional<Scheme> of(String name) {
        if (name == null) {
            return Optional.empty();
        }
        String n = name.toLowerCase(Locale.ROOT);
        return Optional.ofNullable(TABLE.get(n.startsWith("jdbc:") ? n.substring(5) : n));
    }

    /** The schemes {@code Probes.forUrl} has a probe for, in a stable order for messages. */
    public static List<String> probedNames() {
        return TABLE.values().stream().filter(Scheme::probed).map(Scheme::name).toList();
    }

    /**
     * The known schemes that {@code name}, which guard does not know, is probably a misspelling of
     * ({@code htp}: {@code http, ftp}; {@code reddis}: {@code redis}): those one edit away, the
     * probed ones first. Empty for a scheme guard knows, and for one near nothing.
     */
    public static List<String> nearMisses(String name) {
        if (name == null || of(name).isPresent()) {
            return List.of();
        }
        String n = name.toLowerCase(Locale.ROOT);
        if (n.length() < 3) {
            return List.of();
        }
        return TABLE.values().stream().filter(k -> Names.distance(n, k.name()) == 1)
                .sorted(java.util.Comparator.comparing(k -> !k.probed())).map(Scheme::name).toList();
    }
}
