package dev.guard.init.diagnose;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * RabbitMQ, NATS and Kafka clients' connection errors, and the errors every JVM or Python client
 * shares: amqp-client ({@code java.net.ConnectException: Connection refused}, which names no
 * host, {@code ACCESS_REFUSED}), pika ({@code AMQPConnectionError}, "TCP Connection attempt
 * failed ... dest=(..., ('host', port))"), jnats ("Unable to connect to NATS servers: [url]"),
 * nats.py / nats.go ("nats: no servers available for connection"), nats.js 2 ({@code NatsError: TIMEOUT}), kafka-clients ("Connection to
 * node -1 (host/ip:port) could not be established. Node may not be available.", "Broker may not
 * be available"), kafka-python ({@code NoBrokersAvailable}, "KafkaTimeoutError: Unable to
 * bootstrap from [('host', port, ...)]").
 */
final class BrokerClientParser implements LineParser {
    private static final Pattern KAFKA_NODE = Pattern.compile(
            "Connection to node (-?\\d+) \\(([A-Za-z0-9_.\\-]*)/([0-9a-fA-F:.]+|<unresolved>):(\\d{1,5})\\) could not be established");
    /** kafka-clients 3+/4: Bootstrap broker kafka:9092 (id: -1 rack: null) disconnected (also what a black hole gives). */
    private static final Pattern KAFKA_BOOTSTRAP_DISCONNECTED = Pattern.compile(
            "Bootstrap broker ([A-Za-z0-9_.\\-]+|\\[[0-9a-fA-F:]+\\]):(\\d{1,5}) \\(id: -?\\d+[^)]*\\) disconnected");
    private static final Pattern KAFKA_PY_BOOTSTRAP = Pattern.compile(
            "Unable to bootstrap from \\[?\\(?'?([A-Za-z0-9_.\\-]+|\\[[0-9a-fA-F:]+\\])'?(?:, |:)(\\d{1,5})");
    private static final Pattern JNATS = Pattern.compile(
            "Unable to connect to NATS servers?: \\[?(?:nats|tls|ws|wss)://(?:[^@\\s/\\]]*@)?([A-Za-z0-9_.\\-]+|\\[[0-9a-fA-F:]+\\]):(\\d{1,5})");
    private static final Pattern PIKA_DEST = Pattern.compile(
            "(?:TCP Connection attempt failed|Socket failed to connect|Connection workflow failed).*?(?<!laddr=)\\('([^']+)', (\\d{1,5})\\)");
    private static final Pattern UNKNOWN_HOST = Pattern.compile(
            "UnknownHostException: (?:Failed to resolve '([^']+)'|([A-Za-z0-9_.\\-]+))");

    private static final long[] WORDS = Words.mask(Word.ACCESS_REFUSED, Word.PROBABLE_AUTH,
            Word.AUTHORIZATION_VIOLATION, Word.SASL_AUTH, Word.NO_SERVERS, Word.NO_SERVERS_ERROR, Word.NO_BROKERS,
            Word.BROKER_NOT_AVAILABLE, Word.NODE_ASSIGNMENT, Word.NO_RESOLVABLE, Word.AMQP_CONNECTION_ERROR,
            Word.INCOMPATIBLE_PROTOCOL, Word.CONNECTION_REFUSED, Word.CONNECTION_REFUSED_ERROR, Word.TEMPORARY_FAILURE,
            Word.NAME_NOT_KNOWN, Word.NODENAME, Word.NO_ROUTE, Word.NETWORK_UNREACHABLE, Word.CANNOT_ASSIGN);

    @Override
    public List<Signal> parse(LogLine line, Words.Found w) {
        String t = line.text();
        List<Signal> out = new ArrayList<>(1);
        // each pattern only where its literal part is: most lines of a large capture are none of these
        Matcher m;
        if (w.has(Word.CONNECTION_TO_NODE) && (m = KAFKA_NODE.matcher(t)).find()) {
            String host = m.group(2).isEmpty() ? m.group(3) : m.group(2);
            out.add(Signal.at(Signal.Type.REFUSED, line, host, Integer.parseInt(m.group(4)), "kafka-clients")
                    .withDetail("node " + m.group(1)));
            return out;
        }
        if (w.has(Word.BOOTSTRAP_BROKER) && (m = KAFKA_BOOTSTRAP_DISCONNECTED.matcher(t)).find()) {
            out.add(Signal.at(Signal.Type.UNAVAILABLE, line, m.group(1), Integer.parseInt(m.group(2)), "kafka-clients"));
            return out;
        }
        if (w.has(Word.UNABLE_TO_BOOTSTRAP) && (m = KAFKA_PY_BOOTSTRAP.matcher(t)).find()) {
            out.add(Signal.at(Signal.Type.UNAVAILABLE, line, m.group(1), Integer.parseInt(m.group(2)), "kafka-python"));
            return out;
        }
        if (w.has(Word.UNABLE_TO_CONNECT_TO_NATS) && (m = JNATS.matcher(t)).find()) {
            out.add(Signal.at(Signal.Type.UNAVAILABLE, line, m.group(1), Integer.parseInt(m.group(2)), "jnats"));
            return out;
        }
        if ((w.has(Word.TCP_ATTEMPT_FAILED) || w.has(Word.SOCKET_FAILED) || w.has(Word.WORKFLOW_FAILED)) && (m = PIKA_DEST.matcher(t)).find()) {
            out.add(Signal.at(Signal.Type.REFUSED, line, m.group(1), Integer.parseInt(m.group(2)), "pika"));
            return out;
        }
        if (w.has(Word.UNKNOWN_HOST_EXCEPTION) && (m = UNKNOWN_HOST.matcher(t)).find()) {
            out.add(Signal.at(Signal.Type.DNS, line, m.group(1) != null ? m.group(1) : m.group(2), 0, "java"));
            return out;
        }
        if (w.has(Word.NATS_ERROR) && t.contains("NatsError: TIMEOUT")) {
            // nats.js 2.x: a connect that got no answer in its timeout (a request's timeout reads the same,
            // but a worker's subscription makes none)
            out.add(Signal.of(Signal.Type.TIMEOUT, line, "nats.js"));
            return out;
        }
        if (!w.any(WORDS)) {
            return out;
        }
        if (t.contains("ACCESS_REFUSED") || t.contains("ProbableAuthenticationException")
                || t.contains("Authorization Violation") || t.contains("SaslAuthenticationException")) {
            out.add(Signal.of(Signal.Type.AUTH, line, t.contains("NATS") || t.contains("Authorization Violation")
                    ? "nats" : t.contains("Sasl") ? "kafka-clients" : "amqp"));
        } else if (t.contains("no servers available for connection") || t.contains("NoServersError")) {
            out.add(Signal.of(Signal.Type.NO_SERVERS, line, "nats"));
        } else if (t.contains("NoBrokersAvailable")) {
            out.add(Signal.of(Signal.Type.NO_SERVERS, line, "kafka-python"));
        } else if (t.contains("Broker may not be available")) {
            out.add(Signal.of(Signal.Type.NO_SERVERS, line, "kafka-clients"));
        } else if (t.contains("Timed out waiting for a node assignment")) {
            out.add(Signal.of(Signal.Type.NO_SERVERS, line, "kafka-clients"));
        } else if (t.contains("No resolvable bootstrap urls")) {
            out.add(Signal.of(Signal.Type.DNS, line, "kafka-clients"));
        } else if (t.contains("AMQPConnectionError") || t.contains("IncompatibleProtocolError")) {
            out.add(Signal.of(Signal.Type.UNAVAILABLE, line, "pika"));
        } else if (t.contains("Connection refused") || t.contains("ConnectionRefusedError")) {
            out.add(Signal.of(Signal.Type.REFUSED, line, "socket"));
        } else if (t.contains("Temporary failure in name resolution") || t.contains("Name or service not known")
                || t.contains("nodename nor servname")) {
            out.add(Signal.of(Signal.Type.DNS, line, "socket"));
        } else if (t.contains("No route to host") || t.contains("Network is unreachable")
                || t.contains("Cannot assign requested address")) {
            out.add(Signal.of(Signal.Type.UNAVAILABLE, line, "socket"));
        }
        return out;
    }
}
