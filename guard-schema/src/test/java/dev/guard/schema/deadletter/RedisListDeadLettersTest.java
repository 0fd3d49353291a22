package dev.guard.schema.deadletter;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.guard.schema.Outcome;
import dev.guard.schema.SourceInfo;
import dev.guard.schema.deadletter.redis.RedisListDeadLetters;
import dev.guard.testing.MachineServices;
import dev.guard.testing.RedisServer;
import java.time.Duration;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The Redis list sink against the machine's Redis ({@link MachineServices#redisUri()}, a unique key per test). */
class RedisListDeadLettersTest extends SkewContract {

    static final String REDIS = MachineServices.redisUri();
    static final ObjectMapper MAPPER = new ObjectMapper();

    RedisListDeadLetters sink;
    RedisClient client;
    StatefulRedisConnection<String, String> reader;

    @Override
    String broker() {
        return "redis";
    }

    @Override
    DeadLetterSink sink() {
        sink = RedisListDeadLetters.connect(REDIS, unique);
        return sink;
    }

    StatefulRedisConnection<String, String> reader() {
        if (reader == null) {
            client = RedisClient.create(REDIS);
            reader = client.connect();
        }
        return reader;
    }

    @Override
    List<ReadBack> readBack(int n) throws Exception {
        List<ReadBack> out = new ArrayList<>();
        for (String envelope : reader().sync().lrange(unique, 0, -1)) {
            JsonNode node = MAPPER.readTree(envelope);
            Map<String, String> meta = new HashMap<>();
            Iterator<Map.Entry<String, JsonNode>> it = node.fields();
            while (it.hasNext()) {
                Map.Entry<String, JsonNode> e = it.next();
                meta.put(e.getKey(), e.getValue().isTextual() ? e.getValue().asText() : e.getValue().toString());
            }
            JsonNode s = node.get("source");
            meta.put("source", new SourceInfo(s.path("broker").asText(null), s.path("queue").asText(null), null, null,
                    s.path("message_id").asText(null)).describe());
            out.add(new ReadBack(RedisListDeadLetters.payloadOf(envelope), meta));
        }
        return out;
    }

    @Test
    void envelopeKeepsTheExactBytesEvenWhenTheyAreNotUtf8() throws Exception {
        byte[] payload = {'{', '"', 'a', '"', ':', '"', (byte) 0xC3, (byte) 0x28, '"', '}', 0};
        DeadLetter letter = new DeadLetter(payload, Outcome.REJECTED, "malformed (not_utf8)", List.of(), List.of(), null,
                SourceInfo.redis("in", "1-0"), "x", Instant.parse("2026-11-30T00:00:00Z"), "c", null);
        sink().write(letter);
        String envelope = reader().sync().lindex(unique, 0);
        assertArrayEquals(payload, RedisListDeadLetters.payloadOf(envelope));
        assertTrue(!MAPPER.readTree(envelope).has("payload"), "no text copy for bytes that are not UTF-8: " + envelope);
        assertEquals("{\"a\":1}", MAPPER.readTree(RedisListDeadLetters.envelope(new DeadLetter("{\"a\":1}".getBytes(),
                Outcome.REJECTED, "r", List.of(), List.of(), null, null, "y", null, "c", null))).get("payload").asText());
    }

    /**
     * {@link RedisListDeadLetters#atFirstWrite} sends nothing until a letter comes: a write while
     * Redis does not listen fails loudly (password masked, the job not acknowledged), the next one
     * after Redis started is written. A private redis-server with a password, started late.
     */
    @Test
    void aSinkMadeBeforeRedisListensConnectsAtItsFirstWrite() {
        try (RedisServer redis = RedisServer.builder().password("s3cret-pw").build();
             RedisListDeadLetters late = RedisListDeadLetters.atFirstWrite(redis.uri(), "late:dead", Duration.ofSeconds(2))) {
            assertTrue(redis.uri().contains("s3cret-pw"), redis.uri());
            DeadLetter letter = new DeadLetter("{\"id\":7}".getBytes(), Outcome.REJECTED, "job_id missing", List.of(), List.of(),
                    null, SourceInfo.redis("in", null), "job-7", Instant.now(), "c", null);
            DeadLetterException down = assertThrows(DeadLetterException.class, () -> late.write(letter));
            assertTrue(down.getMessage().contains("job-7") && down.getMessage().contains("not acknowledged"), down.getMessage());
            assertFalse(down.getMessage().contains("s3cret-pw"), down.getMessage());
            redis.start();
            late.write(letter);
            String list = redis.command("LRANGE", "late:dead", "0", "-1");
            assertTrue(list.contains("\"job_id\":\"job-7\""), "the letter is in the list: " + list);
        }
    }

    @AfterEach
    void cleanUp() {
        try {
            if (reader != null || sink != null) {
                reader().sync().del(unique);
            }
        } finally {
            if (sink != null) {
                sink.close();
            }
            if (reader != null) {
                reader.close();
                client.shutdown();
            }
        }
    }
}
