package dev.guard.queue.amqp;

import dev.guard.GuardLog;
import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.Delivery;
import com.rabbitmq.client.ShutdownSignalException;
import dev.guard.config.Redaction;
import dev.guard.drain.HandBackFailedException;
import dev.guard.drain.JobClock;
import dev.guard.drain.JobOrigin;
import dev.guard.drain.JobSource;
import dev.guard.drain.SourceLostException;
import dev.guard.queue.SourceBuilder;
import dev.guard.queue.SourceOptions;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BiFunction;
import org.slf4j.Logger;

/**
 * A RabbitMQ queue as a {@link JobSource}: {@code basic.consume} with manual ack and a bounded
 * prefetch (default 1), ack after the handler. RabbitMQ keeps every unacked delivery: when the
 * worker dies holding one (SIGKILL, OOM, node loss) the broker requeues it as soon as the
 * connection drops, which is the crash recovery (no lease, no reaper).
 *
 * <ul>
 *   <li><b>Hand-back</b> on a quorum queue: {@code basic.reject(requeue=true)}, and the broker
 *       counts it in {@code x-delivery-count} like a crash, on every version: RabbitMQ 4.3 counts a
 *       reject and not a nack (its quorum queue guide, "When is delivery count incremented?"), 3.x
 *       and 4.0-4.2 count every return. On a classic queue, which counts
 *       nothing but a {@code redelivered} flag, the job is republished to the queue with
 *       {@value #INTERRUPTIONS_HEADER} incremented (publisher-confirmed), then acked: it goes to
 *       the back of the queue.</li>
 *   <li><b>Interruptions</b>: {@code x-delivery-count} on quorum queues (hand-backs and crashes
 *       alike; from 4.3 not a return after a consumer timeout, which the guide's table does not count); on classic queues the header plus one when {@code redelivered} is set (a crash
 *       counts once at most: use a quorum queue where a job may kill its worker again and again).
 *       A delivery interrupted {@code maxInterruptions} times (default 3) is not given to the
 *       handler: it is published to the dead-letter queue with the reason and acked.</li>
 *   <li><b>Failure</b> ({@link #fail}): published to the dead-letter queue ({@code <queue>:dead})
 *       with the reason in headers, then acked.</li>
 *   <li><b>Close</b> (after the drain): {@code basic.cancel}; deliveries prefetched but not handed
 *       to the loop are nacked back with requeue.</li>
 *   <li>A lost connection or channel ends the loop ({@link SourceLostException}): its unacked
 *       deliveries are requeued by the broker, and the worker should restart and wait for
 *       RabbitMQ again (exit 69).</li>
 * </ul>
 *
 * Delivery is at least once: make results idempotent. The caller owns the {@link Connection};
 * the queue opens two channels on it (consume, and publish with confirms) and closes them.
 */
public final class AmqpQueue implements JobSource<AmqpJob> {

    /** Header in which a classic queue's hand-backs are counted. */
    public static final String INTERRUPTIONS_HEADER = "x-guard-interruptions";
    /** The quorum queue's own delivery counter. */
    public static final String DELIVERY_COUNT_HEADER = "x-delivery-count";

    private static final Logger LOG = GuardLog.logger(AmqpQueue.class);

    private final String queue;
    private final String deadLetter;
    private final boolean quorum;
    private final SourceOptions options;
    private final BiFunction<String, String, String> idOf;
    private final Channel channel;
    private final Channel publisher;
    private final LinkedBlockingQueue<Delivery> buffer = new LinkedBlockingQueue<>();
    private final String consumerTag;
    private volatile String lostBecause;
    /** The queue's arguments as read (or declared) at build; null where the build did not read them (a classic queue). */
    private volatile Map<String, Object> queueArgs;
    /** Sent as the consumer's {@code x-consumer-timeout}; null when not set. */
    private final Duration consumerTimeout;
    /** Set by {@link #durability()} on a durable classic queue: a transient message there dies with the broker. */
    private volatile boolean classicQueue;
    /** Jobs seen published transient on a durable classic queue (the first one is logged). */
    private long transientJobs;

