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
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.DescribeConfigsOptions;
import org.apache.kafka.clients.admin.DescribeConsumerGroupsOptions;
import org.apache.kafka.clients.admin.DescribeClusterOptions;
import org.apache.kafka.clients.admin.DescribeClusterResult;
import org.apache.kafka.clients.admin.DescribeTopicsOptions;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.CoordinatorLoadInProgressException;
import org.apache.kafka.common.errors.CoordinatorNotAvailableException;
import org.apache.kafka.common.errors.GroupIdNotFoundException;
import org.apache.kafka.common.errors.AuthenticationException;
import org.apache.kafka.common.errors.AuthorizationException;
import org.apache.kafka.common.errors.SslAuthenticationException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;

/**
 * The kafka-clients-bound half of {@link KafkaProbe} (loaded only once kafka-clients is known
 * to be on the classpath): what {@link KafkaProbe} says, asked with one AdminClient reused
 * across attempts (timeouts = the attempt timeout, small reconnect backoff) and closed with
 * {@code Duration.ZERO} by {@link #close()}. AdminClient against a closed port only times out,
 * so each attempt first makes a quick TCP connect to the bootstrap addresses to tell refused /
 * DNS from timeout.
 */
final class KafkaAdminProbe implements Probe {

    private static final Duration PRECHECK = Duration.ofMillis(250);

    private final List<Endpoint> bootstrap;
    private final String target;
    private final int minBrokers;
    private final List<String> topics;
    private final String group;
    private final boolean inSyncReplicas;
    private final Map<String, String> properties;
    private final Object lock = new Object();
    private Admin admin;
    private Duration adminTimeout;

