package dev.guard.queue.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lettuce.core.RedisClient;
import io.lettuce.core.StreamMessage;
import io.lettuce.core.api.StatefulRedisConnection;
import dev.guard.testing.Patience;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Consumer groups: XREADGROUP, XACK, XAUTOCLAIM of a dead consumer's entry, delivery limit. */
class StreamQueueTest {

    private final String stream = "guard-test:stream:" + UUID.randomUUID();
    private SharedRedisKeys shared;
    private RedisClient client;
    private StatefulRedisConnection<String, String> redis;

    @BeforeEach
    void connect() {
        shared = SharedRedisKeys.open(DrainChildProcessTest.sharedRedis(), stream);
        client = shared.client;
        redis = shared.redis;
    }

    @AfterEach
    void cleanUp() {
        shared.close();
    }

    private StreamQueue consumer(String name, int maxInterruptions) {
        return StreamQueue.builder(client, stream, "workers").consumer(name).claimMinIdle(Duration.ofMillis(300))
                .pollTimeout(Duration.ofMillis(100)).maxInterruptions(maxInterruptions).build();
    }

    private static Optional<RedisJob> fetchWithin(StreamQueue q, Duration max) {
        long until = System.nanoTime() + max.toNanos();
        Optional<RedisJob> job = Optional.empty();
        while (job.isEmpty() && System.nanoTime() < until) {
            job = q.fetch();
        }
        return job;
    }

    @Test
    void anAckReadsTheNextEntryAndCloseHandsItBackWithNoDeliveryCounted() {
        try (StreamQueue b = consumer("b", 1)) {
            try (StreamQueue a = consumer("a", 1)) {
                redis.sync().xadd(stream, Map.of("job", "job-1"));
                redis.sync().xadd(stream, Map.of("job", "job-2"));
                redis.sync().xadd(stream, Map.of("job", "job-3"));
                RedisJob one = a.fetch().orElseThrow();
                a.ack(one);
                a.confirmAcks();
                assertEquals(1L, redis.sync().xpending(stream, "workers").getCount(), "job-2, read by the ack's script");
                assertEquals(2L, redis.sync().xlen(stream), "job-1 acked and deleted");
                RedisJob two = a.fetch().orElseThrow();
                assertEquals("job-2", two.id());
                a.ack(two); // reads job-3, which consumer a never starts
            }
            RedisJob three = fetchWithin(b, Patience.WAIT).orElseThrow(
                    () -> new AssertionError("consumer b did not claim job-3 within " + Patience.WAIT.toSeconds() + " s"));
            assertEquals("job-3", three.id());
            assertEquals(1, three.deliveries(), "read ahead and handed back unstarted: no interruption counted");
            assertEquals(0L, b.deadLettered(), "with maxInterruptions 1 a counted delivery would have dead-lettered it");
        }
    }

    @Test
    void xautoclaimTakesOverTheEntryADeadConsumerNeverAcked() {
        try (StreamQueue a = consumer("a", 3); StreamQueue b = consumer("b", 3)) {
            redis.sync().xadd(stream, Map.of("job", "job-s1"));
            RedisJob first = a.fetch().orElseThrow();
            assertEquals("job-s1", first.id());
            assertEquals(1, first.deliveries());
            a.close(); // consumer a dies holding the entry: no XACK

            long t0 = System.nanoTime();
            RedisJob claimed = fetchWithin(b, Patience.WAIT).orElseThrow(
                    () -> new AssertionError("consumer b did not claim job-s1 within " + Patience.WAIT.toSeconds() + " s"));
            long millis = (System.nanoTime() - t0) / 1_000_000;
            assertEquals("job-s1", claimed.id());
            assertEquals(first.entryId(), claimed.entryId());
            assertEquals(2, claimed.deliveries());
            b.ack(claimed);
            b.confirmAcks();
            assertEquals(0L, redis.sync().xpending(stream, "workers").getCount());
            assertEquals(0L, redis.sync().xlen(stream), "acked entries are deleted");
            System.out.println("[figure] streams: dead consumer's entry claimed by another after " + millis
                    + " ms (claim min-idle 300 ms)");
        }
    }

    @Test
    void anEntryInterruptedTooOftenIsDeadLetteredWithTheReason() {
        redis.sync().xadd(stream, Map.of("job", "job-poison"));
        for (int i = 1; i <= 2; i++) {
            try (StreamQueue dying = consumer("dying-" + i, 2)) {
                assertEquals("job-poison", fetchWithin(dying, Patience.WAIT).orElseThrow().id());
            } // closes without ack
        }
        try (StreamQueue survivor = consumer("survivor", 2)) {
            // fetch until the survivor has claimed the idle entry and dead-lettered it (bounded):
            // no fetch on the way may deliver it
            long until = System.nanoTime() + Patience.WAIT.toNanos();
            while (survivor.deadLettered() == 0 && System.nanoTime() < until) {
                Optional<RedisJob> none = survivor.fetch();
                assertTrue(none.isEmpty(), "the entry interrupted twice (limit 2) must not be delivered again: " + none);
            }
            assertEquals(1, survivor.deadLettered());
        }
        List<StreamMessage<String, String>> dead = redis.sync().xrange(stream + ":dead", io.lettuce.core.Range.create("-", "+"));
        assertEquals(1, dead.size());
        Map<String, String> body = dead.get(0).getBody();
        assertEquals("job-poison", body.get("job"));
        assertEquals("3", body.get("guard.deliveries"));
        assertEquals("interrupted 2 times (limit 2)", body.get("guard.reason"));
        assertEquals(0L, redis.sync().xpending(stream, "workers").getCount());
    }

    @Test
    void aHandedBackEntryIsClaimableAtOnceWithoutWaitingForIdle() throws Exception {
        try (StreamQueue a = StreamQueue.builder(client, stream, "workers").consumer("a")
                .claimMinIdle(Duration.ofMinutes(10)).pollTimeout(Duration.ofMillis(100)).build();
             StreamQueue b = StreamQueue.builder(client, stream, "workers").consumer("b")
                .claimMinIdle(Duration.ofMinutes(10)).pollTimeout(Duration.ofMillis(100)).build()) {
            redis.sync().xadd(stream, Map.of("job", "job-h"));
            RedisJob job = a.fetch().orElseThrow();
            a.handBack(job);
            // claim min-idle is 10 min: a claim within the bound proves it did not wait for idle
            RedisJob again = fetchWithin(b, Patience.WAIT).orElseThrow(
                    () -> new AssertionError("b did not claim the handed-back entry"));
            assertEquals(job.entryId(), again.entryId());
            assertEquals(2, again.deliveries());
        }
    }
}