    AmqpQueue(Builder b) throws IOException {
        this.queue = b.queue;
        this.deadLetter = b.deadLetter == null ? b.queue + ":dead" : b.deadLetter;
        this.quorum = b.quorum;
        this.options = b.options();
        this.idOf = b.idOf;
        this.consumerTimeout = b.consumerTimeout;
        this.channel = b.connection.createChannel();
        this.publisher = b.connection.createChannel();
        try {
            publisher.confirmSelect();
            Map<String, Object> quorumArgs = quorum ? Map.of("x-queue-type", "quorum") : null;
            if (quorum) {
                checkQuorumQueue(b.connection, b.declare);
            } else if (b.declare) {
                channel.queueDeclare(queue, true, false, false, null);
            }
            if (b.declare) {
                declareDeadLetter(b.connection, quorumArgs);
            }
            channel.basicQos(b.prefetch);
            channel.addShutdownListener(this::lost);
            this.consumerTag = channel.basicConsume(queue, false, b.consumerName, false, false,
                    consumerTimeout == null ? null : Map.of("x-consumer-timeout", consumerTimeout.toMillis()),
                    (tag, delivery) -> buffer.add(delivery),
                    tag -> lostBecause = "the broker cancelled the consumer of '" + queue + "': the queue was deleted,"
                            + " or, on RabbitMQ 4.3 and later, a job was held longer than the queue's consumer timeout"
                            + " (RabbitMQ's quorum queue guide: \"The consumer is cancelled (if the client supports the"
                            + " consumer_cancel_notify capability)\"; not run here, RabbitMQ 4 is not on this machine)");
        } catch (IOException | RuntimeException e) {
            closeQuietly();
            throw e;
        }
    }

