package dev.guard.spring;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * The {@code guard.*} properties. Two are enough for most workers: the dependency, then
 * {@code guard.config.require} (what must be set) and, where the Spring client is not on the
 * class path, {@code guard.brokers}.
 */
@ConfigurationProperties("guard")
public class GuardProperties {

    /** Whether guard's auto-configuration and config check run at all. */
    private boolean enabled = true;

    /**
     * The brokers whose Spring connection properties guard checks, waits for and reports on:
     * redis (spring.data.redis.*), rabbitmq (spring.rabbitmq.*), kafka (spring.kafka.bootstrap-servers),
     * nats (guard.nats.url or nats.spring.server). Empty: those whose Spring client is on the class
     * path (spring-data-redis, spring-rabbit, spring-kafka), and nats when its URL is set. "none": no broker.
     */
    private List<String> brokers = new ArrayList<>();

    private final Config config = new Config();
    private final Wait wait = new Wait();
    private final Health health = new Health();
    private final Nats nats = new Nats();
    private final Kafka kafka = new Kafka();
    private final Rabbitmq rabbitmq = new Rabbitmq();

    public boolean isEnabled() {
        return enabled;
    }

    public void setEnabled(boolean enabled) {
        this.enabled = enabled;
    }

    public List<String> getBrokers() {
        return brokers;
    }

    public void setBrokers(List<String> brokers) {
        this.brokers = brokers;
    }

    public Config getConfig() {
        return config;
    }

    public Wait getWait() {
        return wait;
    }

    public Health getHealth() {
        return health;
    }

    public Rabbitmq getRabbitmq() {
        return rabbitmq;
    }

    public Kafka getKafka() {
        return kafka;
    }

    public Nats getNats() {
        return nats;
    }

    /** The config check, run before the application context is created. */
    public static class Config {
        /** Whether to check settings before the context starts. */
        private boolean enabled = true;

        /**
         * Settings that must be set, checked as what their name or value says they are (URL, host
         * list, host, port, duration, ...). UPPER_CASE names are environment variables; others are
         * Spring properties, looked up in every property source with their origin.
         */
        private List<String> require = new ArrayList<>();

        /** Spring properties that must take their value from the environment, not from a file or a placeholder's default. */
        private List<String> fromEnv = new ArrayList<>();

        /**
         * Which settings may point at localhost: {@code true} (all), {@code false} (none), or
         * names ({@code spring.data.redis.url} because a sidecar in the pod serves it). Unset: all
         * outside a container; none inside one (Kubernetes, Docker, Podman), where a loopback value
         * nobody answers is an error and one something answers is a warning.
         */
        private List<String> allowLoopback;

        /**
         * Whether this runs in a container, which makes localhost the container itself. Unset:
         * detected (KUBERNETES_SERVICE_HOST set, or /.dockerenv or /run/.containerenv present).
         */
        private Boolean inContainer;

        public Boolean getInContainer() {
            return inContainer;
        }

        public void setInContainer(Boolean inContainer) {
            this.inContainer = inContainer;
        }

        public boolean isEnabled() {
            return enabled;
        }

        public void setEnabled(boolean enabled) {
            this.enabled = enabled;
        }

        public List<String> getRequire() {
            return require;
        }

        public void setRequire(List<String> require) {
            this.require = require;
        }

        public List<String> getFromEnv() {
            return fromEnv;
        }

        public void setFromEnv(List<String> fromEnv) {
            this.fromEnv = fromEnv;
        }

        public List<String> getAllowLoopback() {
            return allowLoopback;
        }

        public void setAllowLoopback(List<String> allowLoopback) {
            this.allowLoopback = allowLoopback;
        }
    }

    /** The readiness gate, run before the listener containers start. */
    public static class Wait {
        /** Whether to wait for the brokers before the listener containers start. */
        private boolean enabled = true;

        /** More targets to wait for, as guard-init takes them (redis://h:6379?key=k, amqp://h/vhost?queues=q, kafka://h:9092?topics=t, nats://h:4222?stream=S, tcp://h:p, http://h/path). */
        private List<String> targets = new ArrayList<>();

        /** How long to wait for every target before the application fails to start. */
        private Duration deadline = Duration.ofSeconds(60);

        /** Bound of each single attempt. */
        private Duration attemptTimeout = Duration.ofSeconds(2);

        /**
         * The lifecycle phase the wait runs in: after the embedded web server (so Actuator answers
         * while it waits), before Spring Kafka's and Spring AMQP's listener containers.
         */
        private int phase = ReadinessGateLifecycle.DEFAULT_PHASE;

        public boolean isEnabled() {
            return enabled;
        }

        public void setEnabled(boolean enabled) {
            this.enabled = enabled;
        }

        public List<String> getTargets() {
            return targets;
        }

        public void setTargets(List<String> targets) {
            this.targets = targets;
        }

        public Duration getDeadline() {
            return deadline;
        }

        public void setDeadline(Duration deadline) {
            this.deadline = deadline;
        }

        public Duration getAttemptTimeout() {
            return attemptTimeout;
        }

        public void setAttemptTimeout(Duration attemptTimeout) {
            this.attemptTimeout = attemptTimeout;
        }

        public int getPhase() {
            return phase;
        }

        public void setPhase(int phase) {
            this.phase = phase;
        }
    }

    /** Health contributors built on guard's probes; they replace Spring Boot's own redis and rabbit ones. */
    public static class Health {
        /** Whether to register guard's health contributors. */
        private boolean enabled = true;

        /** Bound of each health check of one broker. */
        private Duration timeout = Duration.ofSeconds(2);

        public boolean isEnabled() {
            return enabled;
        }

        public void setEnabled(boolean enabled) {
            this.enabled = enabled;
        }

        public Duration getTimeout() {
            return timeout;
        }

        public void setTimeout(Duration timeout) {
            this.timeout = timeout;
        }
    }

    /** NATS, which Spring Boot has no properties for. */
    public static class Nats {
        /** The NATS server URL (nats://host:4222, ?stream=NAME to require a JetStream stream). Default: nats.spring.server. */
        private String url;

        public String getUrl() {
            return url;
        }

        public void setUrl(String url) {
            this.url = url;
        }
    }

    /** What guard asks of RabbitMQ beyond spring.rabbitmq.*. */
    public static class Rabbitmq {
        /**
         * Queues that must exist before the listeners start, and for the health to be UP: those of
         * this application's @RabbitListener methods that another service declares (a listener
         * container whose queue is missing stops after a few tries).
         */
        private List<String> queues = new ArrayList<>();

        public List<String> getQueues() {
            return queues;
        }

        public void setQueues(List<String> queues) {
            this.queues = queues;
        }
    }

    /** What guard asks of Kafka beyond spring.kafka.bootstrap-servers. */
    public static class Kafka {
        /**
         * Topics that must exist, each with a leader, before the listeners start, and for the
         * health to be UP (for example the topics of this application's @KafkaListener methods).
         */
        private List<String> topics = new ArrayList<>();

        public List<String> getTopics() {
            return topics;
        }

        public void setTopics(List<String> topics) {
            this.topics = topics;
        }
    }
}
