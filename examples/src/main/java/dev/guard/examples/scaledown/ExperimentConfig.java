package dev.guard.examples.scaledown;

import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Objects;

/** Size and timing of one experiment run; immutable, from {@link #builder()} or the command line. */
public final class ExperimentConfig {

    private final int jobs;
    private final int workers;
    private final int events;
    private final int perEvent;
    private final Duration grace;
    private final Duration safety;
    private final int slowOneIn;
    private final List<Mode> modes;
    private final List<Transport.Kind> brokers;
    private final KafkaTransport.Protocol kafkaProtocol;
    private final double load;
    private final Duration costAfter;
    private final String amqpUri;
    private final String natsUrl;
    private final String redisUri;
    private final String redisServer;
    private final String workDir;
    private final boolean keepKeys;
    private final boolean completions;

    ExperimentConfig(Builder b) {
        this.completions = b.completions;
        this.jobs = b.jobs;
        this.workers = b.workers;
        this.events = b.events;
        this.perEvent = b.perEvent;
        this.grace = b.grace;
        this.safety = b.safety;
        this.slowOneIn = b.slowOneIn;
        this.modes = List.copyOf(b.modes);
        this.brokers = List.copyOf(b.brokers);
        this.amqpUri = b.amqpUri;
        this.natsUrl = b.natsUrl;
        this.redisUri = b.redisUri;
        this.redisServer = b.redisServer;
        this.workDir = b.workDir;
        this.keepKeys = b.keepKeys;
        this.kafkaProtocol = b.kafkaProtocol;
        this.load = b.load;
        this.costAfter = b.costAfter;
    }

    public static Builder builder() {
        return new Builder();
    }