    /**
     * A quorum queue's delivery limit and dead-letter target against guard's interruption limit,
     * so that the broker never drops a job guard would dead-letter. RabbitMQ's quorum queue guide,
     * "Poison Message Handling": "When a message has been redelivered more times than the limit the
     * message will be dropped (removed) or dead-lettered (if a DLX is configured)", and since 4.0
     * "the delivery limit for quorum queues defaults to 20". Seen here on 3.10.8 with
     * {@code x-delivery-limit} 2: deliveries with {@code x-delivery-count} 0, 1 and 2, then none;
     * guard dead-letters the delivery whose count reaches {@code maxInterruptions}, so the limit must
     * be at least that. A missing queue is declared (with {@code declare}) with the dead-letter queue
     * as its dead-letter target, so that anything the broker itself drops lands there too; an
     * existing one is read ({@link AmqpQueueArgs}), not declared again with other arguments.
     */
    private void checkQuorumQueue(Connection connection, boolean declare) throws IOException {
        AmqpQueueArgs.Result found;
        try {
            found = AmqpQueueArgs.read(connection, queue, Map.of("x-queue-type", "quorum"));
        } catch (IOException e) {
            if (AmqpQueueArgs.closeCode(e) != 403) {
                throw e;
            }
            // a worker's user without configure permission may consume but not declare: warn, consume
            LOG.warn("guard amqp queue '{}': its delivery limit and dead-letter target could not be read ({}): the"
                    + " worker's user may not declare the queue, which is how guard reads them over AMQP. RabbitMQ drops a"
                    + " job past the queue's delivery limit unless it has a dead-letter exchange; check that the limit"
                    + " (x-delivery-limit or a policy's delivery-limit; 20 by default on RabbitMQ 4) is at least {}, or"
                    + " grant configure on the queue", queue, Redaction.maskText(String.valueOf(AmqpQueueArgs.closeText(e))),
                    options.maxInterruptions());
            return;
        }
        if (!found.exists()) {
            if (!declare) {
                throw new IOException("queue '" + queue + "' does not exist and the source was built with declare(false)");
            }
            Map<String, Object> declared = Map.of("x-queue-type", "quorum", "x-dead-letter-exchange", "",
                    "x-dead-letter-routing-key", deadLetter);
            channel.queueDeclare(queue, true, false, false, declared);
            queueArgs = declared;
            LOG.info("guard amqp queue '{}': declared a quorum queue whose dead-letter target is '{}'", queue, deadLetter);
            return;
        }
        if (found.mismatch() != null) {
            throw new IllegalStateException("guard amqp queue '" + queue + "' was built as a quorum queue (quorum(true)), but"
                    + " RabbitMQ has it otherwise: " + found.mismatch().text() + ". A classic queue keeps no delivery count,"
                    + " so guard would count interruptions wrongly. Action: build the source with quorum(false), or"
                    + " re-create the queue with x-queue-type quorum");
        }
        queueArgs = found.args();
        String version = serverVersion(connection);
        Object limitArg = found.args().get("x-delivery-limit");
        long limit;
        String limitFrom;
        if (limitArg instanceof Number n) {
            limit = n.longValue();
            limitFrom = "x-delivery-limit " + limit;
        } else if (atLeast(version, 4, 0)) {
            limit = 20;
            limitFrom = "RabbitMQ 4's default for quorum queues (no x-delivery-limit)";
        } else {
            limit = -1;
            limitFrom = "none on RabbitMQ " + version + " without x-delivery-limit";
        }
        Object dlx = found.args().get("x-dead-letter-exchange");
        LOG.info("guard amqp queue '{}': quorum queue on RabbitMQ {}; delivery limit: {}; dead-letter exchange: {};"
                + " guard dead-letters at {} interruptions. A policy's delivery-limit or dead-letter-exchange is not"
                + " visible over AMQP (rabbitmqctl list_queues name effective_policy_definition shows it)", queue, version,
                limitFrom, dlx == null ? "none" : "'" + dlx + "'", options.maxInterruptions());
        if (limit < 0 || limit >= options.maxInterruptions()) {
            return;
        }
        if (dlx != null) {
            LOG.warn("guard amqp queue '{}': RabbitMQ dead-letters a job to exchange '{}' after {} interruptions ({}),"
                    + " before guard's limit of {}: it arrives there without guard's reason. Action: maxInterruptions({})"
                    + " or a higher x-delivery-limit", queue, dlx, limit, limitFrom, options.maxInterruptions(), limit);
            return;
        }
        throw new IllegalStateException("guard amqp queue '" + queue + "': RabbitMQ drops a job interrupted more than "
                + limit + " times (" + limitFrom + ", no dead-letter exchange), before guard dead-letters it at "
                + options.maxInterruptions() + ": a job interrupted that often would vanish without a trace. Action:"
                + " maxInterruptions(" + Math.max(1, limit) + ") or less, or a higher delivery limit, or a dead-letter"
                + " exchange on the queue (policy dead-letter-exchange, or x-dead-letter-exchange when it is declared)");
    }

    static String serverVersion(Connection connection) {
        Object v = connection.getServerProperties() == null ? null : connection.getServerProperties().get("version");
        return v == null ? "(version not told)" : v.toString();
    }

    /**
     * The dead-letter queue, durable; of a quorum source, a quorum queue too when it does not exist
     * yet. A classic queue lives on one node of a cluster: when that node died, every worker that
     * declared it stopped at start ("home node ... is down or inaccessible", seen in the fault
     * matrix's RabbitMQ failover). An existing dead-letter queue is kept as it is: declaring it with
     * other arguments would fail.
     */
    private void declareDeadLetter(Connection connection, Map<String, Object> quorumArgs) throws IOException {
        if (quorumArgs != null) {
            Channel probe = connection.createChannel();
            try {
                probe.queueDeclarePassive(deadLetter);
                return; // exists: as it is
            } catch (IOException notThere) {
                // 404: the broker closed the probe channel; declare it below
            } finally {
                if (probe.isOpen()) {
                    try {
                        probe.close();
                    } catch (java.util.concurrent.TimeoutException | IOException | RuntimeException ignored) {
                        // closing a spare channel
                    }
                }
            }
        }
        channel.queueDeclare(deadLetter, true, false, false, quorumArgs);
    }

