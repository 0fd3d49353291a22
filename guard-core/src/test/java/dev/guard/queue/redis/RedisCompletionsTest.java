package dev.guard.queue.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.guard.drain.CompletionStore;
import dev.guard.drain.CompletionStore.Claim;
import dev.guard.drain.CompletionStore.Verdict;
import dev.guard.drain.Drain;
import dev.guard.drain.DrainConfig;
import dev.guard.drain.DrainLoop;
import dev.guard.drain.Once;
import dev.guard.drain.ShutdownReceipt;
import dev.guard.testing.TcpProxy;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Claims, fencing tokens and atomic completion on the machine's Redis (unique keys), and in a real DrainLoop. */
class RedisCompletionsTest {

    private final String prefix = "guard-test:once:" + UUID.randomUUID();
    private final String results = prefix + ":results";
    private SharedRedisKeys shared;

    @BeforeEach
    void connect() {
        shared = SharedRedisKeys.open(DrainChildProcessTest.sharedRedis(), prefix);
    }

    @AfterEach
    void cleanUp() {
        shared.close();
    }

    private RedisCompletions store() {
        return RedisCompletions.builder(shared.client, prefix + ":done").worker("w-test").build();
    }

    @Test
    void aCompletionWritesTheResultsOnceAndARedeliveryFindsItOnRecord() {
        try (RedisCompletions done = store()) {
            Claim first = done.claim("job-1");
            assertFalse(first.onRecord());
            RedisWrites w = done.writes(first).hset(results, "job-1", "thumb-1").hincrby(prefix + ":runs", "job-1", 1);
            assertEquals(Verdict.RECORDED, done.complete(first, w));
            assertEquals("thumb-1", shared.redis.sync().hget(results, "job-1"));

            Claim again = done.claim("job-1");
            assertTrue(again.onRecord(), "the broker gives job-1 out again: its completion must be on record");
            assertEquals(Verdict.ON_RECORD, done.complete(first, done.writes(first).hincrby(prefix + ":runs", "job-1", 1)),
                    "a second completion of the same claim must not write again");
            assertEquals("1", shared.redis.sync().hget(prefix + ":runs", "job-1"));
            assertEquals("w-test", shared.redis.sync().hget(prefix + ":done:job-1", "by"));
            long ttl = shared.redis.sync().pttl(prefix + ":done:job-1");
            assertTrue(ttl > Duration.ofHours(23).toMillis() && ttl <= Duration.ofDays(1).toMillis(), "retention: " + ttl);
        }
    }

    @Test
    void aLaterClaimFencesTheEarlierOneItsWritesAreNotApplied() {
        try (RedisCompletions w1 = store(); RedisCompletions w2 = store()) {
            Claim lapsed = w1.claim("job-2");
            Claim newer = w2.claim("job-2");
            assertTrue(newer.token() > lapsed.token(), lapsed + " then " + newer);
            assertEquals(newer.token(), w2.writes(newer).token());
            assertEquals(Verdict.SUPERSEDED, w1.complete(lapsed, w1.writes(lapsed).hset(results, "job-2", "from-w1")));
            assertNull(shared.redis.sync().hget(results, "job-2"), "a superseded claim wrote its result");
            assertEquals(Verdict.RECORDED, w2.complete(newer, w2.writes(newer).hset(results, "job-2", "from-w2")));
            assertEquals("from-w2", shared.redis.sync().hget(results, "job-2"));
            // the lapsed worker, back after the other finished, finds the completion on record
            assertEquals(Verdict.ON_RECORD, w1.complete(lapsed, w1.writes(lapsed).hset(results, "job-2", "from-w1")));
            assertEquals("from-w2", shared.redis.sync().hget(results, "job-2"));
        }
    }

    @Test
    void scriptsFlushedByARestartOrFailoverAreSentAgain() {
        try (RedisCompletions done = store()) {
            Claim c = done.claim("job-3");
            shared.redis.sync().scriptFlush();
            assertEquals(Verdict.RECORDED, done.complete(c, done.writes(c).set(prefix + ":one", "x")));
            assertEquals("x", shared.redis.sync().get(prefix + ":one"));
        }
    }