    /**
     * {@code --jobs N --workers N --events N --per-event N --grace-ms N --safety-ms N --slow-one-in N --modes a,b
     * --redis-uri U --redis-server PATH --work-dir DIR --keep-keys true|false --load F --cost-after-ms N}.
     */
    public static ExperimentConfig parse(String... args) {
        Builder b = builder();
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            if (i + 1 >= args.length) {
                throw new IllegalArgumentException("option " + a + " needs a value");
            }
            String v = args[++i];
            switch (a) {
                case "--jobs" -> b.jobs(Integer.parseInt(v));
                case "--workers" -> b.workers(Integer.parseInt(v));
                case "--events" -> b.events(Integer.parseInt(v));
                case "--per-event" -> b.perEvent(Integer.parseInt(v));
                case "--grace-ms" -> b.grace(Duration.ofMillis(Long.parseLong(v)));
                case "--safety-ms" -> b.safety(Duration.ofMillis(Long.parseLong(v)));
                case "--slow-one-in" -> b.slowOneIn(Integer.parseInt(v));
                case "--modes" -> {
                    EnumSet<Mode> ms = EnumSet.noneOf(Mode.class);
                    for (String m : v.split(",")) {
                        ms.add(Mode.parse(m.trim()));
                    }
                    b.modes(List.copyOf(ms));
                }
                case "--brokers" -> {
                    EnumSet<Transport.Kind> ks = EnumSet.noneOf(Transport.Kind.class);
                    for (String k : v.split(",")) {
                        ks.add(Transport.Kind.parse(k));
                    }
                    b.brokers(List.copyOf(ks));
                }
                case "--amqp-uri" -> b.amqpUri(v);
                case "--nats-url" -> b.natsUrl(v);
                case "--redis-uri" -> b.redisUri(v);
                case "--kafka-protocol" -> b.kafkaProtocol(KafkaTransport.Protocol.parse(v));
                case "--redis-server" -> b.redisServer(v);
                case "--work-dir" -> b.workDir(v);
                case "--keep-keys" -> b.keepKeys(Boolean.parseBoolean(v));
                case "--load" -> b.load(Double.parseDouble(v));
                case "--cost-after-ms" -> b.costAfter(Duration.ofMillis(Long.parseLong(v)));
                case "--completion" -> b.completions(switch (v) {
                    case "records" -> true;
                    case "none" -> false;
                    default -> throw new IllegalArgumentException("--completion is records or none, not '" + v + "'");
                });
                default -> throw new IllegalArgumentException("unknown option " + a + "; options: --jobs --workers --events"
                        + " --per-event --grace-ms --safety-ms --slow-one-in --modes --brokers --amqp-uri --nats-url --redis-uri --kafka-protocol"
                        + " --redis-server --work-dir --keep-keys --load --cost-after-ms --completion");
            }
        }
        return b.build();
    }

    public int jobs() { return jobs; }
    public int workers() { return workers; }
    public int events() { return events; }
    public int perEvent() { return perEvent; }
    public Duration grace() { return grace; }
    public Duration safety() { return safety; }
    public int slowOneIn() { return slowOneIn; }
    public List<Mode> modes() { return modes; }
    /** The brokers to run the modes on (default redis); the sink is Redis for all. */
    public List<Transport.Kind> brokers() { return brokers; }
    /** RabbitMQ to use (default: the machine's, {@code MachineServices.amqpUri()}). */
    public String amqpUri() { return amqpUri; }
    /** NATS with JetStream to use (default: the machine's, {@code MachineServices.natsUrl()}). */
    public String natsUrl() { return natsUrl; }
    /** An existing Redis to use (unique key prefixes); null starts a private redis-server. */
    public String redisUri() { return redisUri; }
    public String redisServer() { return redisServer; }
    public String workDir() { return workDir; }
    /** Leave each mode's keys ({@link Row#keyPrefix()}{@code :*}) in Redis for inspection instead of deleting them. */
    public boolean keepKeys() { return keepKeys; }
    /**
     * Guarded workers record each job's completion in the sink's Redis ({@code RedisCompletions}), their
     * results written with the record in one script ({@code --completion records}); default none.
     */
    public boolean completions() { return completions; }
    /**
     * How Kafka's workers read ({@code --kafka-protocol classic|consumer|share}): a consumer group on
     * the classic protocol with the cooperative sticky assignor (default), on the consumer protocol
     * of KIP-848 (the broker's session timeout and heartbeat then are the classic members' 6 s and
     * 1 s), or a share group of KIP-932 ({@code KafkaShareQueue}).
     */
    public KafkaTransport.Protocol kafkaProtocol() { return kafkaProtocol; }
    /**
     * The fleet's load ({@code --load F}, 0 &lt; F &lt; 1): the jobs are not all queued before the
     * workers start but fed so that about F of the workers hold one at any time ({@link #inFlight()}
     * jobs queued or held), as when an autoscaler scales down because the load fell; 0 (the default)
     * queues every job first and keeps every worker busy. Redis only.
     */
    public double load() { return load; }
    /** Jobs queued or held at once under {@link #load()}. */
    public int inFlight() { return Math.max(1, (int) Math.round(load * workers)); }
    /** The deletion-cost workers' {@code GUARD_DELETION_COST_AFTER} ({@code --cost-after-ms}, default 50 ms). */
    public Duration costAfter() { return costAfter; }

    @Override
    public String toString() {
        return jobs + " jobs, " + workers + " workers, " + events + " scale-down events of " + perEvent + " workers, grace "
                + grace.toMillis() + " ms (safety margin " + safety.toMillis() + " ms), 1 job in " + slowOneIn + " slow"
                + (kafkaProtocol != KafkaTransport.Protocol.CLASSIC && brokers.contains(Transport.Kind.KAFKA)
                        ? ", Kafka's workers " + kafkaProtocol.says() : "")
                + (load > 0 ? ", load " + load + " (" + inFlight() + " jobs queued or held at a time)" : "")
                + (modes.contains(Mode.DELETION_COST) ? ", deletion cost busy after " + costAfter.toMillis() + " ms" : "");
    }

    /** Defaults are the documents' experiment: 100,000 jobs, 50 workers, 3 events of 5, grace 1 s. */
    public static final class Builder {
        private int jobs = 100_000;
        private int workers = 50;
        private int events = 3;
        private int perEvent = 5;
        private Duration grace = Duration.ofSeconds(1);
        private Duration safety = Duration.ofMillis(300);
        private int slowOneIn = 100;
        /** The four rows of the documents; {@link Mode#DELETION_COST} is asked for by name, with {@code --load}. */
        private List<Mode> modes = List.of(Mode.NONE, Mode.GRACEFUL, Mode.FALLBACK, Mode.CRASH_SAFE);
        private List<Transport.Kind> brokers = List.of(Transport.Kind.REDIS);
        private String amqpUri;
        private String natsUrl;
        private String redisUri;
        private boolean completions;
        private String redisServer;
        private String workDir = "target/scaledown";
        private boolean keepKeys;
        private KafkaTransport.Protocol kafkaProtocol = KafkaTransport.Protocol.CLASSIC;
        private double load;
        private Duration costAfter = Duration.ofMillis(50);

        Builder() {}

        public Builder jobs(int jobs) { this.jobs = jobs; return this; }
        public Builder workers(int workers) { this.workers = workers; return this; }
        public Builder events(int events) { this.events = events; return this; }
        public Builder perEvent(int perEvent) { this.perEvent = perEvent; return this; }
        public Builder grace(Duration grace) { this.grace = Objects.requireNonNull(grace); return this; }
        public Builder safety(Duration safety) { this.safety = Objects.requireNonNull(safety); return this; }
        public Builder slowOneIn(int slowOneIn) { this.slowOneIn = slowOneIn; return this; }
        public Builder modes(List<Mode> modes) { this.modes = List.copyOf(modes); return this; }
        public Builder brokers(List<Transport.Kind> brokers) { this.brokers = List.copyOf(brokers); return this; }
        public Builder amqpUri(String amqpUri) { this.amqpUri = amqpUri; return this; }
        public Builder natsUrl(String natsUrl) { this.natsUrl = natsUrl; return this; }
        public Builder redisUri(String redisUri) { this.redisUri = redisUri; return this; }
        public Builder redisServer(String redisServer) { this.redisServer = redisServer; return this; }
        public Builder workDir(String workDir) { this.workDir = Objects.requireNonNull(workDir); return this; }
        public Builder keepKeys(boolean keepKeys) { this.keepKeys = keepKeys; return this; }
        public Builder completions(boolean completions) { this.completions = completions; return this; }
        public Builder load(double load) { this.load = load; return this; }
        public Builder costAfter(Duration after) { this.costAfter = Objects.requireNonNull(after); return this; }
        public Builder kafkaProtocol(KafkaTransport.Protocol p) { this.kafkaProtocol = java.util.Objects.requireNonNull(p); return this; }

        public ExperimentConfig build() {
            if (jobs < 1 || workers < 1 || events < 0 || perEvent < 0 || perEvent > workers || slowOneIn < 1) {
                throw new IllegalArgumentException("need jobs >= 1, workers >= 1, 0 <= per-event <= workers, events >= 0,"
                        + " slow-one-in >= 1; got " + jobs + " jobs, " + workers + " workers, " + events + " events of "
                        + perEvent + ", slow 1 in " + slowOneIn);
            }
            if (safety.compareTo(grace) >= 0) {
                throw new IllegalArgumentException("--safety-ms " + safety.toMillis() + " must be below --grace-ms "
                        + grace.toMillis());
            }
            if (load < 0 || load >= 1) {
                throw new IllegalArgumentException("--load " + load + " must be above 0 and below 1 (0 or unset: every job"
                        + " queued first)");
            }
            if (load > 0 && !brokers.equals(List.of(Transport.Kind.REDIS))) {
                throw new IllegalArgumentException("--load feeds the jobs to a Redis list as they are taken; it runs on"
                        + " --brokers redis only, not " + brokers);
            }
            if (costAfter.isNegative() || costAfter.isZero()) {
                throw new IllegalArgumentException("--cost-after-ms must be positive");
            }
            return new ExperimentConfig(this);
        }
    }
}
