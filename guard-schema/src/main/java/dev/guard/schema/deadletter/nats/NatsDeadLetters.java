package dev.guard.schema.deadletter.nats;

import dev.guard.config.Redaction;
import dev.guard.schema.deadletter.DeadLetter;
import dev.guard.schema.deadletter.DeadLetterException;
import dev.guard.schema.deadletter.DeadLetterSink;
import io.nats.client.Connection;
import io.nats.client.JetStream;
import io.nats.client.api.PublishAck;
import io.nats.client.impl.Headers;
import io.nats.client.impl.NatsMessage;
import java.io.IOException;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeoutException;

/**
 * Dead letters published to a NATS subject: the data is the original payload, byte for byte; the
 * metadata is in NATS headers ({@link DeadLetter#metadataHeaders()}).
 *
 * <ul>
 *   <li>{@link #jetStream(Connection, String)} (recommended): published through JetStream, the write
 *       returns once a stream stored it (PubAck); no stream on the subject fails the write.</li>
 *   <li>{@link #core(Connection, String)}: core NATS publish followed by a flush, so the server has it;
 *       core NATS keeps nothing, so only current subscribers receive it.</li>
 * </ul>
 */
public final class NatsDeadLetters implements DeadLetterSink {

    private final Connection connection;
    private final JetStream jetStream;
    private final String subject;
    private final Duration timeout;
    private final String target;

    private NatsDeadLetters(Connection connection, JetStream jetStream, String subject, Duration timeout) {
        this.connection = connection;
        this.jetStream = jetStream;
        this.subject = subject;
        this.timeout = timeout;
        this.target = (jetStream != null ? "nats jetstream subject '" : "nats subject '") + subject + "' at "
                + Redaction.maskText(String.valueOf(connection.getConnectedUrl()));
    }

    /** Core NATS: publish + flush (5 s). */
    public static NatsDeadLetters core(Connection connection, String subject) {
        Objects.requireNonNull(connection, "connection");
        return new NatsDeadLetters(connection, null, requireSubject(subject), Duration.ofSeconds(5));
    }

    /** JetStream: publish and wait for the stream's acknowledgement. */
    public static NatsDeadLetters jetStream(Connection connection, String subject) {
        Objects.requireNonNull(connection, "connection");
        try {
            return new NatsDeadLetters(connection, connection.jetStream(), requireSubject(subject), Duration.ofSeconds(5));
        } catch (IOException e) {
            throw new DeadLetterException("dead-letter sink: JetStream not available on "
                    + Redaction.maskText(String.valueOf(connection.getConnectedUrl())) + ": " + e.getMessage(), e);
        }
    }

    private static String requireSubject(String subject) {
        if (subject == null || subject.isBlank() || subject.contains(" ")) {
            throw new IllegalArgumentException("dead-letter subject must be a non-blank NATS subject without spaces, was '" + subject + "'");
        }
        return subject;
    }

    @Override
    public void write(DeadLetter letter) {
        Headers headers = new Headers();
        for (Map.Entry<String, String> h : letter.metadataHeaders().entrySet()) {
            headers.put(h.getKey(), h.getValue());
        }
        NatsMessage msg = NatsMessage.builder().subject(subject).headers(headers).data(letter.originalPayload()).build();
        try {
            if (jetStream != null) {
                PublishAck ack = jetStream.publish(msg);
                if (ack.isDuplicate()) {
                    throw new DeadLetterException("dead letter for job " + letter.jobId() + " was taken as a duplicate by stream "
                            + ack.getStream() + " on " + target + "; the job is not acknowledged");
                }
            } else {
                connection.publish(msg);
                connection.flush(timeout);
            }
        } catch (DeadLetterException e) {
            throw e;
        } catch (IOException | TimeoutException | InterruptedException | RuntimeException e) {
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            throw new DeadLetterException("dead letter for job " + letter.jobId() + " not written to " + target + ": "
                    + e.getClass().getSimpleName() + ": " + Redaction.maskText(String.valueOf(e.getMessage()))
                    + (jetStream != null ? " (is there a stream for this subject?)" : "")
                    + "; the job is not acknowledged", e);
        } catch (io.nats.client.JetStreamApiException e) {
            throw new DeadLetterException("dead letter for job " + letter.jobId() + " refused by JetStream on " + target
                    + ": " + e.getMessage() + "; the job is not acknowledged", e);
        }
    }

    @Override
    public String toString() {
        return "NatsDeadLetters[" + target + "]";
    }
}
