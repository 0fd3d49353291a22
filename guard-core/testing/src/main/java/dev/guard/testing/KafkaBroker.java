package dev.guard.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.DescribeClusterOptions;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.Uuid;

/**
 * A real single-node KRaft Kafka broker (broker and controller in one) run as a child JVM
 * from the Maven Central jars on the test classpath ({@code kafka_2.13}, {@code kafka-tools},
 * same version as kafka-clients), on ports of 127.0.0.1 reserved at {@code build()}.
 * Storage is formatted once with {@code kafka.tools.StorageTool}; stop, kill and restart keep
 * the ports and the data dir. Share one broker per test class: a start costs seconds.
 */
public final class KafkaBroker extends LocalServer<KafkaBroker> {

    private final int controllerPort;
    private final Duration startTimeout;
    private final Path properties;
    private String clusterId = Uuid.randomUuid().toString();
    /** This node's id; 1 alone, 1..n in a {@link KafkaCluster}. */
    private int nodeId = 1;
    /** {@code controller.quorum.voters} of a {@link KafkaCluster}; null for a single node. */
    private String voters;
    /** The address clients are told to use ({@link Builder#advertisedHost}); 127.0.0.1 unless set. */
    private final String advertisedHost;
    /** Broker settings that replace or add to the defaults ({@link Builder#setting}). */
    private final java.util.Map<String, String> settings;
    private boolean formatted;
    private Duration lastStartTime;

    KafkaBroker(Builder builder) {
        super("Kafka broker", builder.port, "kafka-", "broker.log", Duration.ofSeconds(30), 30);
        this.advertisedHost = builder.advertisedHost;
        this.settings = java.util.Map.copyOf(builder.settings);
        this.controllerPort = FreePorts.next();
        this.startTimeout = builder.startTimeout;
        this.properties = dir().resolve("server.properties");
    }

    /** A builder: free port. */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * Formats the storage (first start only), spawns the broker JVM and returns once an
     * AdminClient's describeCluster() answers; throws with the broker log tail when the JVM
     * exits or nothing answers within the start timeout (default 90 s).
     */
    @Override
    public synchronized KafkaBroker start() {
        long spawned = spawn();
        awaitMetadata(spawned);
        lastStartTime = Duration.ofNanos(System.nanoTime() - spawned);
        return this;
    }

    /** Formats (first start only) and spawns the JVM without waiting; returns when it was spawned (nanoTime). */
    synchronized long spawn() {
        requireStartable();
        if (!formatted) {
            writeConfig();
            format();
            formatted = true;
        }
        long spawned = System.nanoTime();
        started(Child.local(Children.spawn(javaCommand("kafka.Kafka", properties.toString()), dir(), logFile())));
        return spawned;
    }

    /** Waits for a node {@link #spawn()}ed at {@code spawnedNanos} to answer (a cluster's nodes wait for each other). */
    synchronized void awaitStarted(long spawnedNanos) {
        awaitMetadata(spawnedNanos);
        lastStartTime = Duration.ofNanos(System.nanoTime() - spawnedNanos);
    }

    /** Makes this node {@code nodeId} of a cluster with these voters and id (before its first start). */
    synchronized void joinCluster(int nodeId, String voters, String clusterId) {
        if (formatted) {
            throw new IllegalStateException(this + " was started already");
        }
        this.nodeId = nodeId;
        this.voters = voters;
        this.clusterId = clusterId;
    }

    /** This node's id (1 for a single broker). */
    public int nodeId() {
        return nodeId;
    }

    /** {@code 127.0.0.1:port}, or the advertised host's address and the port. */
    public String bootstrapServers() {
        return (advertisedHost == null ? HOST : advertisedHost) + ":" + port();
    }

    /** The KRaft controller listener's port (not for clients). */
    public int controllerPort() {
        return controllerPort;
    }

    /** Time from spawning the broker JVM to the first answered describeCluster() of the last start; null before. */
    public synchronized Duration lastStartTime() {
        return lastStartTime;
    }

    @Override
    public String toString() {
        return "KafkaBroker[" + (voters == null ? "" : "node " + nodeId + ", ") + bootstrapServers() + ", controller "
                + HOST + ":" + controllerPort + "]";
    }

