package dev.guard.schema.deadletter.redis;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.guard.config.Redaction;
import dev.guard.queue.redis.WorkerRedis;
import dev.guard.schema.deadletter.DeadLetter;
import dev.guard.schema.deadletter.DeadLetterException;
import dev.guard.schema.deadletter.DeadLetterSink;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.TimeoutOptions;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.resource.ClientResources;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.Objects;

/**
 * Dead letters appended ({@code RPUSH}) to a Redis list, one JSON envelope per letter:
 * the metadata of {@link DeadLetter#metadataJson()} plus
 * {@code "payload_base64"} (authoritative: the original bytes, exactly) and {@code "payload"} (the
 * same bytes as text, only when they are valid UTF-8, for people reading with {@code LRANGE}).
 * Recover the original bytes with {@link #payloadOf(String)}.
 *
 * <p>A write returns once Redis answered the RPUSH; a disconnected client fails at once (commands are
 * rejected while disconnected, not buffered), a slow one after the command timeout.
 */
public final class RedisListDeadLetters implements DeadLetterSink, AutoCloseable {

    private static final ObjectMapper MAPPER = new ObjectMapper();

    /** The caller's connection ({@link #of}), or null when this sink opens its own. */
    private final StatefulRedisConnection<String, String> borrowed;
    /** For a sink that opens its own connection: where, and with which command timeout. */
    private final String redisUri;
    private final Duration timeout;
    private final String listKey;
    private final String target;
    private Owned owned;
    private boolean closed;

    /** A connection this sink opened, with the client and resources it closes with it. */
    private record Owned(StatefulRedisConnection<String, String> connection, RedisClient client, ClientResources resources) {
        void close() {
            connection.close();
            client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
            resources.shutdown(0, 2, java.util.concurrent.TimeUnit.SECONDS);
        }
    }

    private RedisListDeadLetters(StatefulRedisConnection<String, String> borrowed, String redisUri, Duration timeout,
                                 String listKey, String target) {
        this.borrowed = borrowed;
        this.redisUri = redisUri;
        this.timeout = timeout;
        this.listKey = listKey;
        this.target = target;
    }

    /** Uses a connection the caller owns (and closes). */
    public static RedisListDeadLetters of(StatefulRedisConnection<String, String> connection, String listKey) {
        Objects.requireNonNull(connection, "connection");
        return new RedisListDeadLetters(connection, null, null, requireKey(listKey), "redis list '" + listKey + "'");
    }

    /** Connects to {@code redisUri} (command timeout 5 s); {@link #close()} closes the connection. */
    public static RedisListDeadLetters connect(String redisUri, String listKey) {
        return connect(redisUri, listKey, Duration.ofSeconds(5));
    }

    /**
     * Connects to {@code redisUri} with the given command timeout; commands are rejected while
     * disconnected so a dead Redis fails the write at once.
     *
     * @throws DeadLetterException when Redis cannot be reached (URI password masked)
     */
    public static RedisListDeadLetters connect(String redisUri, String listKey, Duration timeout) {
        RedisListDeadLetters sink = atFirstWrite(redisUri, listKey, timeout);
        sink.connection();
        return sink;
    }

    /**
     * A sink that connects to {@code redisUri} at its first write, not now: for one created
     * before the broker is up, as a Spring bean is (beans are made before guard's readiness gate
     * opens). A write that cannot connect throws {@link DeadLetterException} (the job is not
     * acknowledged); the next write tries again.
     */
    public static RedisListDeadLetters atFirstWrite(String redisUri, String listKey, Duration timeout) {
        Objects.requireNonNull(redisUri, "redisUri");
        Objects.requireNonNull(timeout, "timeout");
        requireKey(listKey);
        return new RedisListDeadLetters(null, redisUri, timeout, listKey,
                "redis list '" + listKey + "' at " + Redaction.maskSettingValue(redisUri));
    }

    private synchronized StatefulRedisConnection<String, String> connection() {
        if (borrowed != null) {
            return borrowed;
        }
        if (closed) {
            throw new DeadLetterException("dead-letter sink " + target + " is closed", null);
        }
        if (owned == null) {
            owned = open(redisUri, listKey, timeout);
        }
        return owned.connection();
    }