    /** A queue consumer on {@code connection} (owned by the caller). */
    public static Builder builder(Connection connection, String queue) {
        return new Builder(connection, queue);
    }

    public String queue() {
        return queue;
    }

    public String deadLetterQueue() {
        return deadLetter;
    }

    private void lost(ShutdownSignalException cause) {
        if (lostBecause == null && !cause.isInitiatedByApplication()) {
            lostBecause = lostText(cause.getReason() instanceof AMQP.Channel.Close c ? c.getReplyCode() + " " + c.getReplyText()
                    : Redaction.maskText(String.valueOf(cause.getReason() != null ? cause.getReason() : cause)));
        }
    }

    /**
     * Why the channel went, in words: a delivery held past the broker's consumer timeout is named as
     * such (RabbitMQ 3.x-4.2 close the channel with "PRECONDITION_FAILED - delivery acknowledgement on
     * channel 1 timed out. Timeout value used: 1800000 ms...", seen here on 3.10.8).
     */
    static String lostText(String reason) {
        if (reason.contains("delivery acknowledgement on channel") && reason.contains("timed out")) {
            return "RabbitMQ closed the channel because a job was held longer than its consumer timeout (" + reason
                    + "): the job goes back to the queue and runs again, and so does every job that outlasts it."
                    + " Action: raise the timeout for this queue (the x-consumer-timeout argument or a consumer-timeout"
                    + " policy on RabbitMQ 3.12 and later; consumer_timeout in rabbitmq.conf, 30 minutes by default, for"
                    + " the whole broker), or split the job";
        }
        return reason;
    }

