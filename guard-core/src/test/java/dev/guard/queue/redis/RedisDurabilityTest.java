package dev.guard.queue.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.guard.drain.CheckLevel;
import dev.guard.drain.Durability;
import dev.guard.drain.Durability.Verdict;
import dev.guard.drain.DurabilityCheck;
import dev.guard.testing.MachineServices;
import dev.guard.testing.RedisServer;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * What a Redis keeps across a restart, asked of real servers started with the settings users
 * run: nothing on disk (this machine's own Redis), snapshots only, AOF, an eviction policy that
 * may delete a queue, and CONFIG out of reach (renamed away, or denied to the worker's ACL user,
 * as managed services do), where INFO persistence must answer instead.
 */
class RedisDurabilityTest {

    private static Durability ask(RedisServer server, Function<RedisClient, dev.guard.drain.JobSource<?>> queue) {
        RedisClient client = RedisClient.create(server.uri());
        try (dev.guard.drain.JobSource<?> q = queue.apply(client)) {
            return q.durability();
        } finally {
            client.shutdown();
        }
    }

    private static Durability askCrashSafe(String uri) {
        RedisClient client = RedisClient.create(uri);
        try (CrashSafeListQueue q = CrashSafeListQueue.builder(client, "jobs").build()) {
            return q.durability();
        } finally {
            client.shutdown();
        }
    }

    private static Optional<String> refusal(String uri) {
        RedisClient client = RedisClient.create(uri);
        try (CrashSafeListQueue q = CrashSafeListQueue.builder(client, "jobs").build()) {
            return DurabilityCheck.refusal(q, CheckLevel.ERROR, "w", "x");
        } finally {
            client.shutdown();
        }
    }

    /** The issue's own case: the machine's Redis, started with --save "" and no AOF, is refused with what to set. */
    @Test
    void thisMachinesRedisKeepsNothingAndACrashSafeQueueOnItIsRefused() {
        Durability d = askCrashSafe(MachineServices.redisUri());
        assertEquals(Verdict.LOST_ON_RESTART, d.verdict(), d.render());
        assertTrue(d.found().startsWith("appendonly no, save '' (nothing on disk)"), d.found());
        assertTrue(d.loses().contains("every job waiting in the queue and every job a worker holds"), d.loses());
        assertTrue(d.action().contains("appendonly yes"), d.action());
        assertTrue(d.broker().startsWith("redis queue 'jobs' on Redis "), d.broker());
        String queueKey = MachineServices.uniqueName("durability");
        RedisClient client = RedisClient.create(MachineServices.redisUri());
        try (CrashSafeListQueue q = CrashSafeListQueue.builder(client, queueKey).build();
             StatefulRedisConnection<String, String> c = client.connect()) {
            c.sync().lpush(queueKey, "{\"job_id\":\"j1\"}");
            Optional<String> refused = DurabilityCheck.refusal(q, CheckLevel.ERROR, "w", "GUARD_PERSISTENCE_CHECK=warn");
            assertTrue(refused.isPresent());
            assertTrue(refused.get().contains("to start anyway: GUARD_PERSISTENCE_CHECK=warn"), refused.get());
            assertEquals(Optional.empty(), DurabilityCheck.refusal(q, CheckLevel.WARN, "w", "x"));
            assertEquals(Optional.empty(), DurabilityCheck.refusal(q, CheckLevel.OFF, "w", "x"));
            assertEquals(1L, c.sync().llen(queueKey), "asking took nothing");
            assertEquals(java.util.List.of(), c.sync().keys(queueKey + ":*"), "no lease, no processing list: nothing started");
            c.sync().del(queueKey);
        } finally {
            client.shutdown();
        }
    }

    @Test
    void anAppendOnlyFileKeepsTheQueueAndSnapshotsAloneDoNot() {
        try (RedisServer aof = RedisServer.builder().args("--appendonly", "yes").build().start();
             RedisServer rdb = RedisServer.builder().args("--save", "3600 1 300 100").build().start()) {
            Durability kept = askCrashSafe(aof.uri());
            assertEquals(Verdict.KEPT, kept.verdict(), kept.render());
            assertEquals("appendonly yes, appendfsync everysec (a crash of the machine, not of Redis, can lose the last"
                    + " second of writes)", kept.found());
            assertEquals(Optional.empty(), refusal(aof.uri()));

            Durability snapshots = ask(rdb, c -> StreamQueue.builder(c, "jobs-stream", "workers").build());
            assertEquals(Verdict.LOST_ON_RESTART, snapshots.verdict(), snapshots.render());
            assertTrue(snapshots.found().startsWith("appendonly no, save '3600 1 300 100' (snapshots only; no snapshot"
                    + " since it started, "), snapshots.found());
            assertTrue(snapshots.broker().startsWith("redis stream 'jobs-stream' on Redis "), snapshots.broker());
            assertTrue(snapshots.loses().contains("since the last snapshot"), snapshots.loses());
        }
    }

    @Test
    void anEvictionPolicyThatMayDeleteAQueueIsALossEvenWithAof() {
        try (RedisServer lru = RedisServer.builder().args("--appendonly", "yes", "--maxmemory", "64mb",
                "--maxmemory-policy", "allkeys-lru").build().start()) {
            Durability d = ask(lru, c -> FallbackListQueue.builder(c, "jobs").build());
            assertEquals(Verdict.LOST_ON_RESTART, d.verdict(), d.render());
            assertTrue(d.found().contains("maxmemory 67108864, maxmemory-policy allkeys-lru"), d.found());
            assertTrue(d.action().contains("maxmemory-policy noeviction"), d.action());
            assertFalse(d.action().contains("appendonly yes"), "AOF is on: " + d.action());
        }
    }

    /** CONFIG renamed away (a common hardening, and managed services' way): INFO persistence answers. */
    @Test
    void withConfigRenamedAwayInfoPersistenceAnswers() {
        try (RedisServer hardened = RedisServer.builder().args("--appendonly", "yes", "--rename-command", "CONFIG", "")
                .build().start();
             RedisServer bare = RedisServer.builder().args("--rename-command", "CONFIG", "").build().start()) {
            Durability kept = askCrashSafe(hardened.uri());
            assertEquals(Verdict.KEPT, kept.verdict(), kept.render());
            assertTrue(kept.found().startsWith("appendonly yes (from INFO persistence: aof_enabled:1; CONFIG GET was"
                    + " refused: "), kept.found());
            assertTrue(kept.found().contains("unknown command"), kept.found());
            Durability lost = askCrashSafe(bare.uri());
            assertEquals(Verdict.LOST_ON_RESTART, lost.verdict(), lost.render());
            assertTrue(lost.found().startsWith("aof_enabled:0 (from INFO persistence; CONFIG GET was refused: "), lost.found());
        }
    }

    /** A worker's ACL user without CONFIG, then without INFO too: the second cannot be judged and says how to check. */
    @Test
    void anAclUserWithoutConfigIsAnsweredByInfoAndOneWithoutEitherIsUnknown() {
        try (RedisServer server = RedisServer.builder().args("--appendonly", "yes").build().start()) {
            server.command("ACL", "SETUSER", "worker", "on", ">worker-pw", "~*", "&*", "+@all", "-config");
            server.command("ACL", "SETUSER", "blind", "on", ">blind-pw", "~*", "&*", "+@all", "-config", "-info");
            String base = "redis://%s@127.0.0.1:" + server.port();
            Durability viaInfo = askCrashSafe(base.formatted("worker:worker-pw"));
            assertEquals(Verdict.KEPT, viaInfo.verdict(), viaInfo.render());
            assertTrue(viaInfo.found().contains("NOPERM"), viaInfo.found());
            Durability unknown = askCrashSafe(base.formatted("blind:blind-pw"));
            assertEquals(Verdict.UNKNOWN, unknown.verdict(), unknown.render());
            assertTrue(unknown.action().contains("+config|get +info"), unknown.action());
            assertFalse(unknown.render().contains("blind-pw"), unknown.render());
            assertEquals(Optional.empty(), refusal(base.formatted("blind:blind-pw")), "unknown is logged, not refused");
        }
    }

    /** Pure reading of what a server said: Valkey names itself, fsync 'always' adds no caveat. */
    @Test
    void valkeyIsNamedAndAlwaysFsyncHasNoCaveat() {
        Map<String, String> server = dev.guard.ready.redis.RedisInfo.fields("# Server\r\nredis_version:7.2.4\r\nserver_name:valkey\r\n"
                + "valkey_version:8.0.1\r\n");
        Durability d = RedisDurability.judge(new RedisDurability.Answers(Map.of("aof_enabled", "1"), null, server,
                Map.of("appendonly", "yes", "appendfsync", "always", "maxmemory", "0", "maxmemory-policy", "allkeys-lru"),
                null), "queue 'q'");
        assertEquals(Verdict.KEPT, d.verdict(), d.render());
        assertEquals("redis queue 'q' on Valkey 8.0.1", d.broker());
        assertEquals("appendonly yes, appendfsync always", d.found());
    }
}
