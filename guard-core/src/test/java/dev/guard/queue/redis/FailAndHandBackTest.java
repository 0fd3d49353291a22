package dev.guard.queue.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.guard.drain.HandBackFailedException;
import dev.guard.queue.SourceOptions;
import dev.guard.testing.TcpProxy;
import io.lettuce.core.Range;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.StreamMessage;
import io.lettuce.core.api.sync.RedisCommands;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code fail()} (a job whose handler threw is parked where a person can see it) and
 * {@code handBack()} (an unfinished job goes back to be taken again) of the three Redis job
 * sources, against the machine's Redis, and a hand-back whose reply never comes (a proxy that
 * swallows the command).
 */
class FailAndHandBackTest {

    private final String queue = "guard-test:fail:" + UUID.randomUUID();
    private SharedRedisKeys shared;
    private RedisClient client;
    private RedisCommands<String, String> redis;

    @BeforeEach
    void connect() {
        shared = SharedRedisKeys.open(DrainChildProcessTest.sharedRedis(), queue);
        client = shared.client;
        redis = shared.redis.sync();
    }

    @AfterEach
    void cleanUp() {
        shared.close();
    }

    private static RedisJob fetch(Supplier<Optional<RedisJob>> fetch) {
        for (int i = 0; i < 50; i++) {
            Optional<RedisJob> job = fetch.get();
            if (job.isPresent()) {
                return job.get();
            }
        }
        throw new AssertionError("no job fetched in 50 polls");
    }

    @Test
    void fallbackListFailParksTheJobInTheDeadListOnly() {
        try (FallbackListQueue q = FallbackListQueue.builder(client, queue).pollTimeout(Duration.ofMillis(100)).build()) {
            redis.lpush(queue, "job-f1");
            RedisJob job = fetch(q::fetch);
            q.fail(job, new IllegalStateException("thumbnail service said 500"));
            assertEquals(List.of("job-f1"), redis.lrange(queue + ":dead", 0, -1));
            assertEquals(0, redis.llen(queue));
            assertEquals(0, redis.llen(queue + ":fallback"));
        }
    }

    @Test
    void fallbackListHandBackIsTakenFirstByTheNextFetch() throws Exception {
        try (FallbackListQueue q = FallbackListQueue.builder(client, queue).pollTimeout(Duration.ofMillis(100)).build()) {
            redis.lpush(queue, "job-h1", "job-h2");
            RedisJob first = fetch(q::fetch);
            assertEquals("job-h1", first.id());
            q.handBack(first);
            assertEquals(List.of("job-h1"), redis.lrange(queue + ":fallback", 0, -1));
            RedisJob again = fetch(q::fetch);
            assertEquals("job-h1", again.id(), "the handed-back job comes before the rest of the queue");
            assertEquals(queue + ":fallback", again.origin());
        }
    }

    @Test
    void crashSafeFailMovesTheJobOutOfTheProcessingListAndForgetsItsInterruptions() throws Exception {
        try (CrashSafeListQueue q = CrashSafeListQueue.builder(client, queue).pollTimeout(Duration.ofMillis(100))
                .reapEvery(Duration.ZERO).build()) {
            redis.lpush(queue, "job-c1");
            RedisJob job = fetch(q::fetch);
            q.handBack(job); // one interruption first
            assertEquals("1", redis.hget(queue + ":interruptions", "job-c1"));
            job = fetch(q::fetch);
            q.fail(job, new IllegalStateException("bad image"));
            assertEquals(List.of("job-c1"), redis.lrange(queue + ":dead", 0, -1));
            assertEquals(0, redis.llen(q.processingList()));
            assertEquals(0, redis.llen(queue));
            assertEquals(null, redis.hget(queue + ":interruptions", "job-c1"), "a parked job's count is forgotten");
        }
    }

    @Test
    void crashSafeFailOfAJobNoLongerHeldParksNothingTwice() {
        try (CrashSafeListQueue q = CrashSafeListQueue.builder(client, queue).pollTimeout(Duration.ofMillis(100))
                .reapEvery(Duration.ZERO).build()) {
            redis.lpush(queue, "job-c2");
            RedisJob job = fetch(q::fetch);
            redis.lrem(q.processingList(), 1, "job-c2"); // a reaper returned it meanwhile
            redis.rpush(queue, "job-c2");
            q.fail(job, new IllegalStateException("late"));
            assertEquals(0, redis.llen(queue + ":dead"), "the job is in the queue again, not also dead");
            assertEquals(List.of("job-c2"), redis.lrange(queue, 0, -1));
        }
    }

