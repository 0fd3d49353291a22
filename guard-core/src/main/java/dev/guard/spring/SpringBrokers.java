package dev.guard.spring;

import dev.guard.config.PropertyLookup;
import dev.guard.config.SettingType;
import dev.guard.config.Setting;
import dev.guard.endpoint.Endpoints;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.util.ClassUtils;

/**
 * The brokers a Spring Boot worker connects to, read from Spring's own connection properties the
 * way Spring Boot reads them, defaults included: {@code spring.data.redis.*},
 * {@code spring.rabbitmq.*}, {@code spring.kafka.bootstrap-servers}, and for NATS
 * {@code guard.nats.url} or {@code nats.spring.server}. Each becomes one setting for the config
 * check (named after the property group, with the origins of the properties it was built from)
 * and one target URL for the readiness gate and the health contributors.
 */
final class SpringBrokers {

    /** The broker names {@code guard.brokers} takes, with the Spring client class that makes one "in use". */
    static final Map<String, String> CLIENTS = Map.of(
            "redis", "org.springframework.data.redis.connection.RedisConnectionFactory",
            "rabbitmq", "org.springframework.amqp.rabbit.connection.ConnectionFactory",
            "kafka", "org.springframework.kafka.core.KafkaTemplate");

    /**
     * One broker as Spring Boot would connect to it.
     *
     * @param broker  {@code redis}, {@code rabbitmq}, {@code kafka}, {@code nats}
     * @param setting the name the config check reports it under ({@code spring.data.redis})
     * @param type    what the setting is checked as
     * @param found   its value (a URL, or Kafka's host list) and where each part came from
     * @param target  the URL guard's probes take
     */
    record Broker(String broker, String setting, SettingType type, PropertyLookup.Found found, String target) {}

    private SpringBrokers() {}

    /**
     * The brokers named by {@code guard.brokers}, or in use when it is empty.
     *
     * @throws GuardStartupException when {@code guard.brokers} names a broker guard does not know
     */
    static List<Broker> of(ConfigurableEnvironment env, GuardProperties props, ClassLoader loader) {
        SpringPropertyLookup lookup = new SpringPropertyLookup(env);
        Set<String> names = new LinkedHashSet<>();
        for (String b : props.getBrokers()) {
            names.add(b.trim().toLowerCase(Locale.ROOT));
        }
        if (names.isEmpty()) {
            for (Map.Entry<String, String> e : new java.util.TreeMap<>(CLIENTS).entrySet()) {
                if (ClassUtils.isPresent(e.getValue(), loader)) {
                    names.add(e.getKey());
                }
            }
            if (props.getNats().getUrl() != null || env.containsProperty("nats.spring.server")) {
                names.add("nats");
            }
        }
        names.remove("none");
        List<Broker> out = new ArrayList<>();
        for (String name : names) {
            switch (name) {
                case "redis" -> out.add(redis(lookup));
                case "rabbitmq", "rabbit", "amqp" -> out.add(rabbit(lookup, props.getRabbitmq().getQueues()));
                case "kafka" -> out.add(kafka(lookup, props.getKafka().getTopics()));
                case "nats" -> {
                    Broker n = nats(lookup);
                    if (n != null) {
                        out.add(n);
                    }
                }
                default -> throw GuardStartupException.setting("guard.brokers", origin(lookup, "guard.brokers"),
                        String.join(", ", props.getBrokers()), "names '" + name + "': expected redis, rabbitmq, kafka, nats or none",
                        "name only the brokers this application uses (redis, rabbitmq, kafka, nats), or none for no broker;"
                                + " leave guard.brokers unset to have guard find them from the Spring clients on the class path");
            }
        }
        return out;
    }

    // ---- Redis: spring.data.redis.url, else sentinel, else cluster, else host/port ----