    @Test
    void aWriteRedisRefusesFailsTheJobAndRecordsNoCompletion() {
        shared.redis.sync().set(results, "a string, not a hash");
        try (RedisCompletions done = store()) {
            Claim c = done.claim("job-4");
            IllegalStateException e = assertThrows(IllegalStateException.class,
                    () -> done.complete(c, done.writes(c).hset(results, "job-4", "r")));
            assertTrue(e.getMessage().contains("WRONGTYPE") && e.getMessage().contains("no completion was recorded"),
                    e.getMessage());
            assertFalse(done.claim("job-4").onRecord(), "a refused write must leave the job without a completion");
        }
    }

    @Test
    void aStoreThatDoesNotAnswerIsUnavailableWithinTheTimeoutNotAFailure() throws Exception {
        URI shared = URI.create(DrainChildProcessTest.sharedRedis());
        try (TcpProxy proxy = TcpProxy.forward(shared.getHost(), shared.getPort())) {
            RedisURI through = RedisURI.create(DrainChildProcessTest.sharedRedis());
            through.setHost(proxy.host());
            through.setPort(proxy.port());
            RedisClient client = RedisClient.create(through);
            try (RedisCompletions done = RedisCompletions.builder(client, prefix + ":done")
                    .timeout(Duration.ofMillis(300)).build()) {
                Claim c = done.claim("job-5");
                proxy.mode(TcpProxy.Mode.BLACKHOLE);
                proxy.mode(TcpProxy.Mode.REFUSE); // open connections dropped, new ones refused
                long t0 = System.nanoTime();
                CompletionStore.Unavailable u = assertThrows(CompletionStore.Unavailable.class,
                        () -> done.complete(c, done.writes(c).set(prefix + ":five", "x")));
                long ms = (System.nanoTime() - t0) / 1_000_000;
                assertTrue(ms < 2_000, "took " + ms + " ms");
                assertTrue(u.getMessage().contains("job-5"), u.getMessage());
            } finally {
                client.shutdown(Duration.ZERO, Duration.ofMillis(200));
            }
        }
    }

    @Test
    void inTheLoopADuplicateIsAckedWithoutRunningAndASupersededJobGoesBackNotLost() throws Exception {
        String queue = prefix + ":jobs";
        // job-a queued twice (a producer's retry); job-b claimed meanwhile by a claim that nobody completes
        shared.redis.sync().lpush(queue, "job-a", "job-a", "job-b");
        List<String> ran = new ArrayList<>();
        Drain drain = Drain.create(DrainConfig.builder().workerId("w1").build());
        try (RedisCompletions done = store();
             RedisCompletions ghost = store();
             CrashSafeListQueue q = CrashSafeListQueue.builder(shared.client, queue).workerId("w1")
                     .pollTimeout(Duration.ofMillis(200)).build()) {
            ShutdownReceipt r = DrainLoop.builder(drain, q, Once.handler(done, q::idOf, (RedisJob job, Drain d, RedisWrites w) -> {
                ran.add(job.id());
                if (job.id().equals("job-b") && ran.size() == 2) {
                    ghost.claim("job-b"); // a newer claim arrives while w1 runs job-b the first time
                }
                w.hincrby(prefix + ":runs", job.id(), 1);
                if (ran.size() == 3) {
                    drain.requestStop("test over");
                }
            })).build().run();
            // taken from the right: job-a (recorded), job-a again (a duplicate: not run), job-b (superseded:
            // handed back, taken next), job-b again (recorded)
            assertEquals(List.of("job-a", "job-b", "job-b"), ran);
            assertEquals("1", shared.redis.sync().hget(prefix + ":runs", "job-a"));
            assertEquals("1", shared.redis.sync().hget(prefix + ":runs", "job-b"));
            assertEquals(1, r.superseded(), r.toLine());
            assertEquals(1, r.duplicates(), r.toLine());
            assertTrue(r.clean(), r.toLine());
            assertEquals(0L, shared.redis.sync().llen(queue), "every copy was settled");
            assertEquals(0L, shared.redis.sync().llen(q.processingList()));
            assertTrue(r.toLine().contains(" superseded=1"), r.toLine());
        }
    }
}