    private void writeConfig() {
        int rf = voters == null ? 1 : 3;
        String config = String.join("\n",
                "process.roles=broker,controller",
                "node.id=" + nodeId,
                voters == null ? "controller.quorum.bootstrap.servers=" + HOST + ":" + controllerPort
                        : "controller.quorum.voters=" + voters,
                "listeners=PLAINTEXT://" + (advertisedHost == null ? HOST : "0.0.0.0") + ":" + port()
                        + ",CONTROLLER://" + HOST + ":" + controllerPort,
                "advertised.listeners=PLAINTEXT://" + (advertisedHost == null ? HOST : advertisedHost) + ":" + port(),
                "controller.listener.names=CONTROLLER",
                "inter.broker.listener.name=PLAINTEXT",
                "listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT",
                "log.dirs=" + dir().resolve("data"),
                "num.partitions=1",
                "offsets.topic.replication.factor=" + rf,
                "offsets.topic.num.partitions=1",
                "transaction.state.log.replication.factor=" + rf,
                "transaction.state.log.min.isr=" + Math.min(rf, 2),
                "transaction.state.log.num.partitions=1",
                "share.coordinator.state.topic.replication.factor=" + rf,
                "share.coordinator.state.topic.min.isr=" + Math.min(rf, 2),
                "share.coordinator.state.topic.num.partitions=1",
                "default.replication.factor=" + rf,
                "min.insync.replicas=" + Math.min(rf, 2),
                "group.initial.rebalance.delay.ms=0",
                "auto.create.topics.enable=true",
                "");
        // a later line wins in a properties file: the builder's settings replace the defaults above
        StringBuilder extra = new StringBuilder();
        new java.util.TreeMap<>(settings).forEach((k, v) -> extra.append(k).append('=').append(v).append('\n'));
        config += extra;
        String log4j = String.join("\n",
                "status = warn",
                "appender.out.type = Console",
                "appender.out.name = OUT",
                "appender.out.layout.type = PatternLayout",
                "appender.out.layout.pattern = [%d{ISO8601}] %p %m (%c)%n",
                "rootLogger.level = INFO",
                "rootLogger.appenderRef.out.ref = OUT",
                "logger.kafka.name = org.apache.kafka",
                "logger.kafka.level = WARN",
                "logger.state.name = state.change.logger",
                "logger.state.level = WARN",
                "");
        try {
            Files.writeString(properties, config, StandardCharsets.UTF_8);
            Files.writeString(dir().resolve("log4j2.properties"), log4j, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("could not write the broker config in " + dir(), e);
        }
    }

    /** Formats the storage in this JVM ({@code StorageTool.execute}): saves a JVM boot (seconds on 2 cores). */
    private void format() {
        java.io.ByteArrayOutputStream captured = new java.io.ByteArrayOutputStream();
        int exit;
        try (java.io.PrintStream out = new java.io.PrintStream(captured, true, StandardCharsets.UTF_8)) {
            exit = kafka.tools.StorageTool.execute(voters == null
                    ? new String[] {"format", "-t", clusterId, "-c", properties.toString(), "--standalone"}
                    : new String[] {"format", "-t", clusterId, "-c", properties.toString()}, out);
        } catch (RuntimeException e) {
            throw new IllegalStateException("kafka.tools.StorageTool format failed [" + this + "]: " + e
                    + "\nOutput:\n" + captured.toString(StandardCharsets.UTF_8), e);
        }
        if (exit != 0) {
            throw new IllegalStateException("kafka.tools.StorageTool format exited with " + exit + " [" + this
                    + "]. Output:\n" + captured.toString(StandardCharsets.UTF_8));
        }
    }

    private static void requireBrokerOnClasspath() {
        for (String name : List.of("org.apache.kafka.clients.admin.Admin", "kafka.Kafka", "kafka.tools.StorageTool",
                "org.apache.logging.log4j.core.Logger")) {
            try {
                Class.forName(name, false, KafkaBroker.class.getClassLoader());
            } catch (ClassNotFoundException e) {
                throw new IllegalStateException("KafkaBroker runs the broker from this test classpath, but " + name
                        + " is not on it. Add test dependencies org.apache.kafka:kafka_2.13 and "
                        + "org.apache.kafka:kafka-tools (version ${kafka.version}, as kafka-clients), kafka-clients, and "
                        + "org.apache.logging.log4j:log4j-core + log4j-slf4j2-impl to this module's pom.");
            }
        }
    }

    private void awaitMetadata(long spawnedNanos) {
        Properties config = new Properties();
        config.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers());
        config.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, "2000");
        config.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "3000");
        config.put(AdminClientConfig.RECONNECT_BACKOFF_MS_CONFIG, "50");
        config.put(AdminClientConfig.RECONNECT_BACKOFF_MAX_MS_CONFIG, "200");
        long deadline = spawnedNanos + startTimeout.toNanos();
        String last = "no answer yet";
        try (Admin admin = Admin.create(config)) {
            while (System.nanoTime() < deadline) {
                if (!process().isAlive()) {
                    throw failure("the broker JVM ended (" + process().exitStatus() + ") before serving metadata");
                }
                try {
                    Collection<Node> nodes = admin.describeCluster(new DescribeClusterOptions().timeoutMs(2000))
                            .nodes().get(3, TimeUnit.SECONDS);
                    if (!nodes.isEmpty()) {
                        return;
                    }
                    last = "describeCluster answered with no nodes";
                } catch (ExecutionException | TimeoutException e) {
                    last = String.valueOf(e.getCause() == null ? e : e.getCause());
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw failure("interrupted while waiting for the broker");
                }
            }
        }
        kill();
        throw failure("no describeCluster() answer within " + startTimeout.toSeconds() + " s (last: " + last
                + "); the broker JVM was killed");
    }

    private List<String> javaCommand(String mainClass, String... args) {
        String java = Paths.get(System.getProperty("java.home"), "bin", "java").toString();
        String classpath = System.getProperty("surefire.test.class.path");
        if (classpath == null || classpath.isBlank()) {
            classpath = System.getProperty("java.class.path");
        }
        List<String> cmd = new ArrayList<>(List.of(java,
                "-Xms64m", "-Xmx512m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-XX:-UsePerfData",
                "-Xshare:auto", "-Djava.awt.headless=true",
                "-Dlog4j2.configurationFile=" + dir().resolve("log4j2.properties").toUri(),
                "-cp", classpath, mainClass));
        cmd.addAll(List.of(args));
        return cmd;
    }

    /** Builds a {@link KafkaBroker}; the ports are reserved at {@code build()}, nothing starts until {@code start()}. */
    public static final class Builder {
        private int port;
        private Duration startTimeout = Duration.ofSeconds(90);
        private String advertisedHost;
        private final java.util.Map<String, String> settings = new java.util.LinkedHashMap<>();

        Builder() {}

        /**
         * A broker setting (server.properties) that replaces or adds to this fixture's defaults, such
         * as {@code offsets.topic.replication.factor=3} on a single broker, a misconfiguration that
         * leaves every consumer group without a coordinator.
         */
        public Builder setting(String key, String value) {
            settings.put(java.util.Objects.requireNonNull(key, "key"), java.util.Objects.requireNonNull(value, "value"));
            return this;
        }

        /**
         * Listen on every address and tell clients to connect to {@code host} (an address of this
         * machine that another network namespace reaches, such as {@link NetworkNamespace#hostAddress()}):
         * a client takes the broker's address from its metadata, not from its bootstrap list.
         */
        public Builder advertisedHost(String host) {
            this.advertisedHost = java.util.Objects.requireNonNull(host, "host");
            return this;
        }

        /** How long start() waits for the first metadata answer (default 90 s; ~6-20 s seen on 2 busy cores). */
        public Builder startTimeout(Duration timeout) {
            if (timeout == null || timeout.isNegative() || timeout.isZero()) {
                throw new IllegalArgumentException("startTimeout must be positive, was " + timeout);
            }
            this.startTimeout = timeout;
            return this;
        }

        /** The client port; 0 (default) picks a free one at {@code build()}. */
        public Builder port(int port) {
            this.port = LocalServer.requirePort(port);
            return this;
        }

        /** Reserves the ports; fails saying which test dependency to add when the broker jars are missing. */
        public KafkaBroker build() {
            requireBrokerOnClasspath();
            return new KafkaBroker(this);
        }
    }
}
