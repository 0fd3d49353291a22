package dev.guard.init;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import picocli.CommandLine.Option;

/**
 * Flags for the probes' extra checks, applied to every target of that kind as the query
 * parameter the probe reads ({@code --kafka-topic jobs} is {@code kafka://...?topics=jobs}). A
 * parameter already in a target's URL wins over the flag.
 */
final class ProbeExtras {
    @Option(names = "--redis-key", paramLabel = "KEY", description = "redis targets: this key must exist (?key=)")
    String redisKey;

    @Option(names = "--amqp-queue", paramLabel = "QUEUE", split = ",",
            description = "amqp targets: these queues must exist (?queues=a,b)")
    List<String> amqpQueues = new ArrayList<>();

    @Option(names = "--amqp-exchange", paramLabel = "EXCHANGE", split = ",",
            description = "amqp targets: these exchanges must exist (?exchanges=x)")
    List<String> amqpExchanges = new ArrayList<>();

    @Option(names = "--nats-stream", paramLabel = "STREAM", description = "nats targets: this JetStream stream must exist (?stream=)")
    String natsStream;

    @Option(names = "--nats-consumer", paramLabel = "CONSUMER",
            description = "nats targets: this consumer of the stream must exist and not be paused (?consumer=)")
    String natsConsumer;

    @Option(names = "--kafka-topic", paramLabel = "TOPIC", split = ",",
            description = "kafka targets: these topics must exist (?topics=a,b)")
    List<String> kafkaTopics = new ArrayList<>();

    @Option(names = "--kafka-brokers", paramLabel = "N", description = "kafka targets: at least N brokers (?brokers=N)")
    Integer kafkaBrokers;

    @Option(names = "--kafka-group", paramLabel = "GROUP",
            description = "kafka targets: this consumer group's coordinator must answer (?group=)")
    String kafkaGroup;

    @Option(names = "--kafka-acks", paramLabel = "ACKS",
            description = "kafka targets: the worker's producer acks; all (default) also needs min.insync.replicas in sync, 1 leaders only (?acks=)")
    String kafkaAcks;

    /** The target with this object's extras added as query parameters where its URL has none of its own. */
    String apply(String target) {
        int sep = target.indexOf("://");
        if (sep <= 0) {
            return target;
        }
        String scheme = target.substring(0, sep).toLowerCase(Locale.ROOT);
        String url = target;
        switch (scheme) {
            case "redis", "rediss", "redis-sentinel", "rediss-sentinel" -> url = add(url, "key", redisKey);
            case "amqp", "amqps" -> {
                url = add(url, "queues", amqpQueues.isEmpty() ? null : String.join(",", amqpQueues));
                url = add(url, "exchanges", amqpExchanges.isEmpty() ? null : String.join(",", amqpExchanges));
            }
            case "nats", "tls" -> {
                url = add(url, "stream", natsStream);
                url = add(url, "consumer", natsConsumer);
            }
            case "kafka" -> {
                url = add(url, "topics", kafkaTopics.isEmpty() ? null : String.join(",", kafkaTopics));
                url = add(url, "brokers", kafkaBrokers == null ? null : String.valueOf(kafkaBrokers));
                url = add(url, "group", kafkaGroup);
                url = add(url, "acks", kafkaAcks);
            }
            default -> { }
        }
        return url;
    }

    private static String add(String target, String name, String value) {
        if (value == null) {
            return target;
        }
        // the query goes before a fragment (redis-sentinel://s1,s2?key=jobs#mymaster)
        int hash = target.indexOf('#');
        String fragment = hash < 0 ? "" : target.substring(hash);
        String url = hash < 0 ? target : target.substring(0, hash);
        int q = url.indexOf('?');
        if (q >= 0) {
            for (String pair : url.substring(q + 1).split("&")) {
                if (pair.equals(name) || pair.startsWith(name + "=")) {
                    return target; // the URL's own parameter wins
                }
            }
        }
        String encoded = URLEncoder.encode(value, StandardCharsets.UTF_8).replace("%2C", ",");
        return url + (q < 0 ? "?" : "&") + name + "=" + encoded + fragment;
    }
}
