package dev.guard.queue.redis;

import dev.guard.GuardLog;
import dev.guard.drain.HandBackFailedException;
import dev.guard.drain.JobClock;
import dev.guard.drain.JobOrigin;
import dev.guard.drain.JobSource;
import dev.guard.queue.SourceOptions;
import io.lettuce.core.AbstractRedisClient;
import io.lettuce.core.Consumer;
import io.lettuce.core.Limit;
import io.lettuce.core.Range;
import io.lettuce.core.RedisBusyException;
import io.lettuce.core.RedisClient;
import io.lettuce.core.StreamMessage;
import io.lettuce.core.XAutoClaimArgs;
import io.lettuce.core.XClaimArgs;
import io.lettuce.core.XGroupCreateArgs;
import io.lettuce.core.XReadArgs;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.models.stream.ClaimedMessages;
import io.lettuce.core.models.stream.PendingMessage;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import org.slf4j.Logger;

/**
 * A Redis Streams queue with a consumer group: XREADGROUP to read, XACK (and XDEL) when done, and
 * XAUTOCLAIM to take over entries that another consumer left pending for longer than the
 * claim min-idle time (it died, or handed the entry back). A fetch first tries to claim one such
 * entry (at most every min(claim min-idle, 1 s), and again right after a find), then reads new ones. An entry delivered more than {@code maxInterruptions + 1}
 * times (interrupted that often) is copied to the dead-letter stream and acked instead of being
 * retried forever. Entries carry the payload in one field (default {@code job}).
 *
 * <p>One round trip per job on a busy stream: {@link #ack} sends one script that acks (and
 * deletes) the entry and reads the next one for this consumer (XREADGROUP COUNT 1, not blocking),
 * and does not wait; {@link #fetch} reads that reply and hands out the entry it carried, blocking
 * on XREADGROUP only when nothing was new. A consumer therefore has at most one entry it has not
 * started; {@link #close} hands it back with its delivery uncounted, and after a crash it is
 * claimed like any pending entry.
 */
public final class StreamQueue implements JobSource<RedisJob> {

    private static final Logger LOG = GuardLog.logger(StreamQueue.class);
    private static final Duration ACK_TIMEOUT = Duration.ofSeconds(10);

    /**
     * XACK (and XDEL when ARGV[4] is "1") one entry; when ARGV[5] is "1" also read the next new
     * entry for this consumer. KEYS: stream. ARGV: group, consumer, entry id, delete, read next.
     * Returns {acked} or {acked, entry id, {field, value, ...}}.
     */
    static final String ACK_NEXT = String.join("\n",
            "local acked = redis.call('XACK', KEYS[1], ARGV[1], ARGV[3])",
            "if ARGV[4] == '1' then redis.call('XDEL', KEYS[1], ARGV[3]) end",
            "if ARGV[5] ~= '1' then return {acked} end",
            "local r = redis.call('XREADGROUP', 'GROUP', ARGV[1], ARGV[2], 'COUNT', '1', 'STREAMS', KEYS[1], '>')",
            "if not r then return {acked} end",
            "local e = r[1][2][1]",
            "return {acked, e[1], e[2]}");

    private final String stream;
    private final String group;
    private final String consumerName;
    private final Consumer<String> consumer;
    private final String deadLetter;
    private final String field;
    private final Duration claimMinIdle;
    private final SourceOptions options;
    private final boolean deleteOnAck;
    private final Function<String, String> idOf;
    private final AbstractRedisClient client;
    /** Set by {@link #open}, at the first fetch: building the queue sends no command. */
    private RedisLink connection;
    private volatile boolean opened;
    private boolean closed;
    private String claimCursor = "0-0";
    private long lastClaimProbe;
    private boolean claimProbed;
    private boolean lastProbeFound;
    private long deadLettered;
    private HotScript ackNext;
    /** The last ack, sent and not yet confirmed, and its entry id. */
    private HotScript.Sent pendingAck;
    private String pendingAckEntry;
    /** The entry the last ack read, handed out by the next fetch. */
    private RedisJob prefetched;

    StreamQueue(Builder b) {
        this.stream = b.queue;
        this.group = b.group;
        this.consumerName = b.consumer == null ? Redis.defaultWorkerId() : b.consumer;
        this.consumer = Consumer.from(group, consumerName);
        this.deadLetter = b.deadLetter == null ? b.queue + ":dead" : b.deadLetter;
        this.field = b.field;
        this.claimMinIdle = b.claimMinIdle;
        this.options = b.options();
        this.deleteOnAck = b.deleteOnAck;
        this.idOf = b.idOf;
        this.client = b.client;
    }