    KafkaAdminProbe(KafkaProbe.Builder b) {
        this.bootstrap = List.copyOf(b.bootstrap);
        this.target = b.bootstrap.stream().map(Endpoint::hostPort).collect(Collectors.joining(","));
        this.minBrokers = b.minBrokers;
        this.topics = List.copyOf(b.topics);
        this.group = b.group;
        this.inSyncReplicas = b.acksAll;
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
            int ms = left(timer, attemptTimeout);
            Admin a = admin(attemptTimeout);
            DescribeClusterResult cluster = a.describeCluster(new DescribeClusterOptions().timeoutMs(ms));
            Collection<Node> nodes = cluster.nodes().get(ms, TimeUnit.MILLISECONDS);
            // No controller criterion: under KRaft the controller id that Metadata and DescribeCluster
            // return is a live broker the server picks, not the active controller (KAFKA-17404), so it
            // proves nothing. What a worker needs is below: leaders (and in-sync replicas) of its
            // topics, and its group's coordinator.
            if (nodes.size() < minBrokers) {
                return ProbeResult.of(this, ProbeState.LOADING, nodes.size() + " of the required " + minBrokers
                        + " broker(s) registered", null, timer.elapsed());
            }
            StringBuilder ready = new StringBuilder(nodes.size() + " broker(s)");
            if (!topics.isEmpty()) {
                ProbeResult notYet = topicsServe(a, timer, attemptTimeout, ready);
                if (notYet != null) {
                    return notYet;
                }
            }
            if (group != null) {
                ProbeResult notYet = coordinatorAnswers(a, timer, attemptTimeout, ready);
                if (notYet != null) {
                    return notYet;
                }
            }
            return ProbeResult.of(this, ProbeState.READY, ready.toString(), null, timer.elapsed());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return ProbeResult.of(this, ProbeState.TIMEOUT, "interrupted", e, timer.elapsed());
        } catch (Exception | LinkageError e) {
            return classify(e instanceof ExecutionException && e.getCause() != null ? e.getCause() : e, timer.elapsed());
        }
    }

    /**
     * Every partition of the required topics has a leader and, for an {@code acks=all} producer,
     * at least {@code min.insync.replicas} in-sync replicas. Null when they do (the ready detail
     * grows), else the not-ready result.
     */
    private ProbeResult topicsServe(Admin a, Timer timer, Duration attemptTimeout, StringBuilder ready)
            throws Exception {
        Map<String, TopicDescription> described;
        try {
            described = a.describeTopics(topics, new DescribeTopicsOptions().timeoutMs(left(timer, attemptTimeout)))
                    .allTopicNames().get(left(timer, attemptTimeout), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof UnknownTopicOrPartitionException) {
                return ProbeResult.of(this, ProbeState.MISSING, "topic(s) " + missing(a, timer, attemptTimeout)
                        + " do not exist yet", e.getCause(), timer.elapsed());
            }
            throw e;
        }
        for (String topic : topics) {
            TopicDescription d = described.get(topic);
            for (TopicPartitionInfo p : d.partitions()) {
                if (p.leader() == null || p.leader().isEmpty() || p.leader().id() < 0) {
                    return ProbeResult.of(this, ProbeState.LOADING, "topic '" + topic + "' partition " + p.partition()
                            + " has no leader (replicas on broker(s) " + ids(p.replicas()) + ", in sync: "
                            + (p.isr().isEmpty() ? "none" : ids(p.isr())) + "): reads and writes to it fail until"
                            + " one of its replicas' brokers is back", null, timer.elapsed());
                }
            }
        }
        ready.append(", topic(s) ").append(String.join(",", topics)).append(" have leaders");
        if (!inSyncReplicas) {
            ready.append(" (in-sync replicas not checked: acks=1)");
            return null;
        }
        Map<String, Integer> minIsr = minInSyncReplicas(a, timer, attemptTimeout);
        if (minIsr == null) {
            ready.append(" (in-sync replicas not checked: DescribeConfigs on the topics was refused)");
            return null;
        }
        for (String topic : topics) {
            int required = minIsr.getOrDefault(topic, 1);
            for (TopicPartitionInfo p : described.get(topic).partitions()) {
                if (p.replicas().size() < required) {
                    // no broker coming back changes this: a setting, not a state
                    return ProbeResult.of(this, ProbeState.CONFIG, "topic '" + topic + "' partition " + p.partition()
                            + " has " + p.replicas().size() + " replica(s), fewer than its min.insync.replicas="
                            + required + ": every write with acks=all fails with NOT_ENOUGH_REPLICAS, however many"
                            + " brokers are up. Raise the topic's replication factor or lower its min.insync.replicas"
                            + " (kafka-configs.sh --alter --entity-type topics --entity-name " + topic
                            + " --add-config min.insync.replicas=" + p.replicas().size() + "), or, for a worker that"
                            + " only consumes or produces with acks=1, acks=1 in the target", null, timer.elapsed());
                }
                if (p.isr().size() < required) {
                    return ProbeResult.of(this, ProbeState.LOADING, "topic '" + topic + "' partition " + p.partition()
                            + " has " + p.isr().size() + " in-sync replica(s) (broker(s) " + ids(p.isr())
                            + ") of the min.insync.replicas=" + required + " a producer with acks=all needs: its"
                            + " writes fail with NOT_ENOUGH_REPLICAS until a replica catches up (a worker that only"
                            + " consumes, or produces with acks=1: acks=1 in the target)", null, timer.elapsed());
                }
            }
        }
        ready.append(" and their min.insync.replicas in sync");
        return null;
    }

    /** Each required topic's effective {@code min.insync.replicas}; null when the broker refuses DescribeConfigs (ACLs). */
    private Map<String, Integer> minInSyncReplicas(Admin a, Timer timer, Duration attemptTimeout) throws Exception {
        List<ConfigResource> resources = topics.stream().map(t -> new ConfigResource(ConfigResource.Type.TOPIC, t))
                .toList();
        Map<ConfigResource, Config> configs;
        try {
            configs = a.describeConfigs(resources, new DescribeConfigsOptions().timeoutMs(left(timer, attemptTimeout)))
                    .all().get(left(timer, attemptTimeout), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof AuthorizationException) {
                return null;
            }
            throw e;
        }
        Map<String, Integer> out = new java.util.HashMap<>();
        configs.forEach((resource, config) -> {
            ConfigEntry entry = config.get(TopicConfig.MIN_IN_SYNC_REPLICAS_CONFIG);
            if (entry != null && entry.value() != null) {
                try {
                    out.put(resource.name(), Integer.parseInt(entry.value().trim()));
                } catch (NumberFormatException ignored) {
                    // the broker validates it; a value it would not accept is not ours to read
                }
            }
        });
        return out;
    }

    /**
     * The group's coordinator answers (FindCoordinator, then DescribeGroups or ConsumerGroupDescribe,
     * whichever protocol the group uses). Null when it does, else the not-ready result: a worker whose
     * coordinator is not available joins nothing and consumes nothing, with nothing in its log but
     * retries.
     */
    private ProbeResult coordinatorAnswers(Admin a, Timer timer, Duration attemptTimeout, StringBuilder ready)
            throws Exception {
        try {
            ConsumerGroupDescription d = a.describeConsumerGroups(List.of(group),
                            new DescribeConsumerGroupsOptions().timeoutMs(left(timer, attemptTimeout)))
                    .describedGroups().get(group).get(left(timer, attemptTimeout), TimeUnit.MILLISECONDS);
            Node c = d.coordinator();
            ready.append(", group '").append(group).append("' coordinator ")
                    .append(c == null || c.isEmpty() ? "answers" : "broker " + c.id())
                    .append(" (").append(d.groupState().toString().toLowerCase(java.util.Locale.ROOT))
                    .append(", ").append(d.members().size()).append(" member(s))");
            return null;
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof GroupIdNotFoundException) {
                // the coordinator answered: no such group yet (the first member's join creates it)
                ready.append(", group '").append(group).append("' coordinator answers (no such group yet)");
                return null;
            }
            if (cause instanceof CoordinatorNotAvailableException || cause instanceof CoordinatorLoadInProgressException
                    || cause instanceof org.apache.kafka.common.errors.TimeoutException) {
                return noCoordinator(cause, timer);
            }
            throw e;
        } catch (java.util.concurrent.TimeoutException e) {
            return noCoordinator(e, timer);
        }
    }

    private ProbeResult noCoordinator(Throwable cause, Timer timer) {
        return ProbeResult.of(this, ProbeState.LOADING, "no coordinator answers for group '" + group + "' yet ("
                + cause.getClass().getSimpleName() + "): a consumer joins nothing until one does. The coordinator is"
                + " the leader of a partition of __consumer_offsets, which the first FindCoordinator creates; it"
                + " never appears when offsets.topic.replication.factor is larger than the number of brokers", cause,
                timer.elapsed());
    }

    private static String ids(List<Node> nodes) {
        return nodes.stream().map(n -> Integer.toString(n.id())).collect(Collectors.joining(","));
    }

    private static int left(Timer timer, Duration attemptTimeout) {
        return (int) Math.max(1, Math.min(Integer.MAX_VALUE, timer.remaining(attemptTimeout).toMillis()));
    }

    private String missing(Admin a, Timer timer, Duration attemptTimeout) {
        try {
            var names = a.listTopics().names().get(left(timer, attemptTimeout),
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
