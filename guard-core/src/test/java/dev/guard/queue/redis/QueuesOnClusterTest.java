package dev.guard.queue.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.guard.testing.Patience;
import dev.guard.testing.RedisClusterSet;
import dev.guard.testing.RedisServer;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.cluster.api.sync.RedisAdvancedClusterCommands;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The crash-safe list queue, its reaper and the stream queue on a real Redis Cluster (three
 * masters with a replica each from the installed redis-server): the keys share the queue's slot,
 * so BLMOVE and the scripts run, and a dead worker's job comes back on a Cluster too.
 */
class QueuesOnClusterTest {

    private static RedisClusterSet cluster;
    private static RedisClusterClient client;
    private static StatefulRedisClusterConnection<String, String> connection;
    private static RedisAdvancedClusterCommands<String, String> redis;

    @BeforeAll
    static void start() {
        cluster = RedisClusterSet.builder().build().start();
        client = RedisClusterClient.create("redis://127.0.0.1:" + cluster.nodes().get(0).port());
        connection = client.connect();
        redis = connection.sync();
    }

    @AfterAll
    static void stop() {
        if (connection != null) {
            connection.close();
        }
        if (client != null) {
            client.shutdown();
        }
        if (cluster != null) {
            cluster.close();
        }
    }

    private static String queueName() {
        return "jobs-" + UUID.randomUUID().toString().substring(0, 8);
    }

    /** The slot a node of the cluster itself computes for {@code key} (not lettuce's). */
    private static String slotOf(String key) {
        RedisServer node = cluster.nodes().get(0);
        return node.command("CLUSTER", "KEYSLOT", key);
    }

    @Test
    void everyKeyOfTheQueueIsInTheQueuesSlotAndAJobGoesThroughFetchAndAck() {
        String queue = queueName();
        try (CrashSafeListQueue q = CrashSafeListQueue.builder(client, queue).workerId("w1")
                .pollTimeout(Duration.ofMillis(200)).build()) {
            assertEquals("{" + queue + "}:processing:w1", q.processingList());
            assertEquals("{" + queue + "}:lease:w1", q.leaseKey());
            for (String key : List.of(q.processingList(), q.leaseKey(), "{" + queue + "}:workers", "{" + queue + "}:dead",
                    "{" + queue + "}:interruptions")) {
                assertEquals(slotOf(queue), slotOf(key), key);
            }
            redis.lpush(queue, "job-1");
            RedisJob job = fetchWithin(q::fetch);
            assertEquals("job-1", job.payload());
            assertEquals(List.of("job-1"), redis.lrange(q.processingList(), 0, -1), "Redis keeps a copy while it runs");
            q.ack(job);
            q.confirmAcks();
            assertEquals(0L, redis.llen(q.processingList()));
            assertEquals(List.of("w1"), List.copyOf(redis.smembers("{" + queue + "}:workers")));
        }
        assertEquals(0L, redis.exists("{" + queue + "}:lease:w1"), "a clean close drops the lease");
    }

    /**
     * Durability is asked of the master that holds the queue's slot, not of whichever node
     * answers first: with the append-only file on that master only, the queue is kept; with it on
     * every other master only, it is not.
     */
    @Test
    void durabilityIsAskedOfTheMasterOfTheQueuesSlot() {
        String queue = queueName();
        RedisServer owner = cluster.masterOf(queue);
        try (CrashSafeListQueue q = CrashSafeListQueue.builder(client, queue).build()) {
            try {
                setAof(owner, true);
                dev.guard.drain.Durability kept = q.durability();
                assertEquals(dev.guard.drain.Durability.Verdict.KEPT, kept.verdict(), kept.render());
                assertTrue(kept.broker().matches(".*\\(the master of its slot, [^)]+:" + owner.port() + "\\) on .*"), kept.broker());
                setAof(owner, false);
                for (RedisServer m : cluster.masters()) {
                    setAof(m, m != owner);
                }
                dev.guard.drain.Durability lost = q.durability();
                assertEquals(dev.guard.drain.Durability.Verdict.LOST_ON_RESTART, lost.verdict(), lost.render());
            } finally {
                cluster.masters().forEach(m -> setAof(m, false));
            }
        }
    }

    private static void setAof(RedisServer node, boolean on) {
        assertEquals("+OK", node.command("CONFIG", "SET", "appendonly", on ? "yes" : "no"), node.toString());
    }

    @Test
    void aDeadWorkersJobIsReturnedByTheReaperOnTheCluster() {
        String queue = queueName();
        redis.lpush(queue, "job-held");
        CrashSafeListQueue dying = CrashSafeListQueue.builder(client, queue).workerId("dying")
                .leaseTtl(Duration.ofMillis(300)).pollTimeout(Duration.ofMillis(200)).reapEvery(Duration.ZERO).build();
        RedisJob held = fetchWithin(dying::fetch);
        assertEquals("job-held", held.payload());
        // closing with a job in its processing list leaves the lease to expire, as a SIGKILL would
        dying.close();
        assertEquals(List.of("job-held"), redis.lrange("{" + queue + "}:processing:dying", 0, -1));
        try (CrashSafeListQueue survivor = CrashSafeListQueue.builder(client, queue).workerId("survivor")
                .pollTimeout(Duration.ofMillis(200)).reapEvery(Duration.ofMillis(100)).build()) {
            RedisJob again = fetchWithin(survivor::fetch);
            assertEquals("job-held", again.payload());
            assertEquals("1", redis.hget("{" + queue + "}:interruptions", "job-held"));
            assertEquals(0L, redis.exists("{" + queue + "}:processing:dying"));
            survivor.ack(again);
        }
    }

