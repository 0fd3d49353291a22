package dev.guard.queue.nats;

import dev.guard.GuardLog;
import dev.guard.config.Durations;
import dev.guard.config.Redaction;
import dev.guard.drain.HandBackFailedException;
import dev.guard.drain.JobClock;
import dev.guard.drain.JobOrigin;
import dev.guard.drain.JobSource;
import dev.guard.drain.SourceLostException;
import dev.guard.queue.SourceBuilder;
import dev.guard.queue.SourceOptions;
import io.nats.client.Connection;
import io.nats.client.JetStream;
import io.nats.client.JetStreamApiException;
import io.nats.client.JetStreamManagement;
import io.nats.client.JetStreamSubscription;
import io.nats.client.Message;
import io.nats.client.PullSubscribeOptions;
import io.nats.client.api.AckPolicy;
import io.nats.client.api.ConsumerConfiguration;
import io.nats.client.api.StreamConfiguration;
import io.nats.client.impl.Headers;
import io.nats.client.impl.NatsMessage;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BiFunction;
import org.slf4j.Logger;

/**
 * A NATS JetStream stream as a {@link JobSource}: a durable pull consumer with explicit acks,
 * one message per fetch, acked (and the ack confirmed) after the handler.
 *
 * <ul>
 *   <li><b>Crash recovery</b>: a message not acked within {@code AckWait} (default 30 s) is
 *       delivered again, to any worker of the consumer: a worker killed holding one loses nothing,
 *       and AckWait bounds how long its job waits.</li>
 *   <li><b>Long jobs</b>: while a job is in hand an in-progress ack ({@code +WPI}) is sent every
 *       third of AckWait, so a job longer than AckWait is not given to a second worker.</li>
 *   <li><b>Hand-back</b>: {@code nak}, delivered again at once.</li>
 *   <li><b>Interruptions</b>: the server's delivered count minus one (naks and AckWait expiries
 *       alike). A message interrupted {@code maxInterruptions} times (default 3) is published to
 *       the dead-letter subject ({@code <subject>.dead}) with the reason and acked. The server's
 *       own {@code MaxDeliver} stays unlimited: at that limit the server stops delivering a message
 *       without a word, which is the loss this class is here to prevent.</li>
 *   <li><b>Failure</b> ({@link #fail}): to the dead-letter subject with the reason, then acked.</li>
 *   <li>A closed connection ends the loop ({@link SourceLostException}); while jnats reconnects,
 *       fetches fail and the loop retries them.</li>
 * </ul>
 *
 * With {@code declare} (the default) the stream is created when missing, capturing the subject
 * and the dead-letter subject. Delivery is at least once: make results idempotent. The caller
 * owns the {@link Connection}.
 */
public final class NatsQueue implements JobSource<NatsJob> {

    private static final Logger LOG = GuardLog.logger(NatsQueue.class);

    private final Connection connection;
    private final JetStream jetStream;
    private final String stream;
    private final String subject;
    private final String deadSubject;
    private final String durable;
    private final Duration ackWait;
    /** How often a job in hand gets an in-progress ack: a third of AckWait. */
    private final Duration progressEvery;
    private final SourceOptions options;
    private final BiFunction<String, String, String> idOf;
    private final JetStreamSubscription subscription;
    private final ScheduledExecutorService progress;
    private final Map<Long, ScheduledFuture<?>> inHand = new ConcurrentHashMap<>();