    @Test
    void crashSafeHandBackReturnsTheJobNextAndDeadLettersItAtTheLimit() throws Exception {
        SourceOptions options = SourceOptions.DEFAULTS.withPollTimeout(Duration.ofMillis(100)).withMaxInterruptions(2);
        try (CrashSafeListQueue q = CrashSafeListQueue.builder(client, queue).options(options)
                .reapEvery(Duration.ZERO).build()) {
            redis.lpush(queue, "job-c3", "job-c4");
            RedisJob job = fetch(q::fetch);
            assertEquals("job-c3", job.id());
            q.handBack(job);
            assertEquals(0, redis.llen(q.processingList()));
            job = fetch(q::fetch);
            assertEquals("job-c3", job.id(), "handed back to the consuming end: taken next");
            q.handBack(job);
            assertEquals(List.of("job-c3"), redis.lrange(queue + ":dead", 0, -1), "second interruption of 2: dead");
            assertEquals(List.of("job-c4"), redis.lrange(queue, 0, -1));
        }
    }

    @Test
    void crashSafeHandBackWithoutAReplyFailsLoudlyAndTheJobStaysInTheProcessingList() throws Exception {
        RedisURI direct = RedisURI.create(DrainChildProcessTest.sharedRedis());
        try (TcpProxy proxy = TcpProxy.forward(direct.getHost(), direct.getPort())) {
            RedisURI viaProxy = RedisURI.create(DrainChildProcessTest.sharedRedis());
            viaProxy.setHost(proxy.host());
            viaProxy.setPort(proxy.port());
            RedisClient proxied = RedisClient.create(viaProxy);
            try (CrashSafeListQueue q = CrashSafeListQueue.builder(proxied, queue).pollTimeout(Duration.ofMillis(100))
                    .handBackTimeout(Duration.ofMillis(500)).reapEvery(Duration.ZERO).leaseTtl(Duration.ofSeconds(30))
                    .build()) {
                redis.lpush(queue, "job-c5");
                RedisJob job = fetch(q::fetch);
                proxy.mode(TcpProxy.Mode.BLACKHOLE);
                HandBackFailedException e = assertThrows(HandBackFailedException.class, () -> q.handBack(job));
                assertEquals("job-c5", e.jobId());
                assertTrue(e.getMessage().contains("did not complete within 500 ms"), e.getMessage());
                assertTrue(e.getMessage().contains("goes back to the queue at this worker's next fetch once Redis answers again, or by a reaper once the lease expires"), e.getMessage());
                assertEquals(List.of("job-c5"), redis.lrange(q.processingList(), 0, -1), "still kept by Redis");
                proxy.mode(TcpProxy.Mode.FORWARD);
            } finally {
                proxied.shutdown();
            }
        }
    }

    @Test
    void streamFailCopiesTheEntryWithItsReasonAndAcksIt() {
        try (StreamQueue q = StreamQueue.builder(client, queue, "workers").consumer("a").pollTimeout(Duration.ofMillis(100))
                .build()) {
            redis.xadd(queue, Map.of("job", "job-s1"));
            RedisJob job = fetch(q::fetch);
            q.fail(job, new IllegalStateException("thumbnail service said 500"));
            List<StreamMessage<String, String>> dead = redis.xrange(queue + ":dead", Range.create("-", "+"));
            assertEquals(1, dead.size());
            assertEquals("job-s1", dead.get(0).getBody().get("job"));
            assertEquals(job.entryId(), dead.get(0).getBody().get("guard.entry"));
            assertTrue(dead.get(0).getBody().get("guard.reason").contains("thumbnail service said 500"),
                    dead.get(0).getBody().toString());
            assertEquals(0, redis.xpending(queue, "workers").getCount(), "acked: nobody takes it again");
        }
    }

    @Test
    void streamHandBackLetsAnotherConsumerTakeTheEntryAtOnce() throws Exception {
        try (StreamQueue a = StreamQueue.builder(client, queue, "workers").consumer("a").pollTimeout(Duration.ofMillis(100))
                .claimMinIdle(Duration.ofSeconds(30)).build();
             StreamQueue b = StreamQueue.builder(client, queue, "workers").consumer("b").pollTimeout(Duration.ofMillis(100))
                .claimMinIdle(Duration.ofSeconds(30)).build()) {
            redis.xadd(queue, Map.of("job", "job-s2"));
            RedisJob job = fetch(a::fetch);
            a.handBack(job);
            long t0 = System.nanoTime();
            RedisJob taken = fetch(b::fetch);
            assertEquals("job-s2", taken.id());
            assertEquals(job.entryId(), taken.entryId());
            assertEquals(2, taken.deliveries());
            assertTrue(System.nanoTime() - t0 < Duration.ofSeconds(25).toNanos(),
                    "taken well before the 30 s idle time a crash would need");
        }
    }
}
