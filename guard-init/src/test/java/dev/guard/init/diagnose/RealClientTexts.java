package dev.guard.init.diagnose;

import com.rabbitmq.client.ConnectionFactory;
import dev.guard.testing.FreePorts;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.nats.client.Nats;
import io.nats.client.Options;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;

/**
 * Runs the real Java clients against a closed port, an unknown host, a wrong password and a
 * loading Redis, and returns what they really say: the exception chain as a worker's log prints
 * it (the {@code at} frames left out), or the client's own log lines.
 */
final class RealClientTexts {
    static final String UNKNOWN_HOST = "no-such-host.invalid";
    /**
     * kafka-clients' default.api.timeout.ms here: the Admin must log at least one refused
     * connection attempt before the call gives up, and on a loaded 2-core machine its fresh
     * network thread can take seconds to make the first one. The call always runs this long
     * (nothing ever answers), so it is generous but not unbounded.
     */
    static final int KAFKA_API_TIMEOUT_MS = 10_000;
    /**
     * amqp-client's handshake timeout against the machine's RabbitMQ (wrong password): a busy
     * broker on a loaded machine can take seconds to answer; ACCESS_REFUSED comes as soon as it does.
     */
    static final int AMQP_HANDSHAKE_TIMEOUT_MS = 60_000;

    private RealClientTexts() {}

    /** A port on 127.0.0.1 that refuses connects for this JVM's life: held by {@link FreePorts}, so no other process can take it. */
    static int closedPort() {
        return FreePorts.next();
    }

    /** The exception as {@code printStackTrace} writes it, without the stack frames. */
    static List<String> chain(Throwable t) {
        StringWriter sw = new StringWriter();
        t.printStackTrace(new PrintWriter(sw));
        List<String> out = new ArrayList<>();
        for (String l : sw.toString().split("\\R")) {
            String s = l.strip();
            if (!s.startsWith("at ") && !s.startsWith("...") && !s.isEmpty()) {
                out.add(l.replace("\t", ""));
            }
        }
        return out;
    }

    /** lettuce {@code connect()} to {@code redis://host:port}: the failure's chain. */
    static List<String> lettuce(String host, int port) {
        RedisClient client = RedisClient.create("redis://" + host + ":" + port);
        try (StatefulRedisConnection<String, String> c = client.connect()) {
            throw new AssertionError("lettuce connected to " + host + ":" + port + " (" + c.isOpen() + "), expected a failure");
        } catch (RuntimeException e) {
            return chain(e);
        } finally {
            client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
        }
    }

    /** lettuce PING against a Redis that is loading: the RedisLoadingException chain. */
    static List<String> lettuceLoading(String uri) {
        RedisClient client = RedisClient.create(uri);
        try (StatefulRedisConnection<String, String> c = client.connect()) {
            String pong = c.sync().ping();
            throw new AssertionError("Redis at " + uri + " answered " + pong + ", expected LOADING");
        } catch (RuntimeException e) {
            return chain(e);
        } finally {
            client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
        }
    }

    /** amqp-client {@code newConnection()}: the failure's chain. */
    static List<String> amqp(String host, int port, String user, String password) {
        ConnectionFactory f = new ConnectionFactory();
        f.setHost(host);
        f.setPort(port);
        f.setUsername(user);
        f.setPassword(password);
        f.setConnectionTimeout(3000);
        f.setHandshakeTimeout(AMQP_HANDSHAKE_TIMEOUT_MS);
        f.setAutomaticRecoveryEnabled(false);
        try (com.rabbitmq.client.Connection c = f.newConnection("guard-diagnose-capture")) {
            throw new AssertionError("amqp-client connected to " + host + ":" + port + " (" + c.isOpen()
                    + "), expected a failure");
        } catch (Exception e) {
            return chain(e);
        }
    }

    /** jnats {@code Nats.connect} with no reconnects: the failure's chain. */
    static List<String> jnats(String host, int port) {
        Options o = new Options.Builder().server("nats://" + host + ":" + port).maxReconnects(0)
                .connectionTimeout(Duration.ofSeconds(2)).errorListener(new io.nats.client.ErrorListener() {}).build();
        io.nats.client.Connection c = null;
        try {
            c = Nats.connect(o);
            throw new AssertionError("jnats connected to " + host + ":" + port + ", expected a failure");
        } catch (Exception e) {
            return chain(e);
        } finally {
            if (c != null) {
                try {
                    c.close();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        }
    }

    /**
     * kafka-clients Admin against {@code host:port}: the NetworkClient WARN lines it logs (through
     * SLF4J to System.err, captured here) and the failure's chain.
     */
    static List<String> kafka(String host, int port) {
        Properties p = new Properties();
        p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, host + ":" + port);
        p.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, "1500");
        p.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, Integer.toString(KAFKA_API_TIMEOUT_MS));
        p.put(AdminClientConfig.RECONNECT_BACKOFF_MAX_MS_CONFIG, "200");
        List<String> out = new ArrayList<>();
        PrintStream saved = System.err;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        synchronized (RealClientTexts.class) {
            System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
            try (Admin admin = Admin.create(p)) {
                admin.describeCluster().clusterId().get();
                throw new AssertionError("kafka-clients reached " + host + ":" + port + ", expected a failure");
            } catch (Exception e) {
                out.addAll(chain(e));
            } finally {
                System.setErr(saved);
            }
        }
        List<String> logged = new ArrayList<>();
        for (String l : captured.toString(StandardCharsets.UTF_8).split("\\R")) {
            if ((l.contains("could not be established") || l.contains("Broker may not be available")) && logged.size() < 2) {
                logged.add(l.replaceAll("adminclient-\\d+", "adminclient-1"));
            }
        }
        out.replaceAll(l -> l.replaceAll("adminclient-\\d+", "adminclient-1"));
        logged.addAll(out);
        return logged;
    }
}
