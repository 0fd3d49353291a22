package dev.guard.examples.scaledown;

import dev.guard.drain.JobSource;
import dev.guard.queue.nats.NatsQueue;
import io.nats.client.Connection;
import io.nats.client.JetStream;
import io.nats.client.JetStreamApiException;
import io.nats.client.JetStreamManagement;
import io.nats.client.JetStreamSubscription;
import io.nats.client.Message;
import io.nats.client.Nats;
import io.nats.client.PullSubscribeOptions;
import io.nats.client.api.ConsumerInfo;
import io.nats.client.api.PublishAck;
import io.nats.client.api.StreamConfiguration;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * NATS JetStream (the machine's, a stream per run): guard's {@link NatsQueue}, a durable pull
 * consumer, ack after the job, AckWait {@value #ACK_WAIT_MS} ms as the crash bound; the first two
 * rows ack on receipt.
 */
final class NatsTransport implements Transport {

    static final long ACK_WAIT_MS = 2000;
    static final String DURABLE = "workers";

    private final String url;
    private final int replicas;
    private final Connection connection;

    NatsTransport(String url) throws Exception {
        this(url, 1);
    }

    /** On the server(s) at {@code url} (comma-separated), the stream stored {@code replicas} times. */
    NatsTransport(String url, int replicas) throws Exception {
        this.url = url;
        this.replicas = replicas;
        this.connection = connect(url);
    }

    /**
     * Connects to any of the servers in {@code url} (comma-separated; jnats's other settings its
     * defaults, as {@code Nats.connect(url)}: on a lost connection it tries the others, 60 times, 2 s apart).
     */
    static Connection connect(String url) throws java.io.IOException, InterruptedException {
        return Nats.connect(new io.nats.client.Options.Builder().servers(url.split(",")).build());
    }

    static String stream(String prefix) {
        return prefix.replaceAll("[^A-Za-z0-9_-]", "_");
    }

    static String subject(String prefix) {
        return stream(prefix) + ".jobs";
    }

    @Override
    public Kind kind() {
        return Kind.NATS;
    }

    @Override
    public String endpoint() {
        return url;
    }

    @Override
    public long enqueue(String prefix, List<String> ids) throws Exception {
        JetStreamManagement jsm = connection.jetStreamManagement();
        jsm.addStream(StreamConfiguration.builder().name(stream(prefix))
                .subjects(subject(prefix), subject(prefix) + ".dead").replicas(replicas).build());
        JetStream js = connection.jetStream();
        List<CompletableFuture<PublishAck>> acks = new ArrayList<>();
        for (String id : ids) {
            acks.add(js.publishAsync(subject(prefix), id.getBytes(StandardCharsets.UTF_8)));
        }
        CompletableFuture.allOf(acks.toArray(CompletableFuture[]::new)).get();
        return jsm.getStreamInfo(stream(prefix)).getStreamState().getMsgCount();
    }

    @Override
    public long pending(String prefix) throws Exception {
        try {
            ConsumerInfo info = connection.jetStreamManagement().getConsumerInfo(stream(prefix), DURABLE);
            return info.getNumPending() + info.getNumAckPending();
        } catch (JetStreamApiException e) {
            return connection.jetStreamManagement().getStreamInfo(stream(prefix)).getStreamState().getMsgCount();
        }
    }

    @Override
    public Set<String> dead(String prefix) throws Exception {
        Set<String> ids = new HashSet<>();
        JetStreamSubscription sub = connection.jetStream().subscribe(subject(prefix) + ".dead",
                PullSubscribeOptions.builder().stream(stream(prefix)).build());
        try {
            while (true) {
                List<Message> batch = sub.fetch(500, Duration.ofMillis(500));
                if (batch.isEmpty()) {
                    return ids;
                }
                batch.forEach(m -> ids.add(new String(m.getData(), StandardCharsets.UTF_8)));
            }
        } finally {
            sub.unsubscribe();
        }
    }

    @Override
    public void cleanUp(String prefix) {
        try {
            connection.jetStreamManagement().deleteStream(stream(prefix));
        } catch (Exception e) {
            System.err.println("scaledown: could not delete stream " + stream(prefix) + ": " + e);
        }
    }

    @Override
    public void close() {
        try {
            connection.close();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** A worker's sources on its own connection. */
    static Sources sources(Connection connection) {
        return (mode, prefix, workerId, config) -> {
            JobSource<?> q = NatsQueue.builder(connection, stream(prefix), subject(prefix), DURABLE).declare(false)
                    .ackWait(Duration.ofMillis(ACK_WAIT_MS)).pollTimeout(Worker.POLL).handBackTimeout(config.safetyMargin())
                    .idOf((payload, msgId) -> payload).build();
            return mode.acksOnReceipt() ? new AckOnReceipt<>(q) : q;
        };
    }
}
