package dev.guard.queue.kafka;

import dev.guard.GuardLog;
import dev.guard.config.Redaction;
import dev.guard.drain.HandBackFailedException;
import dev.guard.drain.JobClock;
import dev.guard.drain.JobOrigin;
import dev.guard.drain.JobSource;
import dev.guard.drain.SourceLostException;
import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BiFunction;
import java.util.function.Function;
import org.apache.kafka.clients.consumer.CommitFailedException;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerGroupMetadata;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.RebalanceInProgressException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.slf4j.Logger;

/**
 * A Kafka topic as a {@link JobSource}, for a consumer group: the offset of a record is
 * committed (synchronously, per partition, in order) only after its handler finished.
 *
 * <ul>
 *   <li><b>One poll thread</b> owns the {@code KafkaConsumer} (it is not thread-safe) and keeps
 *       polling while a job runs, with every assigned partition paused: however long the job,
 *       the consumer stays in its group ({@code max.poll.interval.ms} is never reached; it is
 *       still sized from {@link Builder#longestJob}, as a bound for a starved poll thread).
 *       Records go to the worker one at a time, in partition order.</li>
 *   <li><b>Hand-back</b>: nothing is committed, the partition is sought back to the record, and
 *       what was fetched after it is dropped: the record comes again, to this worker or, after
 *       the drain, to the group member that gets the partition.</li>
 *   <li><b>Rebalance</b>: what finished before a revocation was committed when it finished; the
 *       job in hand of a revoked partition is waited for ({@link Builder#revocationWait}) and
 *       committed in the rebalance listener if it finishes in time, else abandoned (not committed:
 *       the new owner runs it again, at least once); fetched-but-not-started records are dropped.</li>
 *   <li><b>Failure</b> ({@link #fail}): the record goes to the dead-letter topic
 *       ({@code <topic>.dead}) with the reason in headers, then its offset is committed.</li>
 *   <li><b>Crash</b>: the group's session timeout ends the dead member (the client's
 *       {@code session.timeout.ms} under the classic protocol; the broker's
 *       {@code group.consumer.session.timeout.ms} under the consumer protocol of KIP-848,
 *       {@code group.protocol=consumer}); its partitions resume from the last committed offset, so a
 *       job in hand is run again, none is lost.</li>
 * </ul>
 *
 * Kafka keeps no delivery count, so hand-backs are not limited here; the receipt counts them
 * apart from failures. Results must be idempotent.
 */
public final class KafkaQueue implements JobSource<KafkaJob> {

    private static final Logger LOG = GuardLog.logger(KafkaQueue.class);
    private static final long POLL_MS = 50;
    private static final Duration POLL = Duration.ofMillis(POLL_MS);

    private final String topic;
    private final String deadTopic;
    private final Map<String, Object> clientConfig;
    private final Duration pollTimeout;
    private final Duration commandTimeout;
    private final BiFunction<String, String, String> idOf;
    private final KafkaConsumer<String, byte[]> consumer;
    private final KafkaProducer<String, byte[]> producer;
    private final LinkedBlockingQueue<KafkaJob> ready = new LinkedBlockingQueue<>();
    private final LinkedBlockingQueue<Runnable> commands = new LinkedBlockingQueue<>();
    /** Commands to run again after the next poll (a commit during a rebalance). Poll thread only. */
    private final java.util.ArrayDeque<Runnable> afterPoll = new java.util.ArrayDeque<>();
    private final Thread poller;
    private volatile boolean closed;
    private volatile Throwable died;
    private volatile KafkaJob inHand;
    /** Completed by the worker thread: true when the job in hand finished (ack), false when it was given up. */
    private volatile CompletableFuture<Boolean> inHandDone;
    /** The job the rebalance listener committed for the worker (it finished while its partition was being revoked). */
    private volatile KafkaJob committedOnRevoke;
    /** The job whose offset a {@link KafkaTransactions} completion committed. */
    private volatile KafkaJob committedInTransaction;
    private final Duration revocationWait;
    /** The consumer's settings as built, for {@link #clocks()}. */
    private final Map<String, Object> consumerConfig;
    /** Per partition, how often it was revoked: a job fetched in an earlier epoch is not committed. Poll thread only. */
    private final Map<TopicPartition, Long> epochs = new HashMap<>();

