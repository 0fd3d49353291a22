package dev.guard.queue.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.guard.testing.MachineServices;
import dev.guard.testing.RedisServer;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import dev.guard.testing.Patience;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** A real child JVM worker receiving a real SIGTERM (and SIGKILL). Uses the machine's Redis with unique keys. */
class DrainChildProcessTest {

    /** The machine's Redis (GUARD_TEST_REDIS_URL or 127.0.0.1:6379), checked to answer; fails saying how to start it. */
    /** The machine's Redis (GUARD_TEST_REDIS_URL or 127.0.0.1:6379), checked; fails saying how to start it. */
    static String sharedRedis() {
        return MachineServices.redisUri();
    }

    private final String queue = "guard-test:drain:" + UUID.randomUUID();
    private SharedRedisKeys shared;
    private RedisClient client;
    private StatefulRedisConnection<String, String> redis;

    @BeforeEach
    void connect() {
        shared = SharedRedisKeys.open(sharedRedis(), queue);
        client = shared.client;
        redis = shared.redis;
    }

    @AfterEach
    void cleanUp() {
        shared.close();
    }

    static String job(String id, int steps) {
        return "{\"id\":\"" + id + "\",\"steps\":" + steps + ",\"body\":\"unchanged \\u00e9\"}";
    }

    @Test
    void sigtermLetsTheJobFinishAndExitsZeroWithAReceipt() throws Exception {
        redis.sync().lpush(queue, job("job-1", 5));
        try (ChildJvm worker = ChildJvm.start(DrainWorkerMain.class, sharedRedis(), queue, "fallback", "3000", "500", "100")) {
            worker.awaitLine("FETCHED job-1", Patience.PROCESS);
            worker.sigterm();
            int exit = worker.awaitExit(Patience.PROCESS);
            assertEquals(0, exit, worker.output());
            String receipt = worker.awaitLine("guard drain receipt:", Patience.REPLY);
            assertTrue(receipt.contains("reason=SIGTERM received=1 processed=1 rejected=0 failed=0 handed_back=0 hand_back_failed=0"),
                    receipt);
            // awaited, not read at once: the exit can come before our reader has the child's last lines
            worker.awaitLine("\"clean\":true,\"exitCode\":0", Patience.REPLY);
            assertEquals("done", redis.sync().hget(queue + ":results", "job-1"));
        }
    }

    @Test
    void aJobPastTheDeadlineIsHandedBackUnchangedToTheFallbackList() throws Exception {
        String payload = job("job-slow", 100); // 10 s of 100 ms steps, grace 1 s
        redis.sync().lpush(queue, payload);
        try (ChildJvm worker = ChildJvm.start(DrainWorkerMain.class, sharedRedis(), queue, "fallback", "1000", "500", "100")) {
            worker.awaitLine("FETCHED job-slow", Patience.PROCESS);
            long t0 = System.nanoTime();
            worker.sigterm();
            int exit = worker.awaitExit(Patience.PROCESS);
            long millis = (System.nanoTime() - t0) / 1_000_000;
            assertEquals(0, exit, worker.output());
            worker.awaitLine("HANDED_BACK job-slow", Patience.REPLY);
            String receipt = worker.awaitLine("guard drain receipt:", Patience.REPLY);
            assertTrue(receipt.contains("received=1 processed=0 rejected=0 failed=0 handed_back=1 hand_back_failed=0"), receipt);
            assertEquals(List.of(payload), redis.sync().lrange(queue + ":fallback", 0, -1));
            assertEquals(0L, redis.sync().llen(queue));
            assertNull(redis.sync().hget(queue + ":results", "job-slow"));
            System.out.println("[figure] SIGTERM to exit with a hand-back (grace 1000 ms, margin 500 ms): " + millis + " ms");
        }
    }

    @Test
    void aJvmShutdownByAnotherSignalStillWaitsForTheJobThroughTheFallbackHook() throws Exception {
        redis.sync().lpush(queue, job("job-hup", 5));
        try (ChildJvm worker = ChildJvm.start(DrainWorkerMain.class, sharedRedis(), queue, "fallback", "3000", "500", "100")) {
            worker.awaitLine("FETCHED job-hup", Patience.PROCESS);
            Process hup = new ProcessBuilder("kill", "-HUP", Long.toString(worker.pid())).start();
            assertEquals(0, hup.waitFor(), "kill -HUP " + worker.pid());
            int exit = worker.awaitExit(Patience.PROCESS);
            // the JVM shuts down on SIGHUP (129); the hook held the shutdown until the job was written
            assertEquals(129, exit, worker.output());
            worker.awaitLine("DONE job-hup", Patience.REPLY);
            assertEquals("done", redis.sync().hget(queue + ":results", "job-hup"));
        }
    }

    @Test
    void aFailedHandBackIsLoudAndExitsNonZero() throws Exception {
        try (RedisServer privateRedis = RedisServer.builder().build().start()) {
            RedisClient pc = RedisClient.create(privateRedis.uri());
            try (StatefulRedisConnection<String, String> c = pc.connect()) {
                c.sync().lpush(queue, job("job-9", 100));
            } finally {
                pc.shutdown();
            }
            try (ChildJvm worker = ChildJvm.start(DrainWorkerMain.class, privateRedis.uri(), queue, "fallback", "1000",
                    "500", "100")) {
                worker.awaitLine("FETCHED job-9", Patience.PROCESS);
                privateRedis.kill();
                worker.sigterm();
                int exit = worker.awaitExit(Patience.PROCESS);
                assertEquals(70, exit, worker.output());
                String error = worker.awaitLine("HAND-BACK FAILED for job job-9", Patience.REPLY);
                assertTrue(error.contains("LPUSH of job job-9 to fallback list '" + queue + ":fallback' did not complete"
                        + " within 500 ms"), error);
                assertTrue(error.contains("The worker will exit with code 70."), error);
                String receipt = worker.awaitLine("guard drain receipt:", Patience.REPLY);
                assertTrue(receipt.contains("received=1 processed=0 rejected=0 failed=0 handed_back=0 hand_back_failed=1 lost_ids=job-9"),
                        receipt);
                assertTrue(receipt.endsWith("exit=70"), receipt);
            }
        }
    }
}
