package dev.guard.queue.kafka;

import dev.guard.config.Redaction;
import dev.guard.drain.CompletionStore;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import org.apache.kafka.clients.consumer.CommitFailedException;
import org.apache.kafka.clients.consumer.ConsumerGroupMetadata;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.errors.AuthorizationException;
import org.apache.kafka.common.errors.FencedInstanceIdException;
import org.apache.kafka.common.errors.IllegalGenerationException;
import org.apache.kafka.common.errors.OutOfOrderSequenceException;
import org.apache.kafka.common.errors.ProducerFencedException;
import org.apache.kafka.common.errors.RebalanceInProgressException;
import org.apache.kafka.common.errors.UnknownMemberIdException;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * Kafka to Kafka, results once: a {@link KafkaQueue}'s job, its result records ({@link KafkaWrites})
 * and its offset in one Kafka transaction, with the consumer group's metadata, so that the broker
 * refuses the offset of a member whose partition was given to another meanwhile (KIP-447: the
 * group's generation is checked when the transaction's offsets are written). The results are
 * there once, for consumers that read with {@code isolation.level=read_committed}.
 *
 * <pre>{@code
 * try (KafkaQueue jobs = KafkaQueue.builder(config, "thumbs", "thumbnailers").build();
 *      KafkaTransactions done = KafkaTransactions.of(jobs)) {
 *     DrainLoop.builder(drain, jobs, Once.handler(done, jobs::idOf,
 *             (job, d, writes) -> writes.send("thumbs.done", job.key(), render(job.payload())))).build().run();
 * }
 * }</pre>
 *
 * <p>The claim is the job this worker holds, its token the partition's assignment epoch here;
 * nothing is "on record" before the job runs: a record whose offset a transaction committed is not
 * given out again, unless the group's offsets are reset. Completion: SUPERSEDED when the partition
 * was revoked since the job was read (checked here, and by the broker in the transaction), the
 * transaction aborted and nothing produced; {@link Unavailable} when the broker does not answer,
 * the transaction aborted, the job handed back.
 */
public final class KafkaTransactions implements CompletionStore<KafkaWrites> {

    private final KafkaQueue queue;
    private final KafkaProducer<String, String> producer;
    private final String transactionalId;

    private KafkaTransactions(KafkaQueue queue, String transactionalId, Duration timeout) {
        this.queue = queue;
        this.transactionalId = transactionalId;
        Map<String, Object> p = new HashMap<>(queue.producerConfig());
        p.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, transactionalId);
        p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        p.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, (int) timeout.toMillis());
        p.put(ProducerConfig.CLIENT_ID_CONFIG, transactionalId);
        // a worker killed inside a transaction (it is open only between the job's end and its commit)
        // leaves it open until this timeout, and read_committed consumers of the results wait behind it:
        // 10 s, not the client's 60 s
        p.put(ProducerConfig.TRANSACTION_TIMEOUT_CONFIG, 10_000);
        this.producer = new KafkaProducer<>(p, new StringSerializer(), new StringSerializer());
        try {
            producer.initTransactions();
        } catch (RuntimeException e) {
            producer.close(Duration.ZERO);
            throw e;
        }
    }

    /** Transactions for {@code queue}'s jobs, with a transactional id of their own (the group's name and a UUID), 10 s timeouts. */
    public static KafkaTransactions of(KafkaQueue queue) {
        return of(queue, "guard-" + queue.deadLetterTopic() + "-" + UUID.randomUUID(), Duration.ofSeconds(10));
    }

    /** With this {@code transactional.id} (unique per live worker) and how long a transaction step may block. */
    public static KafkaTransactions of(KafkaQueue queue, String transactionalId, Duration timeout) {
        return new KafkaTransactions(Objects.requireNonNull(queue, "queue"), Objects.requireNonNull(transactionalId,
                "transactionalId"), Objects.requireNonNull(timeout, "timeout"));
    }

    @Override
    public Claim claim(String jobId) {
        KafkaJob job = held(jobId);
        return new Claim(jobId, job.generation, false);
    }

    @Override
    public KafkaWrites writes(Claim claim) {
        return new KafkaWrites();
    }

    @Override
    public Verdict complete(Claim claim, KafkaWrites writes) {
        KafkaJob job = held(claim.jobId());
        ConsumerGroupMetadata group;
        try {
            group = queue.ownedMetadata(job);
        } catch (RuntimeException e) {
            throw new Unavailable("completion of job " + job.id() + ": the consumer did not answer ("
                    + Redaction.maskText(String.valueOf(e)) + ")", e);
        }
        if (group == null) {
            return Verdict.SUPERSEDED; // revoked since the job was read: its new owner runs it
        }
        try {
            producer.beginTransaction();
            for (ProducerRecord<String, String> r : writes.records()) {
                producer.send(r);
            }
            producer.sendOffsetsToTransaction(Map.of(job.topicPartition(), new OffsetAndMetadata(job.offset() + 1)), group);
            producer.commitTransaction();
            queue.committedInTransaction(job);
            return Verdict.RECORDED;
        } catch (ProducerFencedException | OutOfOrderSequenceException | AuthorizationException e) {
            // this producer cannot go on (another one took its transactional id, or it may not write)
            throw new IllegalStateException("completion of job " + job.id() + ": the transactional producer '"
                    + transactionalId + "' cannot continue (" + Redaction.maskText(String.valueOf(e)) + "); nothing was"
                    + " committed. Action: restart the worker; give each live worker its own transactional id", e);
        } catch (KafkaException e) {
            abort();
            if (fenced(e)) {
                return Verdict.SUPERSEDED;
            }
            throw new Unavailable("completion of job " + job.id() + ": the transaction was aborted ("
                    + Redaction.maskText(String.valueOf(e)) + "); nothing of it is visible to read_committed consumers", e);
        }
    }

    /** The group refused this member's offsets: its generation is over, another member has the partition. */
    private static boolean fenced(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof CommitFailedException || t instanceof IllegalGenerationException
                    || t instanceof UnknownMemberIdException || t instanceof FencedInstanceIdException
                    || t instanceof RebalanceInProgressException) {
                return true;
            }
        }
        return false;
    }

    private void abort() {
        try {
            producer.abortTransaction();
        } catch (RuntimeException ignored) {
            // no transaction open, or the producer is unusable: the broker aborts it on its timeout
        }
    }

    /** The queue's job in hand: one at a time, the one being run (its id may be the boundary's, not the queue's). */
    private KafkaJob held(String jobId) {
        KafkaJob job = queue.inHand();
        if (job == null) {
            throw new IllegalStateException("job " + jobId + ": this worker's KafkaQueue holds no job; a KafkaTransactions"
                    + " completes the job the queue gave out, from the thread that runs it");
        }
        return job;
    }

    @Override
    public String describe() {
        return "Kafka transactions (" + transactionalId + ")";
    }

    @Override
    public void close() {
        producer.close(Duration.ofSeconds(5));
    }
}
