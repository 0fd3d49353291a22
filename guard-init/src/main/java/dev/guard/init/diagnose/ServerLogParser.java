package dev.guard.init.diagnose;

import java.util.ArrayList;
import java.util.List;

/**
 * A dependency's own log. Redis ({@code server.c}: "Redis is starting", "Loading RDB produced
 * by", "DB loaded from disk", "Ready to accept connections", "Received SIGTERM scheduling
 * shutdown", "Received shutdown signal during loading"), and the ready lines of RabbitMQ ("Server
 * startup complete"), NATS ("Server is ready") and Kafka ("Kafka Server started"). A sentinel's events
 * ({@code sentinel.c}: {@code +monitor master}, {@code +sdown}/{@code +odown master}, {@code +switch-master})
 * and a Cluster node's ({@code cluster.c}: "Cluster state changed: fail|ok", "Failover election won",
 * "Marking node ... as failing", "FAIL message received").
 */
final class ServerLogParser implements LineParser {
    private static final java.util.regex.Pattern KAFKA_STARTED =
            java.util.regex.Pattern.compile("\\[KafkaServer id=\\d+\\] started");
    private static final String ADDR = "(\\S+) (\\d{1,5})";
    private static final java.util.regex.Pattern MONITOR =
            java.util.regex.Pattern.compile("\\+monitor master (\\S+) " + ADDR);
    private static final java.util.regex.Pattern MASTER_DOWN =
            java.util.regex.Pattern.compile("\\+[so]down master (\\S+) " + ADDR);
    private static final java.util.regex.Pattern ABORT =
            java.util.regex.Pattern.compile("-failover-abort-(\\S+) master (\\S+) " + ADDR);
    private static final java.util.regex.Pattern PEER = java.util.regex.Pattern.compile(
            "(?:Connecting to MASTER|Replica) (\\[[0-9a-fA-F:.]+\\]|[A-Za-z0-9_.\\-]+):(\\d{1,5})");
    private static final java.util.regex.Pattern SWITCH =
            java.util.regex.Pattern.compile("\\+switch-master (\\S+) " + ADDR + " " + ADDR);

    @Override
    public List<Signal> parse(LogLine line, Words.Found words) {
        String t = line.text();
        List<Signal> out = new ArrayList<>(1);
        Signal.Type type = null;
        String client = "redis-server";
        Signal topology = t.indexOf('+') >= 0 || t.contains("-failover-abort") || t.contains("Cluster") || t.contains("Failover")
                || t.contains("FAIL") || t.contains("Running mode=") || t.contains("MASTER") || t.contains("asks for")
                ? topology(line, t) : null;
        if (topology != null) {
            out.add(topology);
            return out;
        }
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

    /** A sentinel's or Cluster node's event; null when the line is none. */
    private static Signal topology(LogLine line, String t) {
        java.util.regex.Matcher m = SWITCH.matcher(t);
        if (m.find()) {
            return Signal.at(Signal.Type.SWITCH_MASTER, line, m.group(4), Integer.parseInt(m.group(5)), "redis-sentinel")
                    .withDetail(m.group(1) + " " + Hosts.withPort(m.group(2), Integer.parseInt(m.group(3))));
        }
        m = MASTER_DOWN.matcher(t);
        if (m.find()) {
            return Signal.at(Signal.Type.MASTER_DOWN, line, m.group(2), Integer.parseInt(m.group(3)), "redis-sentinel")
                    .withDetail(m.group(1));
        }
        m = ABORT.matcher(t);
        if (m.find()) {
            return Signal.at(Signal.Type.MASTER_DOWN, line, m.group(3), Integer.parseInt(m.group(4)), "redis-sentinel")
                    .withDetail(m.group(2) + " (failover aborted: " + m.group(1) + ")");
        }
        m = MONITOR.matcher(t);
        if (m.find()) {
            return Signal.at(Signal.Type.SENTINEL_MONITOR, line, m.group(2), Integer.parseInt(m.group(3)), "redis-sentinel")
                    .withDetail(m.group(1));
        }
        if (t.contains("Running mode=sentinel")) {
            return Signal.of(Signal.Type.SENTINEL_MODE, line, "redis-sentinel");
        }
        if (t.contains("Running mode=cluster")) {
            return Signal.of(Signal.Type.CLUSTER_MODE, line, "redis-cluster");
        }
        if (t.contains("Connecting to MASTER") || t.contains("asks for synchronization")) {
            m = PEER.matcher(t);
            return m.find() ? Signal.at(Signal.Type.PEER, line, m.group(1), Integer.parseInt(m.group(2)), "redis-server") : null;
        }
        if (t.contains("Cluster state changed: fail")) {
            return Signal.of(Signal.Type.CLUSTER_FAIL, line, "redis-cluster");
        }
        if (t.contains("Cluster state changed: ok")) {
            return Signal.of(Signal.Type.CLUSTER_OK, line, "redis-cluster");
        }
        if (t.contains("Failover election won")) {
            return Signal.of(Signal.Type.CLUSTER_FAILOVER, line, "redis-cluster");
        }
        if (t.contains("as failing (quorum reached)") || t.contains("FAIL message received")) {
            return Signal.of(Signal.Type.NODE_FAILING, line, "redis-cluster");
        }
        return null;
    }
}