    /**
     * Connects and creates the group (MKSTREAM, from the start) if missing; once, at the first
     * {@link #fetch}. Until then no command is sent, so the queue can be built before Redis is up
     * (a Spring bean is created before guard's readiness gate opens). A failure closes the
     * connection and throws; the next fetch tries again.
     */
    private synchronized void open() {
        if (opened) {
            return;
        }
        if (closed) {
            throw new IllegalStateException("guard stream queue '" + stream + "' is closed");
        }
        RedisLink link = RedisLink.open(client);
        try {
            link.sync().xgroupCreate(XReadArgs.StreamOffset.from(stream, "0"), group, XGroupCreateArgs.Builder.mkstream(true));
        } catch (RedisBusyException e) {
            // BUSYGROUP: the group exists already
        } catch (RuntimeException e) {
            link.close();
            throw e;
        }
        this.connection = link;
        this.ackNext = new HotScript(link, ACK_NEXT, io.lettuce.core.ScriptOutputType.MULTI);
        opened = true;
    }

    public static Builder builder(RedisClient client, String stream, String group) {
        return new Builder(client, stream, group);
    }

    /** A queue on a Redis Cluster: every command touches one key, so the stream and its dead-letter stream may be in any slots. */
    public static Builder builder(RedisClusterClient client, String stream, String group) {
        return new Builder(client, stream, group);
    }

    public String consumerName() {
        return consumerName;
    }

    /** Entries dead-lettered by this consumer so far. */
    public long deadLettered() {
        return deadLettered;
    }

