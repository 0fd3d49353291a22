package dev.guard.queue.nats;

import dev.guard.config.Redaction;
import dev.guard.drain.Durability;
import io.nats.client.Connection;
import io.nats.client.JetStreamApiException;
import io.nats.client.api.DiscardPolicy;
import io.nats.client.api.StorageType;
import io.nats.client.api.StreamConfiguration;
import io.nats.client.api.StreamInfo;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * What a JetStream stream keeps across a restart, from its own configuration ({@code STREAM.INFO}).
 * NATS's "Streams" documentation: "Memory: messages are kept in memory, ... if the server
 * restarts, the messages are lost"; "Replicas: how many replicas to keep for each message in a
 * clustered JetStream, maximum 5"; limits with "Discard Old" (the default) remove the oldest
 * messages to make room, and {@code MaxAge} removes messages older than it, read or not: for a
 * job queue both delete jobs nobody ran, without a line anywhere.
 */
final class NatsDurability {

    private NatsDurability() {}

    static Durability of(Connection connection, String stream) {
        String version = connection.getServerInfo() == null ? "" : " " + connection.getServerInfo().getVersion();
        String broker = "jetstream stream '" + stream + "' on NATS" + version;
        StreamInfo info;
        try {
            info = connection.jetStreamManagement().getStreamInfo(stream);
        } catch (IOException | JetStreamApiException | RuntimeException e) {
            return Durability.unknown(broker, "STREAM.INFO failed: " + Redaction.maskText(String.valueOf(e)),
                    "check with `nats stream info " + stream + "`: storage file, and replicas 3 on a cluster");
        }
        StreamConfiguration c = info.getConfiguration();
        String cluster = connection.getServerInfo() == null ? null : connection.getServerInfo().getCluster();
        return judge(broker, stream, c.getStorageType(), c.getReplicas(), cluster, c.getMaxAge(), c.getMaxMsgs(),
                c.getMaxBytes(), c.getMaxMsgsPerSubject(), c.getDiscardPolicy(), c.isAllowMessageTtl());
    }

    /** {@link #judge(String, String, StorageType, int, String, Duration, long, long, long, DiscardPolicy, boolean)} without per-message TTL. */
    static Durability judge(String broker, String stream, StorageType storage, int replicas, String cluster, Duration maxAge,
            long maxMsgs, long maxBytes, long maxMsgsPerSubject, DiscardPolicy discard) {
        return judge(broker, stream, storage, replicas, cluster, maxAge, maxMsgs, maxBytes, maxMsgsPerSubject, discard, false);
    }

    /** The verdict on a stream's settings; {@code cluster} is the server's cluster name, null for a lone server. */
    static Durability judge(String broker, String stream, StorageType storage, int replicas, String cluster, Duration maxAge,
            long maxMsgs, long maxBytes, long maxMsgsPerSubject, DiscardPolicy discard, boolean allowMsgTtl) {
        List<String> found = new ArrayList<>();
        List<String> loses = new ArrayList<>();
        List<String> actions = new ArrayList<>();
        found.add("storage " + storage.name().toLowerCase(java.util.Locale.ROOT) + ", replicas " + replicas
                + (cluster == null ? " (a lone server)" : " (cluster '" + cluster + "')"));
        if (storage == StorageType.Memory) {
            loses.add("every job in the stream: a memory stream starts empty when its server restarts");
            actions.add("create the stream with file storage (nats stream add " + stream + " --storage file; a stream's"
                    + " storage cannot be changed in place: make a new one and move the producers to it)");
        }
        if (cluster != null && replicas < 2) {
            loses.add("every job in the stream while the one server that holds it restarts (they cannot be read), and"
                    + " for good if that server's disk is lost");
            actions.add("keep 3 replicas on the cluster: nats stream edit " + stream + " --replicas 3");
        }
        if (maxAge != null && !maxAge.isZero() && !maxAge.isNegative()) {
            found.add("max age " + maxAge.toSeconds() + " s");
            loses.add("every job that waits longer than " + maxAge.toSeconds() + " s: the stream deletes it unread");
            actions.add("no max age on a job stream (nats stream edit " + stream + " --max-age 0)");
        }
        if (allowMsgTtl) {
            // NATS 2.11, "Per-message TTL" (https://docs.nats.io/learn/jetstream/message-ttl): a producer sets
            // a Nats-TTL header, and "the server deletes the message that long after it was stored in the
            // stream": from its storage, not from its last delivery, so a handed-back job counts its wait
            found.add("per-message TTL allowed (allow_msg_ttl)");
            loses.add("a job published with a Nats-TTL header once it has been in the stream that long, read or"
                    + " not: a job handed back, or waiting behind a backlog, expires unrun");
            actions.add("publish jobs without a Nats-TTL header, and keep allow_msg_ttl off on a job stream (create it"
                    + " without --allow-msg-ttl)");
        }
        List<String> limits = new ArrayList<>();
        if (maxMsgs > 0) {
            limits.add("max msgs " + maxMsgs);
        }
        if (maxBytes > 0) {
            limits.add("max bytes " + maxBytes);
        }
        if (maxMsgsPerSubject > 0) {
            limits.add("max msgs per subject " + maxMsgsPerSubject);
        }
        if (!limits.isEmpty()) {
            found.add(String.join(", ", limits) + ", discard " + discard.name().toLowerCase(java.util.Locale.ROOT));
            if (discard == DiscardPolicy.Old) {
                loses.add("the oldest waiting jobs whenever the stream is full: discard old deletes them to make room");
                actions.add("discard new (nats stream edit " + stream + " --discard new): a full stream then refuses"
                        + " new jobs, which the producer sees, instead of deleting queued ones");
            }
        }
        return Durability.of(broker, found, loses, actions);
    }
}
