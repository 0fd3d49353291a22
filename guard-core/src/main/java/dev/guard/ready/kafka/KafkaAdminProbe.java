package dev.guard.ready.kafka;

import dev.guard.endpoint.Endpoint;
import dev.guard.ready.Probe;
import dev.guard.ready.ProbeResult;
import dev.guard.ready.ProbeState;
import dev.guard.ready.internal.Classify;
import dev.guard.ready.internal.Timer;
import dev.guard.ready.net.TcpProbe;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.DescribeClusterOptions;
import org.apache.kafka.clients.admin.DescribeClusterResult;
import org.apache.kafka.clients.admin.DescribeTopicsOptions;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.errors.AuthenticationException;
import org.apache.kafka.common.errors.AuthorizationException;
import org.apache.kafka.common.errors.SslAuthenticationException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;

/**
 * The kafka-clients-bound half of {@link KafkaProbe} (loaded only once kafka-clients is known
 * to be on the classpath). Cluster metadata ({@code describeCluster}) with at least {@code minBrokers} brokers and an
 * active controller; optional topics must exist ({@link ProbeState#MISSING} until they do)
 * with a leader on every partition. AdminClient against a closed port only times out, so each
 * attempt first makes a quick TCP connect to the bootstrap addresses to tell refused / DNS
 * from timeout. One AdminClient is reused across attempts (timeouts = the attempt timeout,
 * small reconnect backoff) and closed with {@code Duration.ZERO} by {@link #close()}.
 */
final class KafkaAdminProbe implements Probe {

    private static final Duration PRECHECK = Duration.ofMillis(250);

    private final List<Endpoint> bootstrap;
    private final String target;
    private final int minBrokers;
    private final List<String> topics;
    private final Map<String, String> properties;
    private final Object lock = new Object();
    private Admin admin;
    private Duration adminTimeout;

    KafkaAdminProbe(KafkaProbe.Builder b) {
        this.bootstrap = List.copyOf(b.bootstrap);
        this.target = b.bootstrap.stream().map(Endpoint::hostPort).collect(Collectors.joining(","));
        this.minBrokers = b.minBrokers;
        this.topics = List.copyOf(b.topics);
        this.properties = Map.copyOf(b.properties);
    }


    @Override
    public String kind() {
        return "kafka";
    }

    @Override
    public String target() {
        return target;
    }

    public int minBrokers() {
        return minBrokers;
    }

    public List<String> requiredTopics() {
        return topics;
    }

    @Override
    public ProbeResult check(Duration attemptTimeout) {
        Timer timer = new Timer();
        try {
            ProbeResult firstFailure = null;
            boolean anyOpen = false;
            for (Endpoint hp : bootstrap) {
                Duration pre = min(PRECHECK, timer.remaining(attemptTimeout));
                ProbeResult r = TcpProbe.connect(this, hp, pre.isZero() ? Duration.ofMillis(1) : pre, timer);
                if (r == null) {
                    anyOpen = true;
                    break;
                }
                if (firstFailure == null) {
                    firstFailure = r;
                }
            }
            if (!anyOpen) {
                return firstFailure;
            }
            Duration left = timer.remaining(attemptTimeout);
            int ms = (int) Math.max(1, left.toMillis());
            Admin a = admin(attemptTimeout);
            DescribeClusterResult cluster = a.describeCluster(new DescribeClusterOptions().timeoutMs(ms));
            Collection<Node> nodes = cluster.nodes().get(ms, TimeUnit.MILLISECONDS);
            Node controller = cluster.controller().get(Math.max(1, timer.remaining(attemptTimeout).toMillis()),
                    TimeUnit.MILLISECONDS);
            if (nodes.size() < minBrokers) {
                return ProbeResult.of(this, ProbeState.LOADING, nodes.size() + " of the required " + minBrokers
                        + " broker(s) registered", null, timer.elapsed());
            }
            if (controller == null || controller.isEmpty() || controller.id() < 0) {
                return ProbeResult.of(this, ProbeState.LOADING, "no active controller yet", null, timer.elapsed());
            }
            if (!topics.isEmpty()) {
                Map<String, TopicDescription> described;
                try {
                    described = a.describeTopics(topics, new DescribeTopicsOptions()
                            .timeoutMs((int) Math.max(1, timer.remaining(attemptTimeout).toMillis())))
                            .allTopicNames().get(Math.max(1, timer.remaining(attemptTimeout).toMillis()),
                                    TimeUnit.MILLISECONDS);
                } catch (ExecutionException e) {
                    if (e.getCause() instanceof UnknownTopicOrPartitionException) {
                        return ProbeResult.of(this, ProbeState.MISSING, "topic(s) " + missing(a, timer, attemptTimeout)
                                + " do not exist yet", e.getCause(), timer.elapsed());
                    }
                    throw e;
                }
                for (TopicDescription d : described.values()) {
                    for (TopicPartitionInfo p : d.partitions()) {
                        if (p.leader() == null || p.leader().isEmpty() || p.leader().id() < 0) {
                            return ProbeResult.of(this, ProbeState.LOADING, "topic '" + d.name() + "' partition "
                                    + p.partition() + " has no leader yet", null, timer.elapsed());
                        }
                    }
                }
            }
            return ProbeResult.of(this, ProbeState.READY, nodes.size() + " broker(s), controller " + controller.id()
                    + (topics.isEmpty() ? "" : ", topic(s) " + String.join(",", topics) + " have leaders"), null,
                    timer.elapsed());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return ProbeResult.of(this, ProbeState.TIMEOUT, "interrupted", e, timer.elapsed());
        } catch (Exception | LinkageError e) {
            return classify(e instanceof ExecutionException && e.getCause() != null ? e.getCause() : e, timer.elapsed());
        }
    }

