package dev.guard.queue.kafka;

import dev.guard.GuardLog;
import dev.guard.config.Redaction;
import dev.guard.drain.HandBackFailedException;
import dev.guard.drain.JobClock;
import dev.guard.drain.JobOrigin;
import dev.guard.drain.JobSource;
import dev.guard.drain.SourceLostException;
import dev.guard.queue.SourceBuilder;
import dev.guard.queue.SourceOptions;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BiFunction;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.consumer.AcknowledgeType;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaShareConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicIdPartition;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.slf4j.Logger;

/**
 * A Kafka topic read by a share group (KIP-932, "Queues for Kafka", generally available since
 * Kafka 4.2) as a {@link JobSource}: the broker hands each record to one member under an
 * acquisition lock and counts its deliveries, which is the crash-safe queue that
 * {@link KafkaQueue} builds by hand on a consumer group.
 *
 * <ul>
 *   <li><b>One record at a time</b>: explicit acknowledgement, {@code max.poll.records=1} and
 *       {@code share.acquire.mode=record_limit}, so the broker locks only the record in hand; a
 *       record locked ahead and never started would count a delivery at a crash.</li>
 *   <li><b>Done</b> ({@link #ack}): ACCEPT, committed synchronously.</li>
 *   <li><b>Hand-back</b>: RELEASE, committed synchronously: the record is available to any member
 *       at once, its delivery count one higher.</li>
 *   <li><b>Failure</b> ({@link #fail}) and the <b>interruption limit</b>: the record goes to the
 *       dead-letter topic ({@code <topic>.dead}, acks=all) with the reason in headers, then it is
 *       REJECTed (archived). A record delivered more than {@code maxInterruptions} times is
 *       dead-lettered at that delivery, not run. The broker's own limit
 *       ({@code share.delivery.count.limit}, 5 by default) archives a record without a trace: at
 *       build, the group's limit is checked against guard's, and raised to {@code maxInterruptions + 1}
 *       when {@link Builder#declare} (default), so guard always sees the delivery it dead-letters.</li>
 *   <li><b>Long jobs</b>: while a job runs its lock is renewed (RENEW, KIP-1222, Kafka 4.2) every
 *       third of the lock duration ({@code share.record.lock.duration.ms}, 30 s by default; as the
 *       NATS source's in-progress acks every AckWait/3), so a job longer than the lock is not
 *       delivered to a second member meanwhile.</li>
 *   <li><b>Crash</b>: the member's lock expires; the record is delivered again, counted.</li>
 *   <li><b>New group</b>: a share group starts at the log's end by default
 *       ({@code share.auto.offset.reset=latest}), so jobs produced before the group's first member
 *       started would never be delivered; with {@link Builder#declare} an unset reset is set to
 *       {@code earliest}; one explicitly set to latest is named at build.</li>
 * </ul>
 *
 * The share consumer is not thread-safe; one thread of this queue makes every call on it.
 */
public final class KafkaShareQueue implements JobSource<KafkaJob> {

    private static final Logger LOG = GuardLog.logger(KafkaShareQueue.class);
    static final String DELIVERY_LIMIT = "share.delivery.count.limit";
    /** The group's acquisition lock (KIP-932), 30 s by default. */
    static final String LOCK_DURATION = "share.record.lock.duration.ms";
    static final String OFFSET_RESET = "share.auto.offset.reset";

    private final String topic;
    private final String group;
    private final String deadTopic;
    private final Map<String, Object> clientConfig;
    private final SourceOptions options;
    private final BiFunction<String, String, String> idOf;
    private final ScheduledExecutorService owner;
    private final KafkaShareConsumer<String, byte[]> consumer;
    private final KafkaProducer<String, byte[]> producer;
    /** Owner thread only: records polled and not yet given to the worker. */
    private final ArrayDeque<ConsumerRecord<String, byte[]>> acquired = new ArrayDeque<>();
    /** Owner thread only: the record of each job given out and not settled. */
    private final Map<KafkaJob, ConsumerRecord<String, byte[]>> held = new IdentityHashMap<>();
    private ScheduledFuture<?> renewal;
    private volatile boolean renewRefused;
    /** Owner thread: the job in hand was renewed and its record has not come back from a poll yet. */
    private boolean renewPending;
    private volatile Throwable died;
    private volatile boolean closed;
    private volatile long deadLettered;
    /** The group's acquisition lock as read at build; the broker's default until then. */
    private volatile Duration lock = Duration.ofSeconds(30);
    private volatile String lockFrom = LOCK_DURATION + ", the broker's default (not reported by the group)";