    /**
     * The next delivery within the poll timeout; one interrupted {@code maxInterruptions} times is
     * dead-lettered here and not returned.
     *
     * @throws SourceLostException when the channel or connection is gone
     */
    @Override
    public Optional<AmqpJob> fetch() {
        long until = System.nanoTime() + options.pollTimeout().toNanos();
        while (true) {
            if (lostBecause != null) {
                throw new SourceLostException("RabbitMQ queue '" + queue + "': " + lostBecause + "; its unacked deliveries"
                        + " go back to the queue. Action: restart the worker so it waits for RabbitMQ again");
            }
            Delivery d;
            try {
                d = buffer.poll(Math.max(0, until - System.nanoTime()), TimeUnit.NANOSECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return Optional.empty();
            }
            if (d == null) {
                return Optional.empty();
            }
            AmqpJob job = job(d);
            if (!options.exhausted(job.interruptions())) {
                return Optional.of(job);
            }
            deadLetter(job, options.exhaustedReason(job.interruptions()));
            LOG.warn("guard amqp queue '{}': job {} was interrupted {} times and was moved to '{}'", queue, job.id(),
                    job.interruptions(), deadLetter);
        }
    }

    private AmqpJob job(Delivery d) {
        AMQP.BasicProperties p = d.getProperties();
        Map<String, Object> headers = p.getHeaders() == null ? Map.of() : p.getHeaders();
        long interruptions;
        if (headers.get(DELIVERY_COUNT_HEADER) instanceof Number n) {
            interruptions = n.longValue();
        } else {
            interruptions = (headers.get(INTERRUPTIONS_HEADER) instanceof Number n ? n.longValue() : 0)
                    + (d.getEnvelope().isRedeliver() ? 1 : 0);
        }
        if (classicQueue && !Integer.valueOf(2).equals(p.getDeliveryMode()) && transientJobs++ == 0) {
            // once: the producer sends them all alike
            LOG.warn("guard amqp queue '{}': a job arrived published transient (delivery_mode {}): on a classic queue"
                    + " RabbitMQ keeps such messages in memory only, and a restart of the broker drops every one still"
                    + " queued. Action: publish with delivery_mode 2 (MessageProperties.PERSISTENT_TEXT_PLAIN, or"
                    + " properties.deliveryMode(2)), or make the queue a quorum queue", queue, p.getDeliveryMode());
        }
        String text = new String(d.getBody(), java.nio.charset.StandardCharsets.UTF_8);
        String id = idOf.apply(text, p.getMessageId());
        if (id == null || id.isBlank()) {
            id = p.getMessageId() != null ? p.getMessageId() : queue + "#" + d.getEnvelope().getDeliveryTag();
        }
        return new AmqpJob(id, d.getBody(), d.getEnvelope().getDeliveryTag(), interruptions,
                d.getEnvelope().isRedeliver(), p.getMessageId(), p);
    }

    @Override
    public void ack(AmqpJob job) {
        try {
            channel.basicAck(job.deliveryTag(), false);
        } catch (IOException | RuntimeException e) {
            throw new IllegalStateException("guard amqp queue '" + queue + "': ack of job " + job.id() + " failed ("
                    + Redaction.maskText(String.valueOf(e)) + "); it stays unacked and RabbitMQ delivers it again", e);
        }
    }

    @Override
    public void handBack(AmqpJob job) throws HandBackFailedException {
        try {
            if (quorum) {
                // basic.reject, not basic.nack: from RabbitMQ 4.3 on only a reject counts in x-delivery-count
                // (quorum queue guide, "When is delivery count incremented?": basic.nack increments
                // acquired-count only, basic.reject both); on 3.x and 4.0-4.2 every return counts
                channel.basicReject(job.deliveryTag(), true);
            } else {
                Map<String, Object> headers = new HashMap<>(job.properties.getHeaders() == null ? Map.of()
                        : job.properties.getHeaders());
                headers.put(INTERRUPTIONS_HEADER, job.interruptions() + 1);
                publishConfirmed(queue, job.properties.builder().headers(headers).build(), job.body());
                channel.basicAck(job.deliveryTag(), false);
            }
        } catch (IOException | TimeoutException | RuntimeException e) {
            throw new HandBackFailedException(job.id(), "hand-back of job " + job.id() + " to RabbitMQ queue '" + queue
                    + "' did not complete within " + options.handBackTimeout().toMillis() + " ms (" + Redaction.maskText(String.valueOf(e))
                    + "); it stays unacked, and RabbitMQ requeues it when this connection closes", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new HandBackFailedException(job.id(), "hand-back of job " + job.id() + " interrupted; it stays unacked,"
                    + " and RabbitMQ requeues it when this connection closes", e);
        }
    }

    /** Publishes the job to the dead-letter queue with the reason (confirmed), then acks it. */
    @Override
    public void fail(AmqpJob job, Exception cause) {
        deadLetter(job, "failed: " + Redaction.maskText(String.valueOf(cause)));
    }

    private void deadLetter(AmqpJob job, String reason) {
        Map<String, Object> headers = new HashMap<>(job.properties.getHeaders() == null ? Map.of()
                : job.properties.getHeaders());
        headers.put("guard.reason", reason);
        headers.put("guard.source", queue);
        headers.put("guard.interruptions", job.interruptions());
        try {
            publishConfirmed(deadLetter, job.properties.builder().headers(headers).build(), job.body());
            channel.basicAck(job.deliveryTag(), false);
        } catch (IOException | TimeoutException | RuntimeException e) {
            throw new IllegalStateException("guard amqp queue '" + queue + "': job " + job.id() + " could not be moved to '"
                    + deadLetter + "' (" + Redaction.maskText(String.valueOf(e)) + "); it stays unacked and RabbitMQ"
                    + " delivers it again", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while dead-lettering job " + job.id() + "; it stays unacked", e);
        }
    }

    private void publishConfirmed(String routingKey, AMQP.BasicProperties props, byte[] body)
            throws IOException, InterruptedException, TimeoutException {
        synchronized (publisher) {
            publisher.basicPublish("", routingKey, true, props, body);
            publisher.waitForConfirmsOrDie(options.handBackTimeout().toMillis());
        }
    }

    @Override
    public String idOf(AmqpJob job) {
        return job.id();
    }

    @Override
    public JobOrigin originOf(AmqpJob job) {
        // the producer's message-id only: a delivery tag is per channel and changes on redelivery, so it
        // must not stand for the job anywhere an id must be stable (the boundary's id, a completion record)
        return new JobOrigin("amqp", queue, null, null, job.messageId());
    }

    /**
     * Whether the queue survives a restart of RabbitMQ: declared again, durable and not
     * auto-delete, on a channel of its own ({@link AmqpDurability}); a transient, auto-delete or
     * exclusive queue loses its jobs. On a durable classic queue, the first job published
     * transient is logged as a warning, since RabbitMQ keeps such messages in memory only.
     */
    @Override
    public dev.guard.drain.Durability durability() {
        dev.guard.drain.Durability d = AmqpDurability.of(channel.getConnection(), queue, quorum);
        classicQueue = d.found().equals(AmqpDurability.CLASSIC_FOUND);
        return d;
    }

    /** RabbitMQ's {@code consumer_timeout} default: "Default: 1,800,000 milliseconds (30 minutes)". */
    static final Duration DEFAULT_CONSUMER_TIMEOUT = Duration.ofMinutes(30);

    /**
     * The consumer timeout, which nothing renews: a job held longer has its channel closed (from
     * 4.3 its consumer cancelled) and is delivered again while this worker still runs it. Which
     * value applies follows rabbitmq-server's consumer_timeouts.md (4.3): "Consumer argument
     * (x-consumer-timeout on basic.consume) - if set, used directly - Otherwise: min(queue
     * argument, queue policy) - if either is set - Otherwise: global consumer_timeout configuration
     * - Otherwise: default of 30 minutes". The consumer's argument is this source's own; the queue's
     * is read over AMQP ({@link AmqpQueueArgs}); a policy and rabbitmq.conf are not visible over
     * AMQP, so without either argument the default is assumed (a warning at most). Also the queue's
     * {@code x-message-ttl}: a requeued message keeps its original expiry (RabbitMQ's TTL guide), so
     * a job handed back past it is dropped or dead-lettered instead of run.
     */
    @Override
    public List<JobClock> clocks() {
        Connection connection = channel.getConnection();
        String version = serverVersion(connection);
        boolean perQueue = atLeast(version, 3, 12);
        Map<String, Object> args = queueArgs;
        if (args == null) { // a classic queue: not read at build
            try {
                args = AmqpQueueArgs.read(connection, queue, quorum ? Map.of("x-queue-type", "quorum") : Map.of()).args();
            } catch (IOException | RuntimeException e) {
                args = Map.of(); // not readable (no configure permission, an exclusive queue): the defaults are assumed
            }
        }
        String consequence = "has its channel closed by RabbitMQ (PRECONDITION_FAILED, \"delivery acknowledgement timed"
                + " out\"; from 4.3 the consumer is cancelled): the job is delivered again to another worker while this one"
                + " still runs it, and every other job held on the channel goes back too";
        String fix = "raise the consumer timeout above the longest job: consumerTimeout(...) on this source (the consumer's"
                + " x-consumer-timeout, RabbitMQ 3.12 and later), the queue's x-consumer-timeout or a consumer-timeout"
                + " policy, or consumer_timeout in rabbitmq.conf";
        List<JobClock> out = new ArrayList<>();
        Object queueTimeout = args.get("x-consumer-timeout");
        if (!quorum && atLeast(version, 4, 3)) {
            // consumer_timeouts.md (4.3): "Consumer timeouts are only supported for quorum queues. Classic queues
            // and stream queues do not support consumer timeouts." Before 4.3 the channel-level timeout applied to all.
            LOG.debug("guard amqp queue '{}': a classic queue on RabbitMQ {} has no consumer timeout", queue, version);
        } else if (consumerTimeout != null && perQueue) {
            out.add(JobClock.limitsRun("consumer timeout", consumerTimeout, "x-consumer-timeout of this consumer",
                    consequence, fix));
        } else if (queueTimeout instanceof Number n && perQueue) {
            out.add(JobClock.limitsRun("consumer timeout", Duration.ofMillis(n.longValue()), "x-consumer-timeout of queue '"
                    + queue + "' (a consumer-timeout policy may lower it)", consequence, fix));
        } else {
            String why = (consumerTimeout != null || queueTimeout != null) && !perQueue
                    ? "RabbitMQ " + version + " ignores x-consumer-timeout (3.12 and later); "
                    : "";
            out.add(JobClock.limitsRun("consumer timeout", DEFAULT_CONSUMER_TIMEOUT, why + "RabbitMQ's default"
                    + " consumer_timeout; rabbitmq.conf or a policy may set another, which AMQP cannot read", consequence,
                    fix + "; where rabbitmq.conf already sets it, set the same on the source (consumerTimeout) so that guard"
                    + " knows it").asAssumed());
        }
        if (args.get("x-message-ttl") instanceof Number ttl) {
            boolean dlx = args.get("x-dead-letter-exchange") != null;
            out.add(JobClock.limitsAge("message TTL", Duration.ofMillis(ttl.longValue()), "x-message-ttl of queue '"
                    + queue + "'", dlx ? "is dead-lettered by RabbitMQ to exchange '" + args.get("x-dead-letter-exchange")
                    + "' when it goes back to the queue (a requeued message keeps its original expiry), not run"
                    : "is dropped by RabbitMQ when it goes back to the queue (a requeued message keeps its original"
                    + " expiry; the queue has no dead-letter exchange): gone without a line",
                    "no x-message-ttl on a job queue (re-create it without one), or a TTL above the longest job plus the"
                    + " longest wait in the queue"));
        }
        int heartbeat = connection.getHeartbeat();
        if (heartbeat > 0) {
            out.add(JobClock.pickup("redelivery after a node loss (heartbeat)", Duration.ofSeconds(2L * heartbeat),
                    "the connection's heartbeat " + heartbeat + " s, two missed (a killed process's socket closes at once)"));
        }
        return out;
    }

    /** Whether {@code version} ("3.12.1", "4.0.0-rc.1") is at least {@code major.minor}; false when unknown. */
    static boolean atLeast(String version, int major, int minor) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("^(\\d+)\\.(\\d+)").matcher(version);
        if (!m.find()) {
            return false;
        }
        int ma = Integer.parseInt(m.group(1));
        int mi = Integer.parseInt(m.group(2));
        return ma > major || (ma == major && mi >= minor);
    }

    /** Jobs that arrived published transient on a durable classic queue, known so after {@link #durability()}. */
    long transientJobs() {
        return transientJobs;
    }

    /** Cancels the consumer, returns prefetched deliveries the loop never took, closes both channels. */
    @Override
    public void close() {
        try {
            if (channel.isOpen()) {
                channel.basicCancel(consumerTag);
                int returned = 0;
                for (Delivery d; (d = buffer.poll()) != null; returned++) {
                    channel.basicNack(d.getEnvelope().getDeliveryTag(), false, true);
                }
                if (returned > 0) {
                    LOG.info("guard amqp queue '{}': {} prefetched deliveries returned unprocessed", queue, returned);
                }
            }
        } catch (IOException | RuntimeException e) {
            LOG.warn("guard amqp queue '{}': cancel at close failed ({}); the broker requeues unacked deliveries as the"
                    + " channel closes", queue, Redaction.maskText(String.valueOf(e)));
        } finally {
            closeQuietly();
        }
    }

    private void closeQuietly() {
        for (Channel c : new Channel[] {channel, publisher}) {
            try {
                if (c != null && c.isOpen()) {
                    c.close();
                }
            } catch (IOException | TimeoutException | RuntimeException e) {
                LOG.debug("guard amqp queue '{}': channel close: {}", queue, e.toString());
            }
        }
    }

    /** Mutable builder. */
    public static final class Builder extends SourceBuilder<Builder> {
        private final Connection connection;
        private final String queue;
        private String deadLetter;
        private boolean quorum;
        private boolean declare = true;
        private int prefetch = 1;
        private String consumerName = "";
        private Duration consumerTimeout;
        private BiFunction<String, String, String> idOf = (payload, messageId) -> messageId;

        Builder(Connection connection, String queue) {
            this.connection = Objects.requireNonNull(connection, "connection");
            this.queue = Objects.requireNonNull(queue, "queue");
        }

        /** Dead-letter queue (default {@code <queue>:dead}). */
        public Builder deadLetter(String deadLetter) {
            this.deadLetter = Objects.requireNonNull(deadLetter, "deadLetter");
            return this;
        }

        /** The queue is a quorum queue: hand-back is a requeueing nack, and the broker counts deliveries (default false). */
        public Builder quorum(boolean quorum) {
            this.quorum = quorum;
            return this;
        }

        /** Declare the queue (durable; quorum when so built) and the dead-letter queue (default true). */
        public Builder declare(boolean declare) {
            this.declare = declare;
            return this;
        }

        /**
         * Unacked deliveries the broker sends ahead (default 1). More saves round trips, but each
         * prefetched delivery is returned at close, and on a quorum queue counted as a delivery.
         */
        public Builder prefetch(int prefetch) {
            if (prefetch < 1) {
                throw new IllegalArgumentException("prefetch must be at least 1 (0 is unbounded), was " + prefetch);
            }
            this.prefetch = prefetch;
            return this;
        }

        @Override
        protected Builder self() {
            return this;
        }

        /**
         * The consumer's own delivery acknowledgement timeout, sent as {@code x-consumer-timeout} on
         * {@code basic.consume}: RabbitMQ closes the channel (from 4.3, cancels the consumer) of a
         * job held longer, and this argument "takes absolute precedence over all other settings"
         * (rabbitmq-server's consumer_timeouts.md, 4.3). Set it above the longest job; unset, the
         * queue's {@code x-consumer-timeout}, a policy's {@code consumer-timeout} or the broker's
         * {@code consumer_timeout} (30 minutes by default) applies. RabbitMQ before 3.12 ignores it.
         */
        public Builder consumerTimeout(Duration timeout) {
            if (timeout.isNegative() || timeout.isZero()) {
                throw new IllegalArgumentException("consumerTimeout must be positive, was " + timeout.toMillis() + " ms");
            }
            this.consumerTimeout = timeout;
            return this;
        }

        /** The consumer tag's name, as the management UI shows it (default: the broker's). */
        public Builder consumerName(String name) {
            this.consumerName = Objects.requireNonNull(name, "name");
            return this;
        }

        /** The job id from (payload text, message-id property); null falls back to the message id, then queue#tag. */
        public Builder idOf(BiFunction<String, String, String> idOf) {
            this.idOf = Objects.requireNonNull(idOf, "idOf");
            return this;
        }

        /** Opens the channels, declares the queues (unless told not to), and starts consuming. */
        public AmqpQueue build() {
            try {
                return new AmqpQueue(this);
            } catch (IOException e) {
                throw new IllegalStateException("guard amqp queue '" + queue + "': cannot start consuming ("
                        + Redaction.maskText(String.valueOf(e.getCause() != null ? e.getCause() : e)) + ")", e);
            }
        }
    }
}
