package dev.guard.init.diagnose;

import java.util.ArrayList;
import java.util.List;

/**
 * A dependency's own log. Redis ({@code server.c}: "Redis is starting", "Loading RDB produced
 * by", "DB loaded from disk", "Ready to accept connections", "Received SIGTERM scheduling
 * shutdown", "Received shutdown signal during loading"), and the ready lines of RabbitMQ ("Server
 * startup complete"), NATS ("Server is ready") and Kafka ("Kafka Server started").
 */
final class ServerLogParser implements LineParser {
    private static final java.util.regex.Pattern KAFKA_STARTED =
            java.util.regex.Pattern.compile("\\[KafkaServer id=\\d+\\] started");

    @Override
    public List<Signal> parse(LogLine line, Words.Found words) {
        String t = line.text();
        List<Signal> out = new ArrayList<>(1);
        Signal.Type type = null;
        String client = "redis-server";
        if (t.contains("Redis is starting") || t.contains("Valkey is starting")) {
            type = Signal.Type.SERVER_STARTING;
        } else if (t.contains("Ready to accept connections")) {
            type = Signal.Type.SERVER_READY;
        } else if (t.contains("Received shutdown signal during loading")) {
            type = Signal.Type.SERVER_SHUTDOWN_DURING_LOADING;
        } else if (t.contains("Received SIGTERM") || t.contains("Received SIGINT")) {
            type = Signal.Type.SERVER_SIGTERM;
        } else if (t.contains("Loading RDB") || t.contains("Reading RDB") || t.contains("Loading the AOF")) {
            type = Signal.Type.SERVER_LOADING;
        } else if (t.contains("DB loaded from disk") || t.contains("Done loading RDB")) {
            type = Signal.Type.SERVER_LOADED;
        } else if (t.contains("Server startup complete")) {
            type = Signal.Type.SERVER_READY;
            client = "rabbitmq-server";
        } else if (t.contains("Server is ready") && t.contains("[INF]")) {
            type = Signal.Type.SERVER_READY;
            client = "nats-server";
        } else if (t.contains("Kafka Server started") || KAFKA_STARTED.matcher(t).find()) {
            type = Signal.Type.SERVER_READY;
            client = "kafka";
        } else if (t.contains("Starting nats-server")) {
            type = Signal.Type.SERVER_STARTING;
            client = "nats-server";
        } else if (t.contains("Starting RabbitMQ")) {
            type = Signal.Type.SERVER_STARTING;
            client = "rabbitmq-server";
        }
        if (type != null) {
            out.add(Signal.of(type, line, client));
        }
        return out;
    }
}