    KafkaShareQueue(Builder b) {
        this.topic = b.topic;
        this.group = b.group;
        this.deadTopic = b.deadTopic == null ? b.topic + ".dead" : b.deadTopic;
        this.clientConfig = b.config;
        this.options = b.options();
        this.idOf = b.idOf;
        checkGroup(b.declare);
        Map<String, Object> c = new HashMap<>(b.config);
        c.put(ConsumerConfig.GROUP_ID_CONFIG, b.group);
        c.put(ConsumerConfig.SHARE_ACKNOWLEDGEMENT_MODE_CONFIG, "explicit");
        c.putIfAbsent(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 1);
        c.putIfAbsent(ConsumerConfig.SHARE_ACQUIRE_MODE_CONFIG, "record_limit");
        c.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
        c.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        try {
            this.consumer = new KafkaShareConsumer<>(c);
        } catch (org.apache.kafka.common.config.ConfigException e) {
            throw new IllegalArgumentException("guard kafka share queue '" + topic + "' (group '" + group + "'): "
                    + e.getMessage() + ". A share consumer takes no consumer-group settings (session and heartbeat are"
                    + " the group's share.session.timeout.ms and share.heartbeat.interval.ms, the start position is the"
                    + " group's share.auto.offset.reset): remove it from the queue's client settings", e);
        }
        this.producer = KafkaQueue.deadLetterProducer(b.config);
        this.owner = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "guard-kafka-share-" + group);
            t.setDaemon(true);
            return t;
        });
        onOwner("subscribe", () -> {
            consumer.subscribe(List.of(topic));
            return null;
        });
    }

    /** A member of share group {@code group} on {@code topic}; {@code config} holds at least {@code bootstrap.servers}. */
    public static Builder builder(Map<String, Object> config, String topic, String group) {
        return new Builder(config, topic, group);
    }

    public String deadLetterTopic() {
        return deadTopic;
    }

    /** Records this queue sent to the dead-letter topic because they were interrupted too often. */
    public long deadLettered() {
        return deadLettered;
    }

    /**
     * The group's delivery limit against guard's interruption limit, and its start position; with
     * {@code declare}, raises the one and sets the other where they would lose jobs.
     */
    private void checkGroup(boolean declare) {
        int needed = options.maxInterruptions() + 1;
        ConfigResource res = new ConfigResource(ConfigResource.Type.GROUP, group);
        try (Admin admin = Admin.create(KafkaDurability.adminConfig(clientConfig))) {
            Config config = admin.describeConfigs(List.of(res)).all().get(10, TimeUnit.SECONDS).get(res);
            ConfigEntry limitEntry = config == null ? null : config.get(DELIVERY_LIMIT);
            ConfigEntry resetEntry = config == null ? null : config.get(OFFSET_RESET);
            ConfigEntry lockEntry = config == null ? null : config.get(LOCK_DURATION);
            if (lockEntry != null && lockEntry.value() != null) {
                lock = Duration.ofMillis(Long.parseLong(lockEntry.value()));
                lockFrom = LOCK_DURATION + " of share group '" + group + "' (" + source(lockEntry) + ")";
            }
            int limit = limitEntry == null || limitEntry.value() == null ? 5 : Integer.parseInt(limitEntry.value());
            List<AlterConfigOp> ops = new ArrayList<>();
            if (limit < needed) {
                if (!declare) {
                    throw new IllegalStateException("guard kafka share queue '" + topic + "': share group '" + group
                            + "' archives a record after " + limit + " deliveries (" + DELIVERY_LIMIT + " = " + limit
                            + ", " + source(limitEntry) + "), before guard dead-letters it at delivery " + needed
                            + " (maxInterruptions " + options.maxInterruptions() + "): a job interrupted that often would"
                            + " be dropped without a trace. Action: kafka-configs.sh --alter --entity-type groups"
                            + " --entity-name " + group + " --add-config " + DELIVERY_LIMIT + "=" + needed
                            + ", or maxInterruptions(" + (limit - 1) + "), or let guard set it (declare(true))");
                }
                ops.add(new AlterConfigOp(new ConfigEntry(DELIVERY_LIMIT, Integer.toString(needed)), AlterConfigOp.OpType.SET));
            }
            boolean resetUnset = resetEntry == null || resetEntry.source() != ConfigEntry.ConfigSource.DYNAMIC_GROUP_CONFIG;
            if (resetUnset && declare && (resetEntry == null || !"earliest".equals(resetEntry.value()))) {
                ops.add(new AlterConfigOp(new ConfigEntry(OFFSET_RESET, "earliest"), AlterConfigOp.OpType.SET));
            } else if (resetEntry != null && "latest".equals(resetEntry.value())) {
                LOG.warn("guard kafka share queue '{}': share group '{}' has {}=latest ({}): when the group first starts,"
                        + " jobs already in the topic are never delivered. Action: kafka-configs.sh --alter --entity-type"
                        + " groups --entity-name {} --add-config {}=earliest", topic, group, OFFSET_RESET,
                        source(resetEntry), group, OFFSET_RESET);
            }
            if (!ops.isEmpty()) {
                admin.incrementalAlterConfigs(Map.of(res, ops)).all().get(10, TimeUnit.SECONDS);
                LOG.info("guard kafka share queue '{}': share group '{}' set: {}", topic, group,
                        ops.stream().map(o -> o.configEntry().name() + "=" + o.configEntry().value()).toList());
            }
        } catch (ExecutionException e) {
            throw new IllegalStateException("guard kafka share queue '" + topic + "': the settings of share group '" + group
                    + "' could not be " + (declare ? "read or set" : "read") + " ("
                    + Redaction.maskText(String.valueOf(e.getCause())) + "). guard needs " + DELIVERY_LIMIT + " >= "
                    + needed + " so that the broker never archives a job guard would dead-letter. Action: grant"
                    + " DescribeConfigs" + (declare ? " and AlterConfigs" : "") + " on the group, or set it yourself and"
                    + " build with declare(false)", e.getCause());
        } catch (TimeoutException e) {
            throw new IllegalStateException("guard kafka share queue '" + topic + "': the settings of share group '" + group
                    + "' could not be read within 10 s: is the cluster reachable (guard-init wait kafka://...)?", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while reading share group '" + group + "'", e);
        }
    }

    private static String source(ConfigEntry e) {
        if (e == null) {
            return "not reported; the broker's default";
        }
        return switch (e.source()) {
            case DYNAMIC_GROUP_CONFIG -> "set on the group";
            case DEFAULT_CONFIG -> "the default";
            default -> "from the brokers' group.share settings";
        };
    }

    /** Runs {@code action} on the thread that owns the consumer and waits for it. */
    private <T> T onOwner(String what, Callable<T> action) {
        Future<T> f = owner.submit(action);
        try {
            return f.get(options.pollTimeout().plus(options.handBackTimeout()).plusSeconds(5).toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            throw e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e.getCause());
        } catch (TimeoutException e) {
            f.cancel(true);
            throw new IllegalStateException("guard kafka share queue '" + topic + "': " + what + " did not complete", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted during " + what, e);
        }
    }

    /**
     * The next record within the poll timeout; one delivered more than {@code maxInterruptions}
     * times is dead-lettered instead.
     *
     * @throws SourceLostException when the share consumer failed (share groups not enabled, the
     *     group's authorization refused)
     */
    @Override
    public Optional<KafkaJob> fetch() {
        if (died != null) {
            throw lost(died);
        }
        try {
            return onOwner("fetch", this::next);
        } catch (KafkaException e) {
            died = e;
            throw lost(e);
        }
    }

    private SourceLostException lost(Throwable e) {
        String m = Redaction.maskText(String.valueOf(e));
        String action = m.contains("Unsupported") || m.contains("share")
                ? "check that share groups are enabled on the cluster (Kafka 4.2 or later; on 4.1 kafka-features.sh"
                        + " --bootstrap-server <broker> upgrade --feature share.version=1) and restart the worker"
                : "restart the worker";
        return new SourceLostException("Kafka share consumer of '" + topic + "' (group '" + group + "'): " + m
                + "; records it held come back when their locks expire. Action: " + action);
    }

    /** Owner thread. */
    private Optional<KafkaJob> next() {
        long until = System.nanoTime() + options.pollTimeout().toNanos();
        while (true) {
            if (acquired.isEmpty()) {
                long left = until - System.nanoTime();
                if (left <= 0) {
                    return Optional.empty();
                }
                consumer.poll(Duration.ofNanos(left)).forEach(acquired::add);
                if (acquired.isEmpty()) {
                    return Optional.empty();
                }
            }
            ConsumerRecord<String, byte[]> r = acquired.poll();
            int deliveries = r.deliveryCount().map(Short::intValue).orElse(1);
            KafkaJob job = KafkaJob.of(r, idOf, 0, deliveries);
            held.put(job, r);
            if (options.exhausted(deliveries - 1)) {
                deadLetter(job, options.exhaustedReason(deliveries - 1));
                deadLettered++;
                LOG.warn("guard kafka share queue '{}': job {} ({}) was interrupted {} times and moved to '{}'", topic,
                        job.id(), job.topicPartition() + "@" + job.offset(), deliveries - 1, deadTopic);
                continue;
            }
            if (deliveries > 1) {
                LOG.info("guard kafka share queue '{}': job {} again (delivery {}: interrupted before)", topic, job.id(),
                        deliveries);
            }
            startRenewal(job);
            return Optional.of(job);
        }
    }

    /**
     * Owner thread: renews the lock of the job in hand every third of the lock duration while it
     * runs (a renewal late under load still has two thirds of the lock).
     */
    private void startRenewal(KafkaJob job) {
        long every = renewEvery(consumer.acquisitionLockTimeoutMs().orElse((int) lock.toMillis())).toMillis();
        renewal = owner.scheduleWithFixedDelay(() -> renew(job), every, every, TimeUnit.MILLISECONDS);
    }

    /**
     * Owner thread. A renewed record comes back from the next poll as a new record object, the one
     * the next acknowledgement must name (the client's rule, KAFKA-20458: "AcknowledgeType.RENEW
     * re-delivers records to application via poll() in explicit acknowledgement mode"); until it
     * has, the job's lock is renewed and nothing more is sent.
     */
    private void renew(KafkaJob job) {
        if (!held.containsKey(job) || renewRefused) {
            return;
        }
        if (renewPending && !collectRenewed(job, Duration.ZERO)) {
            return;
        }
        try {
            consumer.acknowledge(held.get(job), AcknowledgeType.RENEW);
            Optional<KafkaException> failed = firstFailure(consumer.commitSync(options.handBackTimeout()));
            if (failed.isPresent()) {
                LOG.warn("guard kafka share queue '{}': the lock of job {} could not be renewed ({}); if it expires before"
                        + " the job ends, the broker delivers the job again", topic, job.id(), failed.get().toString());
                return;
            }
            renewPending = true;
            collectRenewed(job, Duration.ofMillis(100));
        } catch (RuntimeException e) {
            renewRefused = true;
            LOG.warn("guard kafka share queue '{}': the lock of job {} cannot be renewed ({}; RENEW needs Kafka 4.2 and the"
                    + " group's share.renew.acknowledge.enable): a job longer than the lock ({} ms) is delivered again while"
                    + " it runs", topic, job.id(), e.toString(), consumer.acquisitionLockTimeoutMs().orElse(-1));
        }
    }

    /** Owner thread: polls until the renewed record of {@code job} is back (true) or {@code within} passed. */
    private boolean collectRenewed(KafkaJob job, Duration within) {
        long until = System.nanoTime() + within.toNanos();
        do {
            for (ConsumerRecord<String, byte[]> r : consumer.poll(Duration.ofMillis(within.isZero() ? 0 : 20))) {
                if (r.topic().equals(job.topic()) && r.partition() == job.partition() && r.offset() == job.offset()) {
                    held.put(job, r);
                    renewPending = false;
                } else {
                    acquired.add(r);
                }
            }
        } while (renewPending && System.nanoTime() < until);
        return !renewPending;
    }

    /** Owner thread: {@code type} for the job's record, committed; the first per-partition failure, if any. */
    private Optional<KafkaException> settle(KafkaJob job, AcknowledgeType type) {
        if (renewal != null) {
            renewal.cancel(false);
            renewal = null;
        }
        if (renewPending && !collectRenewed(job, options.handBackTimeout())) {
            LOG.warn("guard kafka share queue '{}': the renewed record of job {} did not come back from the client within"
                    + " {} ms; settling the record it was delivered as", topic, job.id(), options.handBackTimeout().toMillis());
        }
        renewPending = false;
        ConsumerRecord<String, byte[]> r = held.remove(job);
        if (r == null) {
            throw new IllegalStateException("job " + job.id() + " is not held by this queue (settled twice?)");
        }
        consumer.acknowledge(r, type);
        return firstFailure(consumer.commitSync(options.handBackTimeout()));
    }

    private static Optional<KafkaException> firstFailure(Map<TopicIdPartition, Optional<KafkaException>> result) {
        return result.values().stream().flatMap(Optional::stream).findFirst();
    }

    /** ACCEPT, committed. */
    @Override
    public void ack(KafkaJob job) {
        Optional<KafkaException> failed = onOwner("ack of job " + job.id(), () -> settle(job, AcknowledgeType.ACCEPT));
        failed.ifPresent(e -> LOG.warn("guard kafka share queue '{}': job {} finished but its acknowledgement was refused"
                + " ({}): its lock had expired or the broker moved; the broker delivers it again (results must be"
                + " idempotent)", topic, job.id(), e.toString()));
    }

    /** RELEASE, committed: available to any member at once, its delivery count one higher. */
    @Override
    public void handBack(KafkaJob job) throws HandBackFailedException {
        Optional<KafkaException> failed;
        try {
            failed = onOwner("hand-back of job " + job.id(), () -> settle(job, AcknowledgeType.RELEASE));
        } catch (RuntimeException e) {
            failed = Optional.of(e instanceof KafkaException k ? k : new KafkaException(e));
        }
        if (failed.isPresent()) {
            throw new HandBackFailedException(job.id(), "hand-back of job " + job.id() + " (" + job.topicPartition() + "@"
                    + job.offset() + ") was not confirmed (" + Redaction.maskText(String.valueOf(failed.get()))
                    + "); the broker delivers it again when its lock expires", failed.get());
        }
    }

    /** Sends the record to the dead-letter topic with the reason (acks=all), then REJECTs it. */
    @Override
    public void fail(KafkaJob job, Exception cause) {
        onOwner("dead letter of job " + job.id(), () -> {
            deadLetter(job, "failed: " + Redaction.maskText(String.valueOf(cause)));
            return null;
        });
    }

    /** Owner thread: publish, then REJECT; a publish that fails RELEASEs the record and throws. */
    private void deadLetter(KafkaJob job, String reason) {
        try {
            producer.send(job.deadLetter(deadTopic, reason))
                    .get(options.handBackTimeout().toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException | TimeoutException | InterruptedException e) {
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            Optional<KafkaException> released = settle(job, AcknowledgeType.RELEASE);
            throw new IllegalStateException("guard kafka share queue '" + topic + "': job " + job.id() + " could not be"
                    + " sent to '" + deadTopic + "' (" + Redaction.maskText(String.valueOf(e)) + "); "
                    + (released.isEmpty() ? "released, it runs again" : "its lock expires and it runs again"), e);
        }
        settle(job, AcknowledgeType.REJECT).ifPresent(e -> LOG.warn("guard kafka share queue '{}': job {} is in '{}'"
                + " but its rejection was refused ({}); the broker may deliver it again", topic, job.id(), deadTopic, e));
    }

    @Override
    public String idOf(KafkaJob job) {
        return job.id();
    }

    @Override
    public JobOrigin originOf(KafkaJob job) {
        return job.origin();
    }

    /** How often the lock of the job in hand is renewed: a third of the lock, at least 100 ms. */
    private static Duration renewEvery(long lockMs) {
        return Duration.ofMillis(Math.max(100, lockMs / 3));
    }

    /**
     * The acquisition lock, read from the group's settings at build: renewed every third of it
     * while a job runs, so it limits a pause, not a job; and how long a killed worker's job waits.
     */
    @Override
    public List<JobClock> clocks() {
        return List.of(JobClock.renewed("acquisition lock", lock, lockFrom, renewEvery(lock.toMillis())),
                JobClock.pickup("redelivery after a crash (lock)", lock, lockFrom));
    }

    /** As {@link KafkaQueue#durability()}: the topic's replication on the cluster. */
    @Override
    public dev.guard.drain.Durability durability() {
        return KafkaDurability.of(clientConfig, topic);
    }

    /**
     * RELEASEs what was polled and not started (uncounted by guard, though the broker counts the
     * delivery) and any job still held, then closes the consumer (leaving the group) and the producer.
     */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            onOwner("close", () -> {
                for (ConsumerRecord<String, byte[]> r; (r = acquired.poll()) != null; ) {
                    consumer.acknowledge(r, AcknowledgeType.RELEASE);
                }
                if (!held.isEmpty()) {
                    LOG.warn("guard kafka share queue '{}': closing with {} job(s) not settled; released", topic, held.size());
                    held.values().forEach(r -> consumer.acknowledge(r, AcknowledgeType.RELEASE));
                    held.clear();
                }
                try {
                    consumer.commitSync(options.handBackTimeout());
                } finally {
                    consumer.close(options.handBackTimeout());
                }
                return null;
            });
        } catch (RuntimeException e) {
            LOG.warn("guard kafka share queue '{}': close: {}; held records come back when their locks expire", topic,
                    Redaction.maskText(String.valueOf(e)));
        } finally {
            owner.shutdownNow();
            producer.close(options.handBackTimeout());
        }
    }

    /** Mutable builder. */
    public static final class Builder extends SourceBuilder<Builder> {
        private final Map<String, Object> config;
        private final String topic;
        private final String group;
        private String deadTopic;
        private boolean declare = true;
        private BiFunction<String, String, String> idOf = (payload, key) -> key;

        Builder(Map<String, Object> config, String topic, String group) {
            this.config = Map.copyOf(Objects.requireNonNull(config, "config"));
            if (!config.containsKey(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG)) {
                throw new IllegalArgumentException("KafkaShareQueue: config needs bootstrap.servers");
            }
            this.topic = Objects.requireNonNull(topic, "topic");
            this.group = Objects.requireNonNull(group, "group");
        }

        @Override
        protected Builder self() {
            return this;
        }

        /** Dead-letter topic (default {@code <topic>.dead}). */
        public Builder deadLetter(String topic) {
            this.deadTopic = Objects.requireNonNull(topic, "topic");
            return this;
        }

        /**
         * Set the group's {@code share.delivery.count.limit} to {@code maxInterruptions + 1} where it is
         * lower, and an unset {@code share.auto.offset.reset} to earliest (default true; needs
         * AlterConfigs on the group). With false a lower limit is refused at build, with the command
         * that raises it.
         */
        public Builder declare(boolean declare) {
            this.declare = declare;
            return this;
        }

        /** The job id from (value text, record key); null falls back to the key, then topic-partition@offset. */
        public Builder idOf(BiFunction<String, String, String> idOf) {
            this.idOf = Objects.requireNonNull(idOf, "idOf");
            return this;
        }

        /** Checks (and with declare sets) the group's settings, creates the share consumer and subscribes. */
        public KafkaShareQueue build() {
            return new KafkaShareQueue(this);
        }
    }
}