    @Override
    public Optional<RedisJob> fetch() {
        if (!opened) { // read without the lock: fetch is the hot path, open() happens once
            open();
        }
        settle();
        // probe for abandoned entries at most every min(claimMinIdle, 1 s), or again at once after a find
        long now = System.nanoTime();
        long probeEvery = Math.min(claimMinIdle.toNanos(), 1_000_000_000L);
        if (!claimProbed || lastProbeFound || now - lastClaimProbe >= probeEvery) {
            claimProbed = true;
            lastClaimProbe = now;
            Optional<RedisJob> claimed = claimOne();
            lastProbeFound = claimed.isPresent();
            if (claimed.isPresent()) {
                return claimed;
            }
        }
        if (prefetched != null) {
            RedisJob next = prefetched;
            prefetched = null;
            return Optional.of(next);
        }
        List<StreamMessage<String, String>> read = connection.sync().xreadgroup(consumer,
                XReadArgs.Builder.count(1).block(options.pollTimeout()), XReadArgs.StreamOffset.lastConsumed(stream));
        if (read == null || read.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(job(read.get(0), 1));
    }

    /** XAUTOCLAIM one entry idle for at least claimMinIdle; dead-letters it when interrupted too often. */
    private Optional<RedisJob> claimOne() {
        for (int i = 0; i < 16; i++) {
            ClaimedMessages<String, String> c = connection.sync().xautoclaim(stream,
                    XAutoClaimArgs.Builder.xautoclaim(consumer, claimMinIdle, claimCursor).count(1));
            claimCursor = c.getId() == null ? "0-0" : c.getId();
            if (c.getMessages().isEmpty()) {
                return Optional.empty();
            }
            StreamMessage<String, String> m = c.getMessages().get(0);
            long deliveries = deliveries(m.getId());
            if (m.getBody() == null || m.getBody().get(field) == null) {
                // deleted entry or foreign shape: nothing to run
                connection.sync().xack(stream, group, m.getId());
                continue;
            }
            if (options.exhausted(deliveries - 1)) {
                deadLetter(m, deliveries);
                continue;
            }
            LOG.info("guard stream queue '{}': claimed entry {} (delivery {}) left pending by another consumer",
                    stream, m.getId(), deliveries);
            return Optional.of(job(m, deliveries));
        }
        return Optional.empty();
    }

    private long deliveries(String entryId) {
        List<PendingMessage> p = connection.sync().xpending(stream, group, Range.create(entryId, entryId), Limit.from(1));
        return p.isEmpty() ? 1 : p.get(0).getRedeliveryCount();
    }

    private void deadLetter(StreamMessage<String, String> m, long deliveries) {
        Map<String, String> body = new LinkedHashMap<>(m.getBody());
        body.put("guard.source", stream);
        body.put("guard.entry", m.getId());
        body.put("guard.deliveries", Long.toString(deliveries));
        body.put("guard.reason", options.exhaustedReason(deliveries - 1));
        connection.sync().xadd(deadLetter, body);
        ack(m.getId());
        deadLettered++;
        LOG.warn("guard stream queue '{}': entry {} (job {}) was interrupted {} times and moved to '{}'",
                stream, m.getId(), idOf.apply(m.getBody().get(field)), deliveries - 1, deadLetter);
    }

    private RedisJob job(StreamMessage<String, String> m, long deliveries) {
        String payload = m.getBody().get(field);
        if (payload == null) {
            throw new IllegalStateException("guard stream queue '" + stream + "': entry " + m.getId() + " has no field '"
                    + field + "' (fields: " + m.getBody().keySet() + "); producers must XADD the payload under '" + field + "'");
        }
        return new RedisJob(idOf.apply(payload), payload, stream, m.getId(), deliveries);
    }

    /** XACK and XDEL pipelined: one round trip. */
    private void ack(String entryId) {
        io.lettuce.core.RedisFuture<Long> acked = connection.async().xack(stream, group, entryId);
        io.lettuce.core.RedisFuture<Long> deleted = deleteOnAck ? connection.async().xdel(stream, entryId) : null;
        try {
            Redis.await(acked, Duration.ofSeconds(10));
            if (deleted != null) {
                Redis.await(deleted, Duration.ofSeconds(10));
            }
        } catch (Exception e) {
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            throw new IllegalStateException("guard stream queue '" + stream + "': XACK of entry " + entryId + " failed ("
                    + Redis.describe(e) + "); it stays pending and is claimed again after " + claimMinIdle.toMillis()
                    + " ms", e);
        }
    }

    /**
     * XACK (and XDEL) the entry and, when this consumer holds no unstarted entry, read the next
     * one in the same script. Sent without waiting: the reply is read by the next {@link #fetch}
     * (or {@link #confirmAcks}, {@link #handBack}, {@link #fail}, {@link #close}), so ack and fetch
     * share one round trip. An ack Redis never confirms leaves the entry pending: it is claimed
     * again after the claim min-idle time and runs again, it is not lost.
     */
    @Override
    public void ack(RedisJob job) {
        settle(); // an earlier ack not yet confirmed: this consumer held two entries at once
        pendingAck = ackNext.send(connection, new String[] {stream}, group, consumerName, job.entryId(),
                deleteOnAck ? "1" : "0", prefetched == null ? "1" : "0");
        pendingAckEntry = job.entryId();
    }

    /** Waits for the acks sent so far (they are otherwise confirmed by the next fetch). */
    public void confirmAcks() {
        settle();
    }

    /** Reads the reply of the last ack: warns when it failed, keeps the entry it read for the next fetch. */
    @SuppressWarnings("unchecked")
    private void settle() {
        HotScript.Sent sent = pendingAck;
        if (sent == null) {
            return;
        }
        pendingAck = null;
        try {
            List<Object> r = sent.await(ACK_TIMEOUT);
            if (r.size() == 3) {
                List<Object> kv = (List<Object>) r.get(2);
                Map<String, String> body = new LinkedHashMap<>();
                for (int i = 0; i + 1 < kv.size(); i += 2) {
                    body.put((String) kv.get(i), (String) kv.get(i + 1));
                }
                prefetched = job(new StreamMessage<>(stream, (String) r.get(1), body), 1);
            }
        } catch (Exception e) {
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            // an entry the script may have read is pending for this consumer: it is claimed after claimMinIdle
            LOG.warn("guard stream queue '{}': the XACK of entry {} was not confirmed ({}); it stays pending and is claimed"
                    + " again after {} ms, so it will run again (results must be idempotent)", stream, pendingAckEntry,
                    Redis.describe(e), claimMinIdle.toMillis());
        }
    }

    /**
     * Another worker claimed the job after this one ({@link dev.guard.drain.Settled.Kind#SUPERSEDED}):
     * does nothing. The other consumer took this very entry (XAUTOCLAIM after the claim min-idle
     * time) while this one held it: an XACK would settle the other's delivery, and the hand-back's
     * XCLAIM would take the entry back from it. Left alone, it comes back after the claim min-idle
     * time only if nobody acks it.
     */
    @Override
    public void release(RedisJob job) {
    }

    /**
     * Leaves the entry pending but marks it idle for the claim min-idle time (XCLAIM to itself
     * with IDLE, JUSTID: the delivery count is unchanged), so the next XAUTOCLAIM by any consumer
     * takes it at once.
     */
    @Override
    public void handBack(RedisJob job) throws HandBackFailedException {
        settle();
        try {
            Redis.await(connection.async().xclaim(stream, consumer,
                    XClaimArgs.Builder.minIdleTime(0).idle(claimMinIdle).justid(), job.entryId()), options.handBackTimeout());
        } catch (Exception e) {
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            throw new HandBackFailedException(job.id(), "hand-back (XCLAIM IDLE) of job " + job.id() + ", entry "
                    + job.entryId() + " in stream '" + stream + "' did not complete within " + options.handBackTimeout().toMillis()
                    + " ms (" + Redis.describe(e) + "); the entry stays pending and is claimed after "
                    + claimMinIdle.toMillis() + " ms idle", e);
        }
    }

    /** Copies the entry to the dead-letter stream with the reason, then acks it. */
    @Override
    public void fail(RedisJob job, Exception cause) {
        settle();
        Map<String, String> body = new LinkedHashMap<>();
        body.put(field, job.payload());
        body.put("guard.source", stream);
        body.put("guard.entry", job.entryId());
        body.put("guard.reason", "failed: " + Redis.describe(cause));
        connection.sync().xadd(deadLetter, body);
        ack(job.entryId());
    }

    @Override
    public String idOf(RedisJob job) {
        return job.id();
    }

    @Override
    public JobOrigin originOf(RedisJob job) {
        return new JobOrigin("redis", job.origin(), null, null, job.entryId());
    }

    /**
     * The claim min-idle time: nothing renews an entry this consumer holds, so an entry held that
     * long is taken by the next XAUTOCLAIM of any consumer of the group while this one still runs
     * it; it is also how long a killed worker's entry waits. Every consumer of a group must use the
     * same value: the one claiming decides.
     */
    @Override
    public List<JobClock> clocks() {
        String from = "claimMinIdle of this worker (group '" + group + "')";
        return List.of(
                JobClock.limitsRun("claim min-idle time", claimMinIdle, from, "is claimed (XAUTOCLAIM) by another consumer"
                        + " of the group while this worker still runs it: it runs twice, and both acks succeed",
                        "claimMinIdle(...) above the longest job on every worker of group '" + group + "' (it is also how"
                        + " long a killed worker's entry waits)"),
                JobClock.pickup("redelivery after a crash (claim min-idle)", claimMinIdle, from));
    }

    /** Whether the Redis holding the stream keeps it across a restart ({@code appendonly}, snapshots, eviction). */
    @Override
    public dev.guard.drain.Durability durability() {
        return RedisLink.durability(client, stream, "stream '" + stream + "'");
    }

    /**
     * Confirms the last ack and hands back an entry read ahead but never started: pending, idle
     * for the claim min-idle time and with its delivery count reset (XCLAIM IDLE RETRYCOUNT 0), so
     * the next consumer's claim takes it at once and counts no interruption.
     */
    @Override
    public synchronized void close() {
        boolean wasOpen = opened;
        opened = false;
        closed = true;
        if (!wasOpen) {
            return; // never fetched: no connection, nothing held
        }
        try {
            settle();
            if (prefetched != null) {
                RedisJob p = prefetched;
                prefetched = null;
                connection.sync().xclaim(stream, consumer,
                        XClaimArgs.Builder.minIdleTime(0).idle(claimMinIdle).retryCount(0).justid(), p.entryId());
            }
        } catch (RuntimeException e) {
            LOG.warn("guard stream queue '{}': could not hand back the entry read ahead ({}); it is claimed after {} ms",
                    stream, Redis.describe(e), claimMinIdle.toMillis());
        } finally {
            connection.close();
        }
    }

    /** Mutable builder. */
    public static final class Builder extends RedisQueueBuilder<Builder> {
        private final String group;
        private String consumer;
        private String field = "job";
        private Duration claimMinIdle = Duration.ofSeconds(30);
        private boolean deleteOnAck = true;

        Builder(AbstractRedisClient client, String stream, String group) {
            super(client, stream, "stream", null);
            this.group = Objects.requireNonNull(group, "group");
        }

        @Override
        protected Builder self() {
            return this;
        }

        /** Consumer name, unique per live worker (default HOSTNAME-pid). */
        public Builder consumer(String consumer) {
            this.consumer = Objects.requireNonNull(consumer, "consumer");
            return this;
        }

        /** The entry field holding the payload (default {@code job}). */
        public Builder field(String field) {
            this.field = Objects.requireNonNull(field, "field");
            return this;
        }

        /**
         * An entry pending this long is taken over (default 30 s). Must exceed the longest job, or
         * a slow live consumer's entry is claimed and runs twice.
         */
        public Builder claimMinIdle(Duration claimMinIdle) {
            this.claimMinIdle = Objects.requireNonNull(claimMinIdle, "claimMinIdle");
            return this;
        }

        /** XDEL after XACK (default true), so the stream holds only unfinished work. */
        public Builder deleteOnAck(boolean deleteOnAck) {
            this.deleteOnAck = deleteOnAck;
            return this;
        }

        /** The queue, without a command sent: the first fetch connects and creates the group if missing. */
        public StreamQueue build() {
            return new StreamQueue(this);
        }
    }
}