    @Test
    void aJobOfASigkilledWorkerProcessIsReturnedByTheReaperOnTheCluster() throws Exception {
        String queue = queueName();
        String payload = DrainChildProcessTest.job("job-k", 600); // 60 s: still running when killed
        redis.lpush(queue, payload);
        String uri = "redis://127.0.0.1:" + cluster.nodes().get(0).port() + "?cluster=true";
        try (ChildJvm worker = ChildJvm.start(DrainWorkerMain.class, uri, queue, "crashsafe", "30000", "5000", "100");
             ListReaper reaper = ListReaper.builder(client, queue).every(Duration.ofMillis(200)).build().start();
             CrashSafeListQueue other = CrashSafeListQueue.builder(client, queue).workerId("survivor")
                     .pollTimeout(Duration.ofMillis(200)).reapEvery(Duration.ZERO).build()) {
            worker.awaitLine("FETCHED job-k", Patience.PROCESS);
            String processing = "{" + queue + "}:processing:child-" + worker.pid();
            assertEquals(List.of(payload), redis.lrange(processing, 0, -1), "the queue keeps a copy in its slot while it runs");
            worker.sigkill();
            long died = System.nanoTime();
            assertEquals(137, worker.awaitExit(Patience.PROCESS));
            RedisJob again = null;
            while (again == null && System.nanoTime() - died < Patience.WAIT.toNanos()) {
                again = other.fetch().orElse(null);
            }
            assertTrue(again != null, "the reaper did not return job-k on the Cluster within " + Patience.WAIT.toSeconds()
                    + " s of the worker's SIGKILL; queue=" + redis.lrange(queue, 0, -1) + " processing="
                    + redis.lrange(processing, 0, -1));
            System.out.println("[figure] crash-safe on a Cluster: SIGKILL of a worker process holding a job to pick-up by "
                    + "another worker (lease 1000 ms, reaper every 200 ms): " + (System.nanoTime() - died) / 1_000_000 + " ms");
            assertEquals(payload, again.payload());
            assertEquals("1", redis.hget("{" + queue + "}:interruptions", payload));
            assertEquals(0L, redis.exists(processing));
            other.ack(again);
        }
    }

    @Test
    void handBackAndFailRunTheirScriptsOnTheCluster() throws Exception {
        String queue = queueName();
        redis.lpush(queue, "job-a", "job-b");
        try (CrashSafeListQueue q = CrashSafeListQueue.builder(client, queue).workerId("w")
                .pollTimeout(Duration.ofMillis(200)).maxInterruptions(3).build()) {
            RedisJob a = fetchWithin(q::fetch);
            q.handBack(a);
            assertEquals("1", redis.hget("{" + queue + "}:interruptions", a.payload()));
            assertEquals(a.payload(), redis.lindex(queue, -1), "handed back to the consuming end");
            RedisJob next = fetchWithin(q::fetch);
            assertEquals(a.payload(), next.payload(), "taken next");
            q.fail(next, new IllegalStateException("boom"));
            assertEquals(List.of(a.payload()), redis.lrange("{" + queue + "}:dead", 0, -1));
            assertEquals(null, redis.hget("{" + queue + "}:interruptions", a.payload()));
        }
    }

    @Test
    void aDeadLetterListInAnotherSlotIsRefusedNamingBothSlots() {
        String queue = queueName();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> CrashSafeListQueue.builder(client, queue).deadLetter("dead-jobs").build());
        assertTrue(e.getMessage().contains("dead-letter list 'dead-jobs' is in hash slot " + slotOf("dead-jobs").substring(1)
                + " but queue '" + queue + "' is in slot " + slotOf(queue).substring(1)), e.getMessage());
        assertTrue(e.getMessage().contains("'{" + queue + "}:dead'"), e.getMessage());
        // a name with the queue's hash tag is in its slot
        try (CrashSafeListQueue q = CrashSafeListQueue.builder(client, queue).deadLetter("{" + queue + "}:parked")
                .workerId("w").build()) {
            assertEquals("{" + queue + "}:processing:w", q.processingList());
        }
        // a queue that carries a hash tag already keeps its own name as the prefix
        try (CrashSafeListQueue q = CrashSafeListQueue.builder(client, "{app}:jobs").workerId("w").build()) {
            assertEquals("{app}:jobs:processing:w", q.processingList());
        }
    }

    @Test
    void theStreamQueueReadsAcksAndDeadLettersOnTheCluster() {
        String stream = queueName();
        redis.xadd(stream, Map.of("job", "entry-1"));
        try (StreamQueue q = StreamQueue.builder(client, stream, "workers").consumer("c1")
                .pollTimeout(Duration.ofMillis(200)).build()) {
            RedisJob job = fetchWithin(q::fetch);
            assertEquals("entry-1", job.payload());
            q.ack(job);
            q.confirmAcks();
            assertEquals(0L, redis.xlen(stream), "acked and deleted");
            redis.xadd(stream, Map.of("job", "entry-2"));
            RedisJob second = fetchWithin(q::fetch);
            q.fail(second, new IllegalStateException("boom"));
            assertEquals(1L, redis.xlen(stream + ":dead"));
        }
    }

    private static RedisJob fetchWithin(Supplier<Optional<RedisJob>> fetch) {
        long deadline = System.nanoTime() + Patience.WAIT.toNanos();
        while (System.nanoTime() < deadline) {
            Optional<RedisJob> job = fetch.get();
            if (job.isPresent()) {
                return job.get();
            }
        }
        throw new AssertionError("no job within " + Patience.WAIT.toSeconds() + " s");
    }
}
