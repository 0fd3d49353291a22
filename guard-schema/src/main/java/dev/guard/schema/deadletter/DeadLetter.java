package dev.guard.schema.deadletter;

import com.fasterxml.jackson.core.json.JsonWriteFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.guard.config.Redaction;
import dev.guard.schema.SchemaViolation;
import dev.guard.schema.Outcome;
import dev.guard.schema.SourceInfo;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A rejected or failed job: the original payload, byte for byte, and why it was not processed.
 * Text fields that may carry configured values (reason, violation messages, exception, source,
 * consumer) are masked with {@link Redaction#maskText(String)} when the letter is built; the payload
 * is never changed.
 *
 * @param originalPayload the bytes as received (copied; never modified)
 * @param outcome         REJECTED (schema) or FAILED (handler threw)
 * @param reason          one line: the verdict or the exception
 * @param violations      schema violations (empty for FAILED and malformed payloads)
 * @param hints           rename/type-change hints
 * @param schemaId        the schema checked against; may be null
 * @param source          where the job came from
 * @param jobId           the job id when one could be found, else the id the boundary used
 * @param time            when the boundary decided
 * @param consumer        the consumer's name
 * @param exception       the handler's exception (class, message, causes, top frame); null for REJECTED
 */
public record DeadLetter(byte[] originalPayload, Outcome outcome, String reason, List<SchemaViolation> violations,
                         List<String> hints, String schemaId, SourceInfo source, String jobId, Instant time,
                         String consumer, String exception) {

    /** Header/metadata names, shared by every sink. */
    public static final String H_REASON = "x-guard-reason";
    public static final String H_OUTCOME = "x-guard-outcome";
    public static final String H_SCHEMA_ID = "x-guard-schema-id";
    public static final String H_JOB_ID = "x-guard-job-id";
    public static final String H_TIME = "x-guard-time";
    public static final String H_CONSUMER = "x-guard-consumer";
    public static final String H_EXCEPTION = "x-guard-exception";
    public static final String H_VIOLATIONS = "x-guard-violations";
    public static final String H_HINTS = "x-guard-hints";
    public static final String H_SOURCE = "x-guard-source";
    public static final String H_SOURCE_BROKER = "x-guard-source-broker";
    public static final String H_SOURCE_QUEUE = "x-guard-source-queue";
    public static final String H_SOURCE_PARTITION = "x-guard-source-partition";
    public static final String H_SOURCE_OFFSET = "x-guard-source-offset";
    public static final String H_SOURCE_MESSAGE_ID = "x-guard-source-message-id";

    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final ObjectMapper ASCII = JsonMapper.builder().enable(JsonWriteFeature.ESCAPE_NON_ASCII).build();
    private static final int MAX_TEXT = 4000;

    public DeadLetter {
        Objects.requireNonNull(originalPayload, "originalPayload");
        Objects.requireNonNull(outcome, "outcome");
        originalPayload = originalPayload.clone();
        reason = mask(reason);
        List<SchemaViolation> masked = new ArrayList<>();
        for (SchemaViolation v : violations == null ? List.<SchemaViolation>of() : violations) {
            masked.add(new SchemaViolation(v.pointer(), v.keyword(), mask(v.message())));
        }
        violations = List.copyOf(masked);
        List<String> maskedHints = new ArrayList<>();
        for (String h : hints == null ? List.<String>of() : hints) {
            maskedHints.add(mask(h));
        }
        hints = List.copyOf(maskedHints);
        source = source == null ? SourceInfo.unknown() : new SourceInfo(mask(source.broker()),
                mask(source.queueOrTopic()), source.partition(), source.offset(), mask(source.messageId()));
        time = time == null ? Instant.now() : time;
        consumer = mask(consumer);
        exception = mask(exception);
    }

    private static String mask(String s) {
        if (s == null) {
            return null;
        }
        String m = Redaction.maskText(s);
        return m.length() <= MAX_TEXT ? m : m.substring(0, MAX_TEXT - 3) + "...";
    }

    /** A copy of the original bytes. */
    @Override
    public byte[] originalPayload() {
        return originalPayload.clone();
    }

    /**
     * The metadata as one JSON object (no payload): {@code {"outcome":"rejected","reason":...,
     * "violations":[{"pointer","keyword","message"}],"hints":[...],"schema_id","job_id","time",
     * "consumer","exception","source":{"broker","queue","partition","offset","message_id"},
     * "payload_bytes":N}}. Null fields are left out.
     */
    public String metadataJson() {
        return metadataNode().toString();
    }

    /** The metadata object, to which a sink may add fields (the Redis envelope adds the payload). */
    public ObjectNode metadataNode() {
        ObjectNode n = MAPPER.createObjectNode();
        n.put("outcome", outcome.label());
        putIf(n, "reason", reason);
        ArrayNode vs = n.putArray("violations");
        for (SchemaViolation v : violations) {
            vs.addObject().put("pointer", v.pointer()).put("keyword", v.keyword()).put("message", v.message());
        }
        ArrayNode hs = n.putArray("hints");
        hints.forEach(hs::add);
        putIf(n, "schema_id", schemaId);
        putIf(n, "job_id", jobId);
        n.put("time", time.toString());
        putIf(n, "consumer", consumer);
        putIf(n, "exception", exception);
        ObjectNode s = n.putObject("source");
        putIf(s, "broker", source.broker());
        putIf(s, "queue", source.queueOrTopic());
        if (source.partition() != null) {
            s.put("partition", source.partition());
        }
        if (source.offset() != null) {
            s.put("offset", source.offset());
        }
        putIf(s, "message_id", source.messageId());
        n.put("payload_bytes", originalPayload.length);
        return n;
    }

    /**
     * The metadata as message headers (ordered; null fields left out), for the Kafka, NATS and AMQP
     * sinks. Values are single-line US-ASCII (non-ASCII escaped as {@code \\uXXXX}, line breaks as
     * {@code \\n}) so every broker's header rules accept them; violations and hints are JSON arrays.
     */
    public Map<String, String> metadataHeaders() {
        Map<String, String> h = new LinkedHashMap<>();
        h.put(H_OUTCOME, outcome.label());
        putIf(h, H_REASON, reason);
        putIf(h, H_SCHEMA_ID, schemaId);
        putIf(h, H_JOB_ID, jobId);
        h.put(H_TIME, time.toString());
        putIf(h, H_CONSUMER, consumer);
        putIf(h, H_EXCEPTION, exception);
        if (!violations.isEmpty()) {
            ArrayNode vs = MAPPER.createArrayNode();
            for (SchemaViolation v : violations) {
                vs.addObject().put("pointer", v.pointer()).put("keyword", v.keyword()).put("message", v.message());
            }
            h.put(H_VIOLATIONS, asciiJson(vs));
        }
        if (!hints.isEmpty()) {
            ArrayNode hs = MAPPER.createArrayNode();
            hints.forEach(hs::add);
            h.put(H_HINTS, asciiJson(hs));
        }
        h.put(H_SOURCE, source.describe());
        putIf(h, H_SOURCE_BROKER, source.broker());
        putIf(h, H_SOURCE_QUEUE, source.queueOrTopic());
        if (source.partition() != null) {
            h.put(H_SOURCE_PARTITION, source.partition().toString());
        }
        if (source.offset() != null) {
            h.put(H_SOURCE_OFFSET, source.offset().toString());
        }
        putIf(h, H_SOURCE_MESSAGE_ID, source.messageId());
        h.replaceAll((k, v) -> ascii(v));
        return h;
    }

    private static String asciiJson(ArrayNode node) {
        try {
            return ASCII.writeValueAsString(node);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException("cannot serialise dead-letter metadata", e);
        }
    }

    /** Single-line printable US-ASCII: non-ASCII and control characters escaped. */
    static String ascii(String s) {
        StringBuilder sb = null;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            boolean ok = c >= 0x20 && c < 0x7f;
            if (!ok && sb == null) {
                sb = new StringBuilder(s.length() + 16).append(s, 0, i);
            }
            if (sb != null) {
                if (ok) {
                    sb.append(c);
                } else if (c == '\n') {
                    sb.append("\\n");
                } else if (c == '\r') {
                    sb.append("\\r");
                } else if (c == '\t') {
                    sb.append("\\t");
                } else {
                    sb.append(String.format("\\u%04x", (int) c));
                }
            }
        }
        return sb == null ? s : sb.toString();
    }

    private static void putIf(ObjectNode n, String k, String v) {
        if (v != null) {
            n.put(k, v);
        }
    }

    private static void putIf(Map<String, String> h, String k, String v) {
        if (v != null) {
            h.put(k, v);
        }
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof DeadLetter d && Arrays.equals(originalPayload, d.originalPayload)
                && outcome == d.outcome && Objects.equals(reason, d.reason) && violations.equals(d.violations)
                && hints.equals(d.hints) && Objects.equals(schemaId, d.schemaId) && source.equals(d.source)
                && Objects.equals(jobId, d.jobId) && time.equals(d.time) && Objects.equals(consumer, d.consumer)
                && Objects.equals(exception, d.exception);
    }

    @Override
    public int hashCode() {
        return Objects.hash(Arrays.hashCode(originalPayload), outcome, reason, jobId, time);
    }

    @Override
    public String toString() {
        return "DeadLetter[" + outcome.label() + " job=" + jobId + " bytes=" + originalPayload.length + " reason=" + reason + "]";
    }
}
