package dev.guard.queue.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.guard.drain.HandBackFailedException;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import dev.guard.testing.Patience;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** BLMOVE + processing list + lease + reaper, on the machine's Redis with unique keys. */
class CrashSafeListQueueTest {

    private final String queue = "guard-test:crashsafe:" + UUID.randomUUID();
    private SharedRedisKeys shared;
    private RedisClient client;
    private StatefulRedisConnection<String, String> redis;

    @BeforeEach
    void connect() {
        shared = SharedRedisKeys.open(DrainChildProcessTest.sharedRedis(), queue);
        client = shared.client;
        redis = shared.redis;
    }

    @AfterEach
    void cleanUp() {
        shared.close();
    }

    @Test
    void aJobOfASigkilledWorkerIsReturnedByTheReaperWithinSeconds() throws Exception {
        String payload = DrainChildProcessTest.job("job-k", 600); // 60 s: it is still running when killed
        redis.sync().lpush(queue, payload);
        try (ChildJvm worker = ChildJvm.start(DrainWorkerMain.class, DrainChildProcessTest.sharedRedis(), queue, "crashsafe",
                "30000", "5000", "100");
             ListReaper reaper = ListReaper.builder(client, queue).every(Duration.ofMillis(200)).build().start();
             CrashSafeListQueue other = CrashSafeListQueue.builder(client, queue).workerId("survivor")
                     .pollTimeout(Duration.ofMillis(200)).reapEvery(Duration.ZERO).build()) {
            worker.awaitLine("FETCHED job-k", Patience.PROCESS);
            String processing = queue + ":processing:child-" + worker.pid();
            assertEquals(List.of(payload), redis.sync().lrange(processing, 0, -1), "the queue keeps a copy while it runs");
            assertEquals(0L, redis.sync().llen(queue));

            worker.sigkill();
            long died = System.nanoTime();
            assertEquals(137, worker.awaitExit(Patience.PROCESS));
            Optional<RedisJob> again = Optional.empty();
            while (again.isEmpty() && System.nanoTime() - died < Patience.WAIT.toNanos()) {
                again = other.fetch();
            }
            long millis = (System.nanoTime() - died) / 1_000_000;
            assertTrue(again.isPresent(), "the reaper did not return job-k within " + Patience.WAIT.toSeconds()
                    + " s of the worker's SIGKILL; "
                    + "queue=" + redis.sync().lrange(queue, 0, -1) + " processing=" + redis.sync().lrange(processing, 0, -1));
            assertEquals(payload, again.get().payload());
            assertEquals("1", redis.sync().hget(queue + ":interruptions", payload));
            assertEquals(0L, redis.sync().exists(processing));
            assertEquals(List.of("survivor"), List.copyOf(redis.sync().smembers(queue + ":workers")));
            System.out.println("[figure] crash-safe: SIGKILL of a worker holding a job to pick-up by another worker"
                    + " (lease 1000 ms, reaper every 200 ms): " + millis + " ms");
            other.ack(again.get());
            other.confirmAcks();
            assertEquals(0L, redis.sync().llen(other.processingList()));
            assertEquals(0L, redis.sync().hlen(queue + ":interruptions"));
        }
    }

    @Test
    void aJobInterruptedThreeTimesIsDeadLetteredNotRetriedForever() throws Exception {
        redis.sync().lpush(queue, "job-poison");
        try (ListReaper reaper = ListReaper.builder(client, queue).maxInterruptions(3).build()) {
            for (int attempt = 1; attempt <= 3; attempt++) {
                CrashSafeListQueue dying = CrashSafeListQueue.builder(client, queue).workerId("dying-" + attempt)
                        .leaseTtl(Duration.ofMillis(300)).reapEvery(Duration.ZERO).pollTimeout(Duration.ofMillis(200)).build();
                assertEquals("job-poison", dying.fetch().orElseThrow().payload());
                dying.close(); // no ack: the lease is left to expire, as after a crash
                ReapResult r = ReapResult0.awaitReap(reaper);
                assertEquals(1, r.workersReaped());
                if (attempt < 3) {
                    assertEquals(1, r.jobsReturned());
                    assertEquals(List.of("job-poison"), redis.sync().lrange(queue, 0, -1));
                } else {
                    assertEquals(1, r.jobsDeadLettered());
                    assertEquals(0L, redis.sync().llen(queue));
                    assertEquals(List.of("job-poison"), redis.sync().lrange(queue + ":dead", 0, -1));
                }
                assertEquals(Integer.toString(attempt), redis.sync().hget(queue + ":interruptions", "job-poison"));
            }
        }
    }