    private static Owned open(String redisUri, String listKey, Duration timeout) {
        String masked = Redaction.maskSettingValue(redisUri);
        RedisClient client = null;
        // the JDK resolver, not lettuce's default netty DNS client: that one keeps an address for its
        // DNS TTL, so after a Redis container restart (new address in a Compose network) every
        // reconnect went to the old one and each letter failed for over a minute (ComposeStackIT);
        // and reconnects at least every 2 s: with commands rejected while disconnected, every letter
        // of a job waiting for this store failed for up to half a minute after Redis was back
        ClientResources resources = WorkerRedis.resources();
        try {
            RedisURI uri = RedisURI.create(redisUri);
            uri.setTimeout(timeout);
            client = RedisClient.create(resources, uri);
            client.setOptions(ClientOptions.builder()
                    .disconnectedBehavior(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS)
                    .timeoutOptions(TimeoutOptions.enabled(timeout))
                    .build());
            StatefulRedisConnection<String, String> c = client.connect();
            c.setTimeout(timeout);
            return new Owned(c, client, resources);
        } catch (RuntimeException e) {
            if (client != null) {
                client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
            }
            resources.shutdown(0, 2, java.util.concurrent.TimeUnit.SECONDS);
            throw new DeadLetterException("dead-letter sink: cannot connect to Redis at " + masked + " for list '"
                    + listKey + "': " + Redaction.maskText(String.valueOf(e.getMessage()))
                    + "; check the URI and that Redis is up", e);
        }
    }

    private static String requireKey(String listKey) {
        if (listKey == null || listKey.isBlank()) {
            throw new IllegalArgumentException("dead-letter list key must be a non-blank Redis key");
        }
        return listKey;
    }

    /** The list the letters go to. */
    public String listKey() {
        return listKey;
    }

    @Override
    public void write(DeadLetter letter) {
        String envelope = envelope(letter);
        StatefulRedisConnection<String, String> connection;
        try {
            connection = connection();
        } catch (DeadLetterException e) {
            throw new DeadLetterException("dead letter for job " + letter.jobId() + " not written: " + e.getMessage()
                    + "; the job is not acknowledged", e);
        }
        try {
            connection.sync().rpush(listKey, envelope);
        } catch (RuntimeException e) {
            throw new DeadLetterException("dead letter for job " + letter.jobId() + " not written to " + target + ": "
                    + e.getClass().getSimpleName() + ": " + Redaction.maskText(String.valueOf(e.getMessage()))
                    + "; the job is not acknowledged", e);
        }
    }

    /** The JSON envelope stored for a letter. */
    public static String envelope(DeadLetter letter) {
        byte[] payload = letter.originalPayload();
        ObjectNode n = letter.metadataNode();
        n.put("payload_base64", Base64.getEncoder().encodeToString(payload));
        String text = utf8(payload);
        if (text != null) {
            n.put("payload", text);
        }
        return n.toString();
    }

    /** The original payload bytes from an envelope read back from the list. */
    public static byte[] payloadOf(String envelope) {
        try {
            JsonNode n = MAPPER.readTree(envelope);
            JsonNode b64 = n.get("payload_base64");
            if (b64 == null || !b64.isTextual()) {
                throw new IllegalArgumentException("not a guard dead-letter envelope: no payload_base64 field");
            }
            return Base64.getDecoder().decode(b64.asText());
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalArgumentException("not a guard dead-letter envelope (not JSON): " + e.getOriginalMessage(), e);
        }
    }

    private static String utf8(byte[] bytes) {
        try {
            return StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes)).toString();
        } catch (CharacterCodingException e) {
            return null;
        }
    }

    /** Closes the connection when this sink opened it ({@link #connect}, {@link #atFirstWrite}); otherwise does nothing. */
    @Override
    public synchronized void close() {
        closed = true;
        if (owned != null) {
            owned.close();
            owned = null;
        }
    }

    @Override
    public String toString() {
        return "RedisListDeadLetters[" + target + "]";
    }
}