    static Broker redis(PropertyLookup lookup) {
        Parts p = new Parts(lookup, "spring.data.redis");
        String url = p.get("url", null);
        if (url != null) {
            return p.broker("redis", SettingType.URL, url, url);
        }
        boolean ssl = Boolean.parseBoolean(p.get("ssl.enabled", "false"));
        String user = p.get("username", null);
        String password = p.get("password", null);
        String db = p.get("database", "0");
        String credentials = credentials(user, password);
        String master = p.get("sentinel.master", null);
        if (master != null) {
            String nodes = p.get("sentinel.nodes", "localhost:26379");
            String u = (ssl ? "rediss-sentinel://" : "redis-sentinel://") + credentials + nodes.replace(" ", "")
                    + (db.equals("0") ? "" : "/" + db) + "#" + master;
            return p.broker("redis", SettingType.URL, u, u);
        }
        String cluster = p.get("cluster.nodes", null);
        if (cluster != null) {
            String u = (ssl ? "rediss://" : "redis://") + credentials + cluster.replace(" ", "") + "?cluster=true";
            return p.broker("redis", SettingType.URL, u, u);
        }
        String host = p.get("host", "localhost");
        String port = p.get("port", "6379");
        String u = (ssl ? "rediss://" : "redis://") + credentials + host + ":" + port + (db.equals("0") ? "" : "/" + db);
        return p.broker("redis", SettingType.URL, u, u);
    }

    // ---- RabbitMQ: spring.rabbitmq.addresses (the first), else host/port/username/password/virtual-host ----

    static Broker rabbit(PropertyLookup lookup, List<String> queues) {
        String query = query("queues", queues);
        Parts p = new Parts(lookup, "spring.rabbitmq");
        boolean ssl = Boolean.parseBoolean(p.get("ssl.enabled", "false"));
        String user = p.get("username", "guest");
        String password = p.get("password", "guest");
        String vhost = p.get("virtual-host", null);
        String addresses = p.get("addresses", null);
        String hostPort;
        String credentials = credentials(user, password);
        if (addresses != null) {
            String first = Endpoints.entries(addresses).get(0).trim();
            if (first.contains("://")) {
                String u = first.replaceFirst("^amqps?://", first.startsWith("amqps") || ssl ? "amqps://" : "amqp://");
                return p.broker("rabbitmq", SettingType.URL, u, u + query);
            }
            int at = first.lastIndexOf('@');
            if (at >= 0) { // user:pass@host:port, which Spring's addresses allow: its own credentials win
                credentials = first.substring(0, at + 1);
                first = first.substring(at + 1);
            }
            hostPort = first.contains(":") ? first : first + ":" + (ssl ? 5671 : 5672);
        } else {
            hostPort = p.get("host", "localhost") + ":" + p.get("port", ssl ? "5671" : "5672");
        }
        String path = vhost == null || vhost.equals("/") ? "" : "/" + URLEncoder.encode(vhost, StandardCharsets.UTF_8);
        String u = (ssl ? "amqps://" : "amqp://") + credentials + hostPort + path;
        return p.broker("rabbitmq", SettingType.URL, u, u + query);
    }

    // ---- Kafka: spring.kafka.consumer.bootstrap-servers, else spring.kafka.bootstrap-servers; guard.kafka.topics; spring.kafka.consumer.group-id ----

    static Broker kafka(PropertyLookup lookup, List<String> topics) {
        String query = query("topics", topics);
        // the listener containers' group: its coordinator must answer before they start
        PropertyLookup.Found groupId = lookup.find("spring.kafka.consumer.group-id");
        if (groupId != null && groupId.value() != null && !groupId.value().isBlank()) {
            query += (query.isEmpty() ? "?" : "&") + "group="
                    + URLEncoder.encode(groupId.value().trim(), StandardCharsets.UTF_8);
        }
        Parts consumer = new Parts(lookup, "spring.kafka.consumer");
        String servers = consumer.list("bootstrap-servers");
        if (servers != null) {
            return consumer.broker("kafka", SettingType.HOST_LIST, servers, "kafka://" + servers + query);
        }
        Parts p = new Parts(lookup, "spring.kafka");
        servers = p.list("bootstrap-servers");
        if (servers == null) {
            servers = "localhost:9092";
        }
        return p.broker("kafka", SettingType.HOST_LIST, servers, "kafka://" + servers + query);
    }

    // ---- NATS: guard.nats.url, else nats.spring.server (the nats-spring library's property) ----

    static Broker nats(PropertyLookup lookup) {
        for (String prop : List.of("guard.nats.url", "nats.spring.server")) {
            PropertyLookup.Found f = lookup.find(prop);
            if (f != null) {
                String v = f.value() == null ? "" : f.value().split(",")[0].trim();
                String u = v.contains("://") ? v : "nats://" + v;
                return new Broker("nats", prop, SettingType.URL, f, u);
            }
        }
        return null;
    }