    @Test
    void anAckMovesTheNextJobInAndCloseReturnsItUnstartedAndUncounted() {
        redis.sync().lpush(queue, "job-a", "job-b", "job-c"); // job-a is taken first
        try (CrashSafeListQueue q = CrashSafeListQueue.builder(client, queue).workerId("w").reapEvery(Duration.ZERO)
                .pollTimeout(Duration.ofMillis(200)).build()) {
            RedisJob a = q.fetch().orElseThrow();
            q.ack(a);
            q.confirmAcks();
            assertEquals(List.of("job-b"), redis.sync().lrange(q.processingList(), 0, -1),
                    "the ack's script moved the next job in: Redis holds it for this worker");
            assertEquals(List.of("job-c"), redis.sync().lrange(queue, 0, -1));
            RedisJob b = q.fetch().orElseThrow();
            assertEquals("job-b", b.id());
            q.ack(b); // moves job-c in; this worker never starts it
        }
        assertEquals(List.of("job-c"), redis.sync().lrange(queue, 0, -1), "back at the consuming end");
        assertEquals(0L, redis.sync().hlen(queue + ":interruptions"), "a job never started is not an interruption");
        assertEquals(0L, redis.sync().exists(queue + ":processing:w", queue + ":lease:w"));
    }

    @Test
    void anAckAfterTheScriptCacheWasFlushedRunsFromTheScriptsText() {
        redis.sync().lpush(queue, "job-a", "job-b");
        try (CrashSafeListQueue q = CrashSafeListQueue.builder(client, queue).workerId("w").reapEvery(Duration.ZERO)
                .pollTimeout(Duration.ofMillis(200)).build()) {
            RedisJob a = q.fetch().orElseThrow();
            redis.sync().scriptFlush(); // what a restart or a failover to a replica does to the cache
            q.ack(a);
            assertEquals("job-b", q.fetch().orElseThrow().id(), "the script ran after NOSCRIPT and moved job-b in");
            assertEquals(List.of("job-b"), redis.sync().lrange(q.processingList(), 0, -1), "job-a is acked");
        }
    }

    @Test
    void handBackPutsTheJobAtTheFrontAndCountsAnInterruption() throws Exception {
        redis.sync().lpush(queue, "job-a", "job-b"); // job-a is taken first
        try (CrashSafeListQueue q = CrashSafeListQueue.builder(client, queue).workerId("w").reapEvery(Duration.ZERO)
                .pollTimeout(Duration.ofMillis(200)).build()) {
            RedisJob a = q.fetch().orElseThrow();
            assertEquals("job-a", a.id());
            q.handBack(a);
            assertEquals(0L, redis.sync().llen(q.processingList()));
            assertEquals("1", redis.sync().hget(queue + ":interruptions", "job-a"));
            assertEquals("job-a", q.fetch().orElseThrow().id(), "a handed-back job is taken next");
        } catch (HandBackFailedException e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void aRestartedWorkerWithTheSameIdRecoversItsOwnJobsAtOnce() {
        redis.sync().lpush(queue + ":processing:pod-0", "job-left");
        redis.sync().set(queue + ":lease:pod-0", "old"); // the old lease has not even expired
        try (CrashSafeListQueue q = CrashSafeListQueue.builder(client, queue).workerId("pod-0").reapEvery(Duration.ZERO)
                .pollTimeout(Duration.ofMillis(200)).build()) {
            assertEquals("job-left", q.fetch().orElseThrow().id());
            assertEquals("1", redis.sync().hget(queue + ":interruptions", "job-left"));
        }
    }

    @Test
    void aJobInTheProcessingListThatTheWorkerDoesNotHoldIsReturnedAtTheNextFetch() {
        // what a failover leaves behind: the old master took the ack (LREM) but the promoted replica never got it
        redis.sync().lpush(queue, "job-held");
        try (CrashSafeListQueue q = CrashSafeListQueue.builder(client, queue).workerId("w").reapEvery(Duration.ZERO)
                .pollTimeout(Duration.ofMillis(200)).strandCheckEvery(Duration.ZERO).build()) {
            RedisJob held = q.fetch().orElseThrow();
            redis.sync().lpush(q.processingList(), "job-acked-before-the-failover");
            RedisJob again = q.fetch().orElseThrow();
            assertEquals("job-acked-before-the-failover", again.payload(), "returned to the consuming end, taken next");
            assertEquals("1", redis.sync().hget(queue + ":interruptions", "job-acked-before-the-failover"));
            assertEquals(null, redis.sync().hget(queue + ":interruptions", "job-held"), "the job in hand is left alone");
            assertEquals(List.of("job-acked-before-the-failover", "job-held"), redis.sync().lrange(q.processingList(), 0, -1));
            q.ack(again);
            q.ack(held);
            q.confirmAcks();
            assertEquals(0L, redis.sync().llen(q.processingList()));
        }
    }
}