    private String missing(Admin a, Timer timer, Duration attemptTimeout) {
        try {
            var names = a.listTopics().names().get(Math.max(1, timer.remaining(attemptTimeout).toMillis()),
                    TimeUnit.MILLISECONDS);
            return topics.stream().filter(t -> !names.contains(t)).map(t -> "'" + t + "'")
                    .collect(Collectors.joining(", "));
        } catch (Exception e) {
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            return topics.stream().map(t -> "'" + t + "'").collect(Collectors.joining(", ")) + " (some of)";
        }
    }

    private ProbeResult classify(Throwable e, Duration took) {
        if (e instanceof SslAuthenticationException) {
            return ProbeResult.of(this, ProbeState.TLS, "TLS handshake with the broker failed", e, took);
        }
        if (e instanceof AuthenticationException || e instanceof AuthorizationException) {
            return ProbeResult.of(this, ProbeState.AUTH, "the broker rejected the credentials or ACLs", e, took);
        }
        if (e instanceof org.apache.kafka.common.config.ConfigException) {
            return ProbeResult.of(this, ProbeState.CONFIG, "the AdminClient settings are invalid", e, took);
        }
        ProbeState s = Classify.generic(e);
        if (s == ProbeState.TIMEOUT || e instanceof org.apache.kafka.common.errors.TimeoutException) {
            return ProbeResult.of(this, ProbeState.TIMEOUT, "port open, but no cluster metadata within "
                    + took.toMillis() + " ms", e, took);
        }
        if (s != null) {
            return ProbeResult.of(this, s, "", e, took);
        }
        return ProbeResult.of(this, ProbeState.PROTOCOL, "unexpected answer (not a Kafka broker?)", e, took);
    }

    private Admin admin(Duration timeout) {
        synchronized (lock) {
            if (admin != null && !timeout.equals(adminTimeout)) {
                admin.close(Duration.ZERO);
                admin = null;
            }
            if (admin == null) {
                Properties p = new Properties();
                String ms = Long.toString(Math.max(1, timeout.toMillis()));
                p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, target);
                p.put(AdminClientConfig.CLIENT_ID_CONFIG, "guard-readiness");
                p.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, ms);
                p.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, ms);
                p.put(AdminClientConfig.SOCKET_CONNECTION_SETUP_TIMEOUT_MS_CONFIG, ms);
                p.put(AdminClientConfig.SOCKET_CONNECTION_SETUP_TIMEOUT_MAX_MS_CONFIG, ms);
                p.put(AdminClientConfig.RECONNECT_BACKOFF_MS_CONFIG, "10");
                p.put(AdminClientConfig.RECONNECT_BACKOFF_MAX_MS_CONFIG, "100");
                p.put(AdminClientConfig.RETRY_BACKOFF_MS_CONFIG, "10");
                p.put(AdminClientConfig.RETRY_BACKOFF_MAX_MS_CONFIG, "100");
                p.putAll(properties);
                admin = Admin.create(p);
                adminTimeout = timeout;
            }
            return admin;
        }
    }

    /** Closes the reused AdminClient at once ({@code Duration.ZERO}); the next check recreates it. */
    @Override
    public void close() {
        synchronized (lock) {
            if (admin != null) {
                try {
                    admin.close(Duration.ZERO);
                } catch (RuntimeException ignored) {
                    // closing must never throw
                }
                admin = null;
                adminTimeout = null;
            }
        }
    }

    private static Duration min(Duration a, Duration b) {
        return a.compareTo(b) <= 0 ? a : b;
    }
}