    /** {@code ?name=a,b} for the non-blank names, URL-encoded; empty for none. */
    private static String query(String name, List<String> values) {
        List<String> named = values.stream().map(String::trim).filter(v -> !v.isEmpty())
                .map(v -> URLEncoder.encode(v, StandardCharsets.UTF_8)).toList();
        return named.isEmpty() ? "" : "?" + name + "=" + String.join(",", named);
    }

    /** Where a property (or the first item of a list property) was set, as Spring reports it. */
    private static String origin(PropertyLookup lookup, String name) {
        PropertyLookup.Found f = lookup.find(name);
        if (f == null) {
            f = lookup.find(name + "[0]");
        }
        return f == null ? "property " + name : f.origin();
    }

    private static String credentials(String user, String password) {
        if (user == null && password == null) {
            return "";
        }
        String u = user == null ? "" : URLEncoder.encode(user, StandardCharsets.UTF_8);
        return password == null ? u + "@" : u + ":" + URLEncoder.encode(password, StandardCharsets.UTF_8) + "@";
    }

    /**
     * The properties of one group as they are read: each one's value, or Spring Boot's default,
     * and where each set one came from; {@link #broker} folds them into one setting.
     */
    private static final class Parts {
        private final PropertyLookup lookup;
        private final String prefix;
        private final Map<String, PropertyLookup.Found> set = new LinkedHashMap<>();
        private final List<String> defaulted = new ArrayList<>();

        Parts(PropertyLookup lookup, String prefix) {
            this.lookup = lookup;
            this.prefix = prefix;
        }

        String get(String key, String fallback) {
            PropertyLookup.Found f = lookup.find(prefix + "." + key);
            if (f == null) {
                if (fallback != null && (key.equals("host") || key.equals("port"))) {
                    defaulted.add(prefix + "." + key);
                }
                return fallback;
            }
            set.put(prefix + "." + key, f);
            return f.value() == null ? "" : f.value().trim();
        }

        /** A comma list, written as one value or as a YAML list ({@code name[0]}, {@code name[1]}). */
        String list(String key) {
            String one = get(key, null);
            if (one != null) {
                return one.replace(" ", "");
            }
            List<String> items = new ArrayList<>();
            for (int i = 0; ; i++) {
                String item = get(key + "[" + i + "]", null);
                if (item == null) {
                    break;
                }
                items.add(item.trim());
            }
            return items.isEmpty() ? null : String.join(",", items);
        }

        Broker broker(String broker, SettingType type, String value, String target) {
            List<String> origins = new ArrayList<>();
            List<String> reads = new ArrayList<>();
            String unresolved = null;
            boolean anyDefault = !defaulted.isEmpty() || set.isEmpty();
            boolean anyWritten = false;
            for (Map.Entry<String, PropertyLookup.Found> e : set.entrySet()) {
                PropertyLookup.Found f = e.getValue();
                origins.add(set.size() == 1 && defaulted.isEmpty() ? f.origin() : e.getKey() + " from " + f.origin());
                reads.addAll(f.reads());
                if (f.unresolved() != null && unresolved == null) {
                    unresolved = e.getKey() + ": " + f.unresolved();
                }
                anyDefault |= f.source() == Setting.Source.DEFAULT;
                anyWritten |= f.source() != Setting.Source.ENV && f.source() != Setting.Source.SYSTEM_PROPERTY;
            }
            Setting.Source source = anyDefault ? Setting.Source.DEFAULT : anyWritten ? Setting.Source.FILE : Setting.Source.ENV;
            String origin = set.isEmpty()
                    ? "Spring Boot's default (no " + prefix + ".* property is set)"
                    : String.join("; ", origins) + (defaulted.isEmpty() ? "" : "; Spring Boot's default for " + String.join(" and ", defaulted));
            String setting = set.size() == 1 && defaulted.isEmpty() ? set.keySet().iterator().next() : prefix;
            PropertyLookup.Found found = unresolved != null
                    ? new PropertyLookup.Found(null, origin, source, reads, unresolved)
                    : new PropertyLookup.Found(value, origin, source, reads, null);
            return new Broker(broker, setting, type, found, target);
        }
    }
}
