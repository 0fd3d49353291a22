package dev.guard.schema.deadletter;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.guard.schema.Outcome;
import dev.guard.schema.SourceInfo;
import dev.guard.schema.deadletter.nats.NatsDeadLetters;
import dev.guard.testing.MachineServices;
import io.nats.client.Connection;
import io.nats.client.JetStreamManagement;
import io.nats.client.Message;
import io.nats.client.Nats;
import io.nats.client.Subscription;
import io.nats.client.api.MessageInfo;
import io.nats.client.api.StorageType;
import io.nats.client.api.StreamConfiguration;
import io.nats.client.impl.Headers;
import dev.guard.testing.Patience;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The NATS sink (core publish) against the machine's NATS (GUARD_TEST_NATS_URL or 127.0.0.1:4222): the test subscribes to
 * a unique subject before publishing. A second test uses JetStream with a unique stream.
 */
class NatsDeadLettersTest extends SkewContract {

    Connection nats;
    Subscription sub;
    String stream;

    @BeforeEach
    void connect() throws Exception {
        nats = Nats.connect(MachineServices.natsUrl());
        sub = nats.subscribe(unique + ".dead");
        nats.flush(Patience.REPLY);
    }

    @Override
    String broker() {
        return "nats";
    }

    @Override
    DeadLetterSink sink() {
        return NatsDeadLetters.core(nats, unique + ".dead");
    }

    @Override
    List<ReadBack> readBack(int n) throws Exception {
        List<ReadBack> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            Message m = sub.nextMessage(Patience.REPLY);
            assertNotNull(m, "letter " + (i + 1) + " of " + n + " not received on " + unique + ".dead");
            out.add(new ReadBack(m.getData(), meta(m.getHeaders())));
        }
        return out;
    }

    static Map<String, String> meta(Headers headers) {
        Map<String, String> meta = new HashMap<>();
        for (String k : headers.keySet()) {
            meta.put(shortName(k), headers.getFirst(k));
        }
        return meta;
    }

    @Test
    void jetStreamWriteIsStoredWithHeadersAndNoStreamFailsTheWrite() throws Exception {
        JetStreamManagement jsm = nats.jetStreamManagement();
        stream = unique.replace('-', '_');
        jsm.addStream(StreamConfiguration.builder().name(stream).subjects(unique + ".js").storageType(StorageType.Memory).build());
        byte[] payload = "{\"job_id\": 7, \"note\": \"caf\u00e9\"}".getBytes(java.nio.charset.StandardCharsets.UTF_8);
        DeadLetter letter = new DeadLetter(payload, Outcome.REJECTED, "invalid: caf\u00e9\nline two", List.of(), List.of(), "s1",
                SourceInfo.nats(unique + ".in", "42"), "7", null, "c", null);
        NatsDeadLetters.jetStream(nats, unique + ".js").write(letter);
        MessageInfo stored = jsm.getMessage(stream, 1);
        assertArrayEquals(payload, stored.getData());
        Map<String, String> meta = meta(stored.getHeaders());
        assertEquals("invalid: caf\\u00e9\\nline two", meta.get("reason"), "headers are single-line ASCII");
        assertEquals("7", meta.get("job_id"));
        assertEquals("nats:" + unique + ".in#42", meta.get("source"));

        DeadLetterException e = assertThrows(DeadLetterException.class,
                () -> NatsDeadLetters.jetStream(nats, unique + ".nostream").write(letter));
        assertTrue(e.getMessage().startsWith("dead letter for job 7 "), e.getMessage());
        assertTrue(e.getMessage().contains("nats jetstream subject '" + unique + ".nostream'"), e.getMessage());
        assertTrue(e.getMessage().endsWith("the job is not acknowledged"), e.getMessage());
    }

    @AfterEach
    void cleanUp() throws Exception {
        try {
            if (stream != null) {
                nats.jetStreamManagement().deleteStream(stream);
            }
        } finally {
            if (nats != null) {
                nats.close();
            }
        }
    }
}