    KafkaQueue(Builder b) {
        this.topic = b.topic;
        this.deadTopic = b.deadTopic == null ? b.topic + ".dead" : b.deadTopic;
        this.clientConfig = b.config;
        this.pollTimeout = b.pollTimeout;
        this.commandTimeout = b.commandTimeout;
        this.idOf = b.idOf;
        this.revocationWait = b.revocationWait != null ? b.revocationWait
                : (b.commandTimeout.dividedBy(2).compareTo(Duration.ofSeconds(5)) < 0 ? b.commandTimeout.dividedBy(2)
                        : Duration.ofSeconds(5));
        Map<String, Object> c = new HashMap<>(b.config);
        c.put(ConsumerConfig.GROUP_ID_CONFIG, b.group);
        c.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        c.putIfAbsent(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        c.putIfAbsent(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 10);
        c.putIfAbsent(ConsumerConfig.MAX_POLL_INTERVAL_MS_CONFIG,
                (int) Math.min(Integer.MAX_VALUE, Math.max(300_000L, b.longestJob.multipliedBy(2).toMillis())));
        c.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
        c.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        this.consumerConfig = Map.copyOf(c);
        this.consumer = consumer(c);
        this.producer = deadLetterProducer(b.config);
        this.poller = new Thread(this::pollLoop, "guard-kafka-poll-" + b.group);
        poller.setDaemon(true);
        consumer.subscribe(List.of(topic), new Rebalance());
        poller.start();
    }

    /**
     * The consumer, or the client's refusal of a classic group setting under the consumer protocol
     * ("session.timeout.ms cannot be set when group.protocol=CONSUMER") said with what to do.
     */
    private KafkaConsumer<String, byte[]> consumer(Map<String, Object> c) {
        try {
            return new KafkaConsumer<>(c);
        } catch (org.apache.kafka.common.config.ConfigException e) {
            String m = String.valueOf(e.getMessage());
            if (!m.contains("group.protocol=CONSUMER")) {
                throw e;
            }
            throw new IllegalArgumentException("guard kafka queue '" + topic + "': " + m + ". Under the consumer group"
                    + " protocol (KIP-848) the broker assigns partitions and sets the session timeout and heartbeat:"
                    + " remove the setting from the queue's client settings, and set group.consumer.session.timeout.ms"
                    + " and group.consumer.heartbeat.interval.ms on the brokers (or consumer.session.timeout.ms and"
                    + " consumer.heartbeat.interval.ms on the group: kafka-configs.sh --alter --entity-type groups"
                    + " --entity-name <group>), or group.remote.assignor on the queue for the assignor. Or keep the"
                    + " classic protocol: group.protocol=classic", e);
        }
    }

    /** The queue's client settings without the consumer's own (bootstrap, security, client id...): a producer's base. */
    Map<String, Object> producerConfig() {
        return producerBase(clientConfig);
    }

    /** The producer of dead letters: the queue's client settings, acks=all, idempotent. */
    static KafkaProducer<String, byte[]> deadLetterProducer(Map<String, Object> config) {
        Map<String, Object> p = producerBase(config);
        p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        return new KafkaProducer<>(p);
    }

    /** {@code config} without the settings only a consumer (of either kind of group) takes. */
    static Map<String, Object> producerBase(Map<String, Object> config) {
        Map<String, Object> p = new HashMap<>(config);
        p.keySet().removeIf(k -> k.startsWith("group.") || k.startsWith("auto.") || k.startsWith("max.poll")
                || k.startsWith("session.") || k.startsWith("heartbeat.") || k.startsWith("enable.auto")
                || k.startsWith("fetch.") || k.startsWith("isolation.") || k.startsWith("partition.assignment")
                || k.startsWith("share."));
        return p;
    }

    /** The job this worker holds now (null between jobs). */
    KafkaJob inHand() {
        return inHand;
    }

    /**
     * The group's metadata (member, generation) for a transaction that commits {@code job}'s offset,
     * when its partition is still this member's in the generation the job was read in; null when it
     * was revoked since (another member may run the job now).
     */
    ConsumerGroupMetadata ownedMetadata(KafkaJob job) {
        return onPoller("group metadata for job " + job.id(), c ->
                c.assignment().contains(job.topicPartition()) && job.generation == epochs.getOrDefault(job.topicPartition(), 0L)
                        ? c.groupMetadata() : null);
    }

    /** {@code job}'s offset was committed by a transaction with its results: its ack commits nothing more. */
    void committedInTransaction(KafkaJob job) {
        committedInTransaction = job;
    }

    /** A member of consumer group {@code group} on {@code topic}; {@code config} holds at least {@code bootstrap.servers}. */
    public static Builder builder(Map<String, Object> config, String topic, String group) {
        return new Builder(config, topic, group);
    }

    public String deadLetterTopic() {
        return deadTopic;
    }

    private void pollLoop() {
        try {
            while (!closed) {
                for (Runnable command; (command = commands.poll()) != null; ) {
                    command.run();
                }
                if (inHand != null || !ready.isEmpty()) {
                    consumer.pause(consumer.assignment()); // keep the membership, fetch nothing more
                } else if (!consumer.paused().isEmpty()) {
                    consumer.resume(consumer.paused());
                }
                for (ConsumerRecord<String, byte[]> r : consumer.poll(POLL)) {
                    TopicPartition tp = new TopicPartition(r.topic(), r.partition());
                    ready.add(KafkaJob.of(r, idOf, epochs.getOrDefault(tp, 0L), 0)); // read after the poll, whose rebalance may bump it
                }
                commands.addAll(afterPoll);
                afterPoll.clear();
            }
        } catch (RuntimeException | Error e) {
            if (!closed) {
                died = e;
                LOG.error("guard kafka queue '{}': the poll thread stopped: {}", topic, Redaction.maskText(String.valueOf(e)));
            }
        } finally {
            for (Runnable command; (command = commands.poll()) != null; ) {
                command.run(); // complete them (they fail on the closed state)
            }
            try {
                consumer.close(commandTimeout); // leaves the group: the partitions move at once
            } catch (RuntimeException e) {
                LOG.warn("guard kafka queue '{}': consumer close: {}", topic, e.toString());
            }
        }
    }

    /** Runs {@code action} on the poll thread and waits for it. */
    private <T> T onPoller(String what, Function<KafkaConsumer<String, byte[]>, T> action) {
        if (died != null || closed) {
            throw new IllegalStateException("guard kafka queue '" + topic + "': " + what + " impossible, the consumer is "
                    + (closed ? "closed" : "stopped (" + died + ")"));
        }
        CompletableFuture<T> result = new CompletableFuture<>();
        long giveUp = System.nanoTime() + commandTimeout.toNanos() / 2;
        commands.add(new Runnable() {
            @Override
            public void run() {
                try {
                    result.complete(closed && died != null ? null : action.apply(consumer));
                } catch (RebalanceInProgressException e) {
                    // the group is rebalancing: a poll completes it; the command runs again after the next one
                    if (System.nanoTime() < giveUp && !closed) {
                        afterPoll.add(this);
                    } else {
                        result.completeExceptionally(e);
                    }
                } catch (RuntimeException e) {
                    result.completeExceptionally(e);
                }
            }
        });
        try {
            return result.get(commandTimeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            throw e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e.getCause());
        } catch (TimeoutException e) {
            throw new IllegalStateException("guard kafka queue '" + topic + "': " + what + " did not complete within "
                    + commandTimeout.toMillis() + " ms", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted during " + what, e);
        }
    }

    /** @throws SourceLostException when the poll thread stopped on an error */
    @Override
    public Optional<KafkaJob> fetch() {
        if (died != null) {
            throw new SourceLostException("Kafka consumer of '" + topic + "': " + Redaction.maskText(String.valueOf(died))
                    + "; uncommitted records go to the group member that gets the partitions. Action: restart the worker");
        }
        try {
            KafkaJob job = ready.poll(pollTimeout.toMillis(), TimeUnit.MILLISECONDS);
            inHandDone = job == null ? null : new CompletableFuture<>();
            inHand = job;
            return Optional.ofNullable(job);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        }
    }

    /** Commits the record's offset + 1 (synchronously), unless its partition was revoked meanwhile. */
    @Override
    public void ack(KafkaJob job) {
        settle(true);
        try {
            if (committedInTransaction != job) {
                commit(job, "ack");
            }
        } finally {
            committedInTransaction = null;
            inHand = null;
        }
    }

    /** The worker is done with the job in hand: finished (true) or not (false); a waiting revocation hears it. */
    private void settle(boolean finished) {
        CompletableFuture<Boolean> done = inHandDone;
        if (done != null) {
            done.complete(finished);
        }
    }

    private void commit(KafkaJob job, String what) {
        Boolean committed;
        try {
            committed = onPoller(what + " of job " + job.id(), c -> {
                if (!c.assignment().contains(job.topicPartition())
                        || job.generation != epochs.getOrDefault(job.topicPartition(), 0L)) {
                    return false;
                }
                c.commitSync(Map.of(job.topicPartition(), new OffsetAndMetadata(job.offset() + 1)), commandTimeout);
                return true;
            });
        } catch (CommitFailedException | RebalanceInProgressException e) {
            // the partition moved before the commit landed: the job is done, but its new owner runs it again
            committed = false;
        }
        if (!Boolean.TRUE.equals(committed) && committedOnRevoke != job) {
            LOG.warn("guard kafka queue '{}': job {} finished after its partition {} was revoked; not committed, the new"
                    + " owner runs it again (results must be idempotent)", topic, job.id(), job.topicPartition());
        }
    }

    /** Commits nothing; seeks the partition back to the record and drops what was fetched after it. */
    @Override
    public void handBack(KafkaJob job) throws HandBackFailedException {
        settle(false);
        try {
            onPoller("hand-back of job " + job.id(), c -> {
                ready.removeIf(j -> j.topicPartition().equals(job.topicPartition()));
                if (c.assignment().contains(job.topicPartition())
                        && job.generation == epochs.getOrDefault(job.topicPartition(), 0L)) {
                    c.seek(job.topicPartition(), job.offset());
                }
                return null;
            });
        } catch (RuntimeException e) {
            throw new HandBackFailedException(job.id(), "hand-back of job " + job.id() + " (" + job.topicPartition() + "@"
                    + job.offset() + ") failed (" + Redaction.maskText(String.valueOf(e)) + "); its offset is not committed,"
                    + " so the group member that gets the partition next runs it", e);
        } finally {
            inHand = null;
        }
    }

    /** Sends the record to the dead-letter topic with the reason (acks=all), then commits it. */
    @Override
    public void fail(KafkaJob job, Exception cause) {
        try {
            producer.send(job.deadLetter(deadTopic, "failed: " + Redaction.maskText(String.valueOf(cause))))
                    .get(commandTimeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException | TimeoutException e) {
            settle(false);
            inHand = null;
            throw new IllegalStateException("guard kafka queue '" + topic + "': job " + job.id() + " could not be sent to '"
                    + deadTopic + "' (" + Redaction.maskText(String.valueOf(e)) + "); not committed, it runs again", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            settle(false);
            inHand = null;
            throw new IllegalStateException("interrupted while dead-lettering job " + job.id(), e);
        }
        ack(job);
    }

    @Override
    public String idOf(KafkaJob job) {
        return job.id();
    }

    @Override
    public JobOrigin originOf(KafkaJob job) {
        return job.origin();
    }

    /**
     * {@code max.poll.interval.ms}, which the poll thread renews every {@value #POLL_MS} ms while a
     * job runs (the partitions paused), and the session timeout, how long a killed worker's
     * partitions wait: the client's {@code session.timeout.ms} under the classic protocol, the
     * broker's {@code group.consumer.session.timeout.ms} (45 s by default, not read here) under the
     * consumer protocol.
     */
    @Override
    public List<JobClock> clocks() {
        Duration maxPoll = Duration.ofMillis(Long.parseLong(String.valueOf(consumerConfig.get(
                ConsumerConfig.MAX_POLL_INTERVAL_MS_CONFIG))));
        boolean consumerProtocol = "consumer".equalsIgnoreCase(String.valueOf(consumerConfig.get("group.protocol")));
        JobClock session;
        if (consumerProtocol) {
            session = JobClock.pickup("redelivery after a crash (session timeout)", Duration.ofSeconds(45),
                    "the broker's group.consumer.session.timeout.ms default").asAssumed();
        } else {
            Object set = consumerConfig.get(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG);
            session = JobClock.pickup("redelivery after a crash (session timeout)",
                    Duration.ofMillis(set == null ? 45_000 : Long.parseLong(String.valueOf(set))),
                    set == null ? "session.timeout.ms, the client's default" : "session.timeout.ms of the queue's settings");
        }
        return List.of(JobClock.renewed("max.poll.interval.ms", maxPoll, "the consumer's settings",
                POLL), session);
    }

    /**
     * Whether the topic survives the loss of a broker: its replication factor on the cluster,
     * {@code min.insync.replicas}, unclean leader election; asked with an admin client of the
     * queue's own settings, closed after.
     */
    @Override
    public dev.guard.drain.Durability durability() {
        return KafkaDurability.of(clientConfig, topic);
    }

    /** Stops the poll thread, which closes the consumer (leaving the group); closes the producer. */
    @Override
    public void close() {
        closed = true;
        try {
            poller.join(commandTimeout.plusSeconds(5).toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        producer.close(commandTimeout);
    }

    private final class Rebalance implements ConsumerRebalanceListener {
        @Override
        public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
            // finished jobs were committed as they finished; the job in hand may finish within the
            // revocation wait and is then committed here, while the partition is still ours; what was
            // fetched and not started goes
            KafkaJob held = inHand;
            CompletableFuture<Boolean> done = inHandDone;
            String fate = "";
            if (held != null && done != null && partitions.contains(held.topicPartition())
                    && held.generation == epochs.getOrDefault(held.topicPartition(), 0L)) {
                Boolean finished = null;
                try {
                    finished = done.get(revocationWait.toMillis(), TimeUnit.MILLISECONDS);
                } catch (TimeoutException e) {
                    finished = null;
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                } catch (ExecutionException e) {
                    finished = null;
                }
                if (Boolean.TRUE.equals(finished)) {
                    try {
                        consumer.commitSync(Map.of(held.topicPartition(), new OffsetAndMetadata(held.offset() + 1)),
                                commandTimeout);
                        committedOnRevoke = held;
                        fate = "; job " + held.id() + " finished during the revocation and was committed";
                    } catch (RuntimeException e) {
                        fate = "; job " + held.id() + " finished but its commit failed (" + e + "): it runs again";
                    }
                } else {
                    fate = "; job " + held.id() + " in hand was not finished within " + revocationWait.toMillis()
                            + " ms and will not be committed (its new owner runs it again)";
                }
            }
            partitions.forEach(tp -> epochs.merge(tp, 1L, Long::sum));
            ready.removeIf(j -> partitions.contains(j.topicPartition()));
            if (!partitions.isEmpty()) {
                LOG.info("guard kafka queue '{}': partitions revoked {}{}", topic, partitions, fate);
            }
        }

        @Override
        public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
            if (!partitions.isEmpty()) {
                LOG.info("guard kafka queue '{}': partitions assigned {}", topic, partitions);
            }
        }
    }

    /** Mutable builder. */
    public static final class Builder {
        private final Map<String, Object> config;
        private final String topic;
        private final String group;
        private String deadTopic;
        private Duration pollTimeout = Duration.ofSeconds(1);
        private Duration commandTimeout = Duration.ofSeconds(10);
        private Duration longestJob = Duration.ofMinutes(1);
        private Duration revocationWait;
        private BiFunction<String, String, String> idOf = (payload, key) -> key;

        Builder(Map<String, Object> config, String topic, String group) {
            this.config = Map.copyOf(Objects.requireNonNull(config, "config"));
            if (!config.containsKey(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG)) {
                throw new IllegalArgumentException("KafkaQueue: config needs bootstrap.servers");
            }
            this.topic = Objects.requireNonNull(topic, "topic");
            this.group = Objects.requireNonNull(group, "group");
        }

        /** Dead-letter topic (default {@code <topic>.dead}). */
        public Builder deadLetter(String topic) {
            this.deadTopic = Objects.requireNonNull(topic, "topic");
            return this;
        }

        /** How long one fetch waits for a record (default 1 s). */
        public Builder pollTimeout(Duration pollTimeout) {
            this.pollTimeout = Objects.requireNonNull(pollTimeout, "pollTimeout");
            return this;
        }

        /** Bound of a commit, a seek, a dead letter's send (default 10 s). */
        public Builder commandTimeout(Duration timeout) {
            this.commandTimeout = Objects.requireNonNull(timeout, "timeout");
            return this;
        }

        /**
         * The longest a job may take (default 1 min): {@code max.poll.interval.ms} becomes twice
         * that (at least Kafka's 5 min), unless the config sets it.
         */
        public Builder longestJob(Duration longest) {
            this.longestJob = Objects.requireNonNull(longest, "longest");
            return this;
        }

        /**
         * How long a revocation of the partition of the job in hand waits for that job to finish so
         * it can still be committed (default: half the command timeout, at most 5 s). The whole
         * group's rebalance waits meanwhile; a job not finished by then is run again by the new owner.
         */
        public Builder revocationWait(Duration wait) {
            this.revocationWait = Objects.requireNonNull(wait, "wait");
            return this;
        }

        /** The job id from (value text, record key); null falls back to the key, then topic-partition@offset. */
        public Builder idOf(BiFunction<String, String, String> idOf) {
            this.idOf = Objects.requireNonNull(idOf, "idOf");
            return this;
        }

        /** Subscribes and starts the poll thread. */
        public KafkaQueue build() {
            return new KafkaQueue(this);
        }
    }
}