    NatsQueue(Builder b) throws IOException, JetStreamApiException {
        this.connection = b.connection;
        this.stream = b.stream;
        this.subject = b.subject;
        this.deadSubject = b.deadSubject == null ? b.subject + ".dead" : b.deadSubject;
        this.durable = b.durable;
        this.ackWait = b.ackWait;
        this.progressEvery = Duration.ofMillis(Math.max(1, b.ackWait.toMillis() / 3));
        this.options = b.options();
        this.idOf = b.idOf;
        this.jetStream = connection.jetStream();
        if (b.declare) {
            JetStreamManagement jsm = connection.jetStreamManagement();
            if (!jsm.getStreamNames().contains(stream)) {
                jsm.addStream(StreamConfiguration.builder().name(stream).subjects(subject, deadSubject).build());
            }
        }
        ConsumerConfiguration consumer = ConsumerConfiguration.builder()
                .durable(durable)
                .filterSubject(subject)
                .ackPolicy(AckPolicy.Explicit)
                .ackWait(ackWait)
                .maxDeliver(-1)
                .build();
        this.subscription = jetStream.subscribe(subject,
                PullSubscribeOptions.builder().stream(stream).durable(durable).configuration(consumer).build());
        this.progress = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "guard-nats-in-progress-" + durable);
            t.setDaemon(true);
            return t;
        });
    }

    /** A consumer named {@code durable} of {@code subject} in {@code stream}, on {@code connection} (owned by the caller). */
    public static Builder builder(Connection connection, String stream, String subject, String durable) {
        return new Builder(connection, stream, subject, durable);
    }

    public String deadLetterSubject() {
        return deadSubject;
    }

    /**
     * The next message within the poll timeout; one interrupted {@code maxInterruptions} times is
     * dead-lettered here and not returned.
     *
     * @throws SourceLostException when the connection is closed for good
     */
    @Override
    public Optional<NatsJob> fetch() {
        if (connection.getStatus() == Connection.Status.CLOSED) {
            throw new SourceLostException("NATS consumer '" + durable + "' of stream '" + stream + "': the connection is"
                    + " closed; unacked messages are delivered again after AckWait (" + ackWait.toMillis() + " ms)."
                    + " Action: restart the worker so it waits for NATS again");
        }
        List<Message> messages = subscription.fetch(1, options.pollTimeout());
        for (Message m : messages) {
            NatsJob job = job(m);
            if (!options.exhausted(job.interruptions())) {
                long seq = job.streamSequence();
                long period = progressEvery.toMillis();
                inHand.put(seq, progress.scheduleAtFixedRate(m::inProgress, period, period, TimeUnit.MILLISECONDS));
                return Optional.of(job);
            }
            deadLetter(job, options.exhaustedReason(job.interruptions()));
            LOG.warn("guard nats queue '{}': job {} was interrupted {} times and was moved to '{}'", subject, job.id(),
                    job.interruptions(), deadSubject);
        }
        return Optional.empty();
    }

    private NatsJob job(Message m) {
        String text = new String(m.getData(), java.nio.charset.StandardCharsets.UTF_8);
        String msgId = m.getHeaders() == null ? null : m.getHeaders().getFirst("Nats-Msg-Id");
        String id = idOf.apply(text, msgId);
        if (id == null || id.isBlank()) {
            id = msgId != null ? msgId : stream + "#" + m.metaData().streamSequence();
        }
        return new NatsJob(id, m);
    }

    private void stopProgress(NatsJob job) {
        ScheduledFuture<?> beat = inHand.remove(job.streamSequence());
        if (beat != null) {
            beat.cancel(false);
        }
    }

    /**
     * Another worker claimed the job after this one ({@link dev.guard.drain.Settled.Kind#SUPERSEDED}):
     * stops this worker's in-progress signals and sends nothing else. JetStream gives a message
     * whose AckWait passed to another subscriber while the first may still hold it, and an ack or a
     * nak names the message by its stream sequence: an ack here would settle the other worker's
     * delivery (its crash would then lose the job), a nak would give the job out a third time while
     * the other worker runs it. Left alone, the message comes back after AckWait only if nobody
     * acks it.
     */
    @Override
    public void release(NatsJob job) {
        stopProgress(job);
    }

    /** Acks and waits for the server to confirm it: a job acked here is not delivered again. */
    @Override
    public void ack(NatsJob job) {
        stopProgress(job);
        try {
            job.message.ackSync(options.handBackTimeout());
        } catch (java.util.concurrent.TimeoutException | RuntimeException e) {
            throw new IllegalStateException("guard nats queue '" + subject + "': ack of job " + job.id() + " not confirmed"
                    + " within " + options.handBackTimeout().toMillis() + " ms (" + Redaction.maskText(String.valueOf(e)) + "); it may be"
                    + " delivered again after AckWait and run twice (results must be idempotent)", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while acking job " + job.id(), e);
        }
    }

    /** Naks the message (delivered again at once, counted) and flushes so the server has it. */
    @Override
    public void handBack(NatsJob job) throws HandBackFailedException {
        stopProgress(job);
        try {
            job.message.nak();
            connection.flush(options.handBackTimeout());
        } catch (java.util.concurrent.TimeoutException | RuntimeException e) {
            throw new HandBackFailedException(job.id(), "hand-back (nak) of job " + job.id() + " to NATS consumer '"
                    + durable + "' not flushed within " + options.handBackTimeout().toMillis() + " ms (" + Redaction.maskText(String.valueOf(e))
                    + "); the server delivers it again after AckWait (" + ackWait.toMillis() + " ms)", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new HandBackFailedException(job.id(), "hand-back of job " + job.id() + " interrupted; the server"
                    + " delivers it again after AckWait", e);
        }
    }

    @Override
    public void fail(NatsJob job, Exception cause) {
        stopProgress(job);
        deadLetter(job, "failed: " + Redaction.maskText(String.valueOf(cause)));
    }

    private void deadLetter(NatsJob job, String reason) {
        Headers headers = new Headers();
        if (job.message.getHeaders() != null) {
            job.message.getHeaders().forEach((k, v) -> {
                if (!k.startsWith("Nats-")) {
                    headers.put(k, v);
                }
            });
        }
        headers.put("guard.reason", reason);
        headers.put("guard.source", stream + ":" + subject);
        headers.put("guard.stream-sequence", Long.toString(job.streamSequence()));
        headers.put("guard.interruptions", Long.toString(job.interruptions()));
        try {
            jetStream.publish(NatsMessage.builder().subject(deadSubject).headers(headers).data(job.message.getData()).build());
            job.message.ackSync(options.handBackTimeout());
        } catch (IOException | JetStreamApiException | java.util.concurrent.TimeoutException | RuntimeException e) {
            throw new IllegalStateException("guard nats queue '" + subject + "': job " + job.id() + " could not be moved to '"
                    + deadSubject + "' (" + Redaction.maskText(String.valueOf(e)) + "); unacked, it is delivered again after"
                    + " AckWait", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while dead-lettering job " + job.id(), e);
        }
    }

    @Override
    public String idOf(NatsJob job) {
        return job.id();
    }

    @Override
    public JobOrigin originOf(NatsJob job) {
        return new JobOrigin("nats", job.subject(), null, job.streamSequence(), null);
    }

    /**
     * Whether the stream survives a restart of its server, from its configuration: file storage,
     * replicas on a cluster, and no limit that deletes jobs unread (max age; max msgs or bytes
     * with discard old).
     */
    @Override
    public dev.guard.drain.Durability durability() {
        return NatsDurability.of(connection, stream);
    }

    /**
     * AckWait and the inactive threshold, from the consumer's info on the server (what a consumer
     * created elsewhere has, not what this builder asked for). AckWait is renewed by in-progress
     * acks while a job runs, so it limits a pause, not a job; it is also how long a killed worker's
     * job waits. An inactive threshold deletes the durable consumer, with its record of what is in
     * hand, when nothing reaches it for that long (seen here on nats-server 2.9.10: a consumer with
     * a 2 s threshold and a message held without an in-progress ack was gone after 2 s, and the
     * ack then timed out; with in-progress acks every 500 ms it stayed): renewals further apart
     * than the threshold let it go in the middle of every long job.
     */
    @Override
    public List<JobClock> clocks() {
        ConsumerConfiguration cc;
        try {
            cc = subscription.getConsumerInfo().getConsumerConfiguration();
        } catch (IOException | JetStreamApiException e) {
            throw new IllegalStateException("NATS consumer '" + durable + "' of stream '" + stream + "': its info could"
                    + " not be read (" + e + ")", e);
        }
        String from = "consumer info of '" + durable + "'";
        Duration wait = cc.getAckWait() == null ? ackWait : cc.getAckWait();
        Duration every = progressEvery;
        List<JobClock> out = new ArrayList<>();
        out.add(JobClock.renewed("AckWait", wait, from, every));
        Duration inactive = cc.getInactiveThreshold();
        if (inactive != null && !inactive.isZero() && !inactive.isNegative()) {
            boolean gap = every.compareTo(inactive) >= 0;
            out.add(new JobClock("inactive threshold", inactive, from,
                    gap ? JobClock.Effect.LIMITS_RUN : JobClock.Effect.RENEWED,
                    gap ? null : every,
                    "gets no pull request for that long, and the in-progress acks come every "
                            + Durations.show(every) + " (AckWait / 3): JetStream deletes the durable consumer in the middle of the job, with its"
                            + " record of what is in hand; the ack fails, and a consumer created again starts from its"
                            + " deliver policy",
                    "remove the consumer's inactive threshold (a durable job consumer should not expire: nats consumer"
                            + " rm and add again without --inactive-threshold), or make it longer than AckWait / 3 ("
                            + Durations.show(every) + ")", false));
        }
        out.add(JobClock.pickup("redelivery after a crash (AckWait)", wait, from));
        return out;
    }

    /** Stops the in-progress acks and unsubscribes; the durable consumer stays for the next worker. */
    @Override
    public void close() {
        progress.shutdownNow();
        inHand.clear();
        try {
            if (connection.getStatus() != Connection.Status.CLOSED) {
                subscription.unsubscribe();
            }
        } catch (RuntimeException e) {
            LOG.debug("guard nats queue '{}': unsubscribe at close: {}", subject, e.toString());
        }
    }

    /** Mutable builder. */
    public static final class Builder extends SourceBuilder<Builder> {
        private final Connection connection;
        private final String stream;
        private final String subject;
        private final String durable;
        private String deadSubject;
        private boolean declare = true;
        private Duration ackWait = Duration.ofSeconds(30);
        private BiFunction<String, String, String> idOf = (payload, msgId) -> msgId;

        Builder(Connection connection, String stream, String subject, String durable) {
            this.connection = Objects.requireNonNull(connection, "connection");
            this.stream = Objects.requireNonNull(stream, "stream");
            this.subject = Objects.requireNonNull(subject, "subject");
            this.durable = Objects.requireNonNull(durable, "durable");
        }

        /** Dead-letter subject (default {@code <subject>.dead}); a stream must capture it (the declared one does). */
        public Builder deadLetter(String subject) {
            this.deadSubject = Objects.requireNonNull(subject, "subject");
            return this;
        }

        /** Create the stream when missing, capturing the subject and the dead-letter subject (default true). */
        public Builder declare(boolean declare) {
            this.declare = declare;
            return this;
        }

        /**
         * The consumer's AckWait (default 30 s): how long a job held by a dead worker waits before
         * another takes it. Long jobs keep theirs with in-progress acks.
         */
        public Builder ackWait(Duration ackWait) {
            if (ackWait.toMillis() < 100) {
                throw new IllegalArgumentException("AckWait must be at least 100 ms, was " + ackWait.toMillis() + " ms");
            }
            this.ackWait = ackWait;
            return this;
        }

        @Override
        protected Builder self() {
            return this;
        }

        /** The job id from (payload text, Nats-Msg-Id header); null falls back to the header, then stream#sequence. */
        public Builder idOf(BiFunction<String, String, String> idOf) {
            this.idOf = Objects.requireNonNull(idOf, "idOf");
            return this;
        }

        /** Declares the stream (unless told not to), creates or binds the durable consumer, subscribes. */
        public NatsQueue build() {
            try {
                return new NatsQueue(this);
            } catch (IOException | JetStreamApiException e) {
                throw new IllegalStateException("guard nats queue '" + subject + "' in stream '" + stream + "': cannot"
                        + " subscribe (" + Redaction.maskText(String.valueOf(e)) + "). Action: check that JetStream is"
                        + " enabled (nats-server -js) and the stream captures the subject", e);
            }
        }
    }
}
