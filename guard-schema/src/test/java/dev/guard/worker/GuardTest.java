package dev.guard.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.guard.ExitCodes;
import dev.guard.config.SettingType;
import dev.guard.drain.DrainConfig;
import dev.guard.drain.kubernetes.DeletionCost;
import dev.guard.queue.redis.CrashSafeListQueue;
import dev.guard.queue.redis.FallbackListQueue;
import dev.guard.queue.redis.RedisCompletions;
import dev.guard.queue.redis.RedisJob;
import dev.guard.schema.Outcome;
import dev.guard.schema.SourceInfo;
import dev.guard.schema.deadletter.DeadLetterException;
import dev.guard.schema.deadletter.DeadLetterSink;
import dev.guard.schema.deadletter.redis.RedisListDeadLetters;
import dev.guard.testing.FreePorts;
import dev.guard.testing.KubeApiServer;
import dev.guard.testing.MachineServices;
import dev.guard.testing.RedisServer;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.sync.RedisCommands;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link Guard} in-process: each boot stage stops with its exit code and a message that says what
 * to do, and {@link Guard#run} on the machine's Redis gives every job one outcome. The signals
 * and the PID-1 trap with real processes: {@link GuardProcessTest}.
 */
class GuardTest {

    static final String SCHEMA = "{\"$schema\":\"http://json-schema.org/draft-07/schema#\",\"type\":\"object\","
            + "\"required\":[\"job_id\",\"width\"],\"properties\":{\"job_id\":{\"type\":\"string\"},"
            + "\"width\":{\"type\":\"integer\",\"minimum\":1}}}";
    static final String EXAMPLE = "{\"job_id\":\"example\",\"width\":320}";
    static final String REDIS = MachineServices.redisUri();

    @TempDir
    Path dir;

    private final List<AutoCloseable> closing = new ArrayList<>();

    @AfterEach
    void close() throws Exception {
        for (int i = closing.size() - 1; i >= 0; i--) {
            closing.get(i).close();
        }
    }

    static GuardSpec.Builder spec(Map<String, String> env) {
        return GuardSpec.builder("test-worker").environment(env)
                .schemas("thumbnail", b -> b.fromJson("thumbnail", SCHEMA).example("thumbnail", EXAMPLE))
                .installSignalHandlers(false)
                .drain(DrainConfig.builder().gracePeriod(Duration.ofSeconds(2)).safetyMargin(Duration.ofMillis(500)).build());
    }

    @Test
    void aMissingVariableStopsBeforeAnyConnection() {
        GuardStopped e = assertThrows(GuardStopped.class,
                () -> Guard.start(spec(Map.of("CACHE_URL", "redis://cache:6379")).require("REDIS_URL").build()));
        assertEquals(ExitCodes.CONFIG, e.exitCode());
        assertEquals("config", e.stage());
        assertTrue(e.getMessage().contains("REDIS_URL"), e.getMessage());
        assertTrue(e.getMessage().contains("CACHE_URL"), "the drifted name is named: " + e.getMessage());
    }

    @Test
    void loopbackWhereNothingAnswersIsRefusedNamingTheAllowanceAndPasswordsAreMasked() throws Exception {
        int closed;
        try (java.net.ServerSocket s = new java.net.ServerSocket(0)) {
            closed = s.getLocalPort();
        }
        Map<String, String> env = Map.of("REDIS_URL", "redis://:s3cret-pass@localhost:" + closed);
        GuardStopped e = assertThrows(GuardStopped.class,
                () -> Guard.start(spec(env).require("REDIS_URL", SettingType.URL).build()));
        assertEquals(ExitCodes.CONFIG, e.exitCode());
        assertTrue(e.getMessage().contains("and nothing answers there"), e.getMessage());
        assertTrue(e.getMessage().contains("allow loopback for it: GUARD_ALLOW_LOOPBACK=REDIS_URL in the environment (or"
                + " guard.allow-loopback = [REDIS_URL] in the GUARD_CONFIG file, or GuardSpec.builder(...).allowLoopback(\"REDIS_URL\")"),
                e.getMessage());
        assertFalse(e.getMessage().contains("s3cret-pass"), e.getMessage());

        Map<String, String> allowed = Map.of("REDIS_URL", "redis://:s3cret-pass@localhost:" + closed,
                "GUARD_ALLOW_LOOPBACK", "REDIS_URL");
        GuardStopped waited = assertThrows(GuardStopped.class, () -> Guard.start(spec(allowed).require("REDIS_URL", SettingType.URL)
                .waitForEnv("REDIS_URL").readyDeadline(java.time.Duration.ofSeconds(1)).build()));
        assertEquals("readiness", waited.stage(), "allowed for REDIS_URL: past the config check, the wait decides; " + waited.getMessage());
    }

    @Test
    void theSettingsFileOfTheInitContainerAddsRequirementsWithTheirOrigin() throws Exception {
        Path conf = dir.resolve("guard.conf");
        Files.writeString(conf, "guard {\n  require = [\"REDIS_URL:url\", \"WORKERS:integer\"]\n}\n");
        Map<String, String> env = Map.of("GUARD_CONFIG", conf.toString(), "REDIS_URL", REDIS, "GUARD_ALLOW_LOOPBACK", "true");
        GuardStopped e = assertThrows(GuardStopped.class, () -> Guard.start(spec(env).build()));
        assertEquals(ExitCodes.CONFIG, e.exitCode());
        assertTrue(e.getMessage().contains("'WORKERS:integer' (from guard.require in " + conf + ":2) has an unknown type"),
                e.getMessage());
    }

    @Test
    void aSchemaWhoseExampleFailsStopsTheBoot() {
        GuardSpec spec = spec(Map.of()).schemas("thumbnail", b -> b.fromJson("thumbnail", SCHEMA)
                .example("thumbnail", "{\"id\":\"renamed\",\"width\":320}")).build();
        GuardStopped e = assertThrows(GuardStopped.class, () -> Guard.start(spec));
        assertEquals("schemas", e.stage());
        assertEquals(ExitCodes.CONFIG, e.exitCode());
        assertTrue(e.getMessage().contains("job_id"), e.getMessage());
    }

    @Test
    void aBadSignalCheckValueIsAConfigError() {
        GuardStopped e = assertThrows(GuardStopped.class,
                () -> Guard.start(spec(Map.of("GUARD_SIGNAL_CHECK", "loud")).build()));
        assertEquals(ExitCodes.CONFIG, e.exitCode());
        assertTrue(e.getMessage().contains("GUARD_SIGNAL_CHECK='loud' (from env GUARD_SIGNAL_CHECK)"), e.getMessage());
    }

    @Test
    void aDependencyThatRefusesStopsWith69AtTheDeadline() {
        int port = FreePorts.next();
        Map<String, String> env = Map.of("REDIS_URL", "redis://127.0.0.1:" + port, "GUARD_ALLOW_LOOPBACK", "true",
                "GUARD_TIMEOUT", "1500ms");
        long t0 = System.nanoTime();
        GuardStopped e = assertThrows(GuardStopped.class, () -> Guard.start(spec(env).waitForEnv("REDIS_URL").build()));
        assertEquals(ExitCodes.UNAVAILABLE, e.exitCode());
        assertEquals("readiness", e.stage());
        assertTrue(e.getMessage().contains("127.0.0.1:" + port), e.getMessage());
        assertTrue(System.nanoTime() - t0 < Duration.ofSeconds(30).toNanos(), "bounded by the 1.5 s deadline");
    }

    @Test
    void aWrongPasswordStopsAtOnceWith77() {
        Map<String, String> env = Map.of("REDIS_URL", REDIS.replace("redis://", "redis://nobody:wrong@"),
                "GUARD_ALLOW_LOOPBACK", "true");
        GuardStopped e = assertThrows(GuardStopped.class, () -> Guard.start(spec(env).waitForEnv("REDIS_URL").build()));
        assertEquals(ExitCodes.NO_PERMISSION, e.exitCode(), e.getMessage());
        assertFalse(e.getMessage().contains("wrong@"), e.getMessage());
    }

    /** A booted guard on the machine's Redis: one valid, one skewed, one whose work passes the deadline. */
    @Test
    void aSentinelUrlInTheEnvironmentIsWaitedForWithTheKeyBeforeItsMasterName() {
        try (dev.guard.testing.RedisSentinelSet set = dev.guard.testing.RedisSentinelSet.builder().build().start()) {
            Map<String, String> env = Map.of("REDIS_URL", set.uri(), "GUARD_ALLOW_LOOPBACK", "true");
            GuardStopped e = assertThrows(GuardStopped.class, () -> Guard.start(spec(env).waitForEnv("REDIS_URL", "?key=stack:ready")
                    .readyDeadline(Duration.ofSeconds(10)).build()));
            assertEquals(ExitCodes.UNAVAILABLE, e.exitCode(), e.getMessage());
            assertTrue(e.getMessage().contains("has no key 'stack:ready' yet"), e.getMessage());
            assertEquals("+OK", set.master().command("SET", "stack:ready", "1"));
            Guard guard = Guard.start(spec(env).waitForEnv("REDIS_URL", "?key=stack:ready").build());
            assertEquals("redis-sentinel", guard.readiness().results().get(0).kind());
            assertTrue(guard.readiness().results().get(0).nodes().size() == 4, guard.readiness().render());
        }
        assertEquals("redis-sentinel://a:1,b:2?key=k#m", Guard.withSuffix("redis-sentinel://a:1,b:2#m", "?key=k"));
        assertEquals("redis://r:6379?cluster=true&key=k", Guard.withSuffix("redis://r:6379?cluster=true", "?key=k"));
        assertEquals("redis://r:6379?key=k", Guard.withSuffix("redis://r:6379", "?key=k"));
    }

    /** On a Redis with an append-only file, which the durability check accepts before the first job. */
    @Test
    void runGivesEveryJobOneOutcomeAndHandsBackAtTheDeadline() throws Exception {
        String queue = MachineServices.uniqueName("guard-run");
        RedisServer aof = RedisServer.builder().args("--appendonly", "yes").build().start();
        closing.add(aof);
        String redisUrl = aof.uri();
        Map<String, String> env = Map.of("REDIS_URL", redisUrl, "GUARD_ALLOW_LOOPBACK", "true");
        Guard guard = Guard.start(spec(env).waitForEnv("REDIS_URL").build());
        assertEquals(1, guard.readiness().results().size());
        RedisClient client = RedisClient.create(guard.env("REDIS_URL"));
        closing.add(client::shutdown);
        RedisCommands<String, String> redis = client.connect().sync();
        redis.lpush(queue, "{\"job_id\":\"ok-1\",\"width\":10}");
        redis.lpush(queue, "{\"id\":\"skewed-2\",\"width\":10}");
        redis.lpush(queue, "{\"job_id\":\"slow-3\",\"width\":10}");
        AtomicInteger worked = new AtomicInteger();
        int exit;
        try (CrashSafeListQueue jobs = CrashSafeListQueue.builder(client, queue).pollTimeout(Duration.ofMillis(200)).build();
             RedisListDeadLetters dead = RedisListDeadLetters.connect(redisUrl, queue + ":dead")) {
            exit = guard.run(jobs, RedisJob::payload, j -> SourceInfo.redis(queue, null), dead, (job, drain) -> {
                if (job.string("job_id").startsWith("slow")) {
                    drain.requestStop("test: stop during the slow job");
                    while (true) {
                        drain.checkpoint(); // throws HandBack once the 1.5 s budget is spent
                        Thread.sleep(20);
                    }
                }
                worked.incrementAndGet();
            });
        }
        assertEquals(ExitCodes.OK, exit);
        assertEquals(1, worked.get());
        assertEquals(Outcome.PROCESSED, guard.ledger().outcomeOf("ok-1").orElseThrow());
        assertEquals(Outcome.REJECTED, guard.ledger().outcomeOf("skewed-2").orElseThrow());
        assertEquals(Outcome.HANDED_BACK, guard.ledger().outcomeOf("slow-3").orElseThrow());
        assertEquals(0L, guard.ledger().reconcile().missing(), guard.ledger().summaryLine());
        assertEquals(List.of("{\"job_id\":\"slow-3\",\"width\":10}"), redis.lrange(queue, 0, -1), "handed back to the queue");
        assertEquals(1, redis.llen(queue + ":dead"), "the skewed one is dead-lettered");
        redis.del(queue, queue + ":dead", queue + ":interruptions");
    }

    /**
     * Idempotent completion on a Redis with an append-only file: a job queued twice runs once and
     * its result is written once; a job without an id is dead-lettered, not run unrecorded; a
     * completion store that keeps nothing on disk (the machine's Redis) stops the run.
     */
    @Test
    void runWithCompletionsRunsAJobQueuedTwiceOnceAndRefusesAStoreThatForgets() throws Exception {
        String queue = MachineServices.uniqueName("guard-once");
        RedisServer aof = RedisServer.builder().args("--appendonly", "yes").build().start();
        closing.add(aof);
        // a schema that lets a payload without job_id through: the completion rule must stop it
        Guard guard = Guard.start(spec(Map.of()).schemas("thumbnail", b -> b.fromJson("thumbnail",
                "{\"type\":\"object\",\"required\":[\"width\"]}").example("thumbnail", EXAMPLE)).build());
        RedisClient client = RedisClient.create(aof.uri());
        closing.add(client::shutdown);
        RedisCommands<String, String> redis = client.connect().sync();
        redis.lpush(queue, "{\"job_id\":\"twice-1\",\"width\":10}", "{\"job_id\":\"twice-1\",\"width\":10}",
                "{\"width\":12}", "{\"job_id\":\"last-2\",\"width\":10}");
        AtomicInteger worked = new AtomicInteger();
        int exit;
        try (CrashSafeListQueue jobs = CrashSafeListQueue.builder(client, queue).pollTimeout(Duration.ofMillis(200)).build();
             RedisListDeadLetters dead = RedisListDeadLetters.connect(aof.uri(), queue + ":dead");
             RedisCompletions done = RedisCompletions.builder(client, queue + ":done").build()) {
            exit = guard.run(jobs, RedisJob::payload, dead, done, (job, drain, writes) -> {
                worked.incrementAndGet();
                writes.hincrby(queue + ":results", String.valueOf(job.object().get("job_id")), 1);
                if ("last-2".equals(job.object().get("job_id"))) {
                    drain.requestStop("test: all taken");
                }
            });
        }
        assertEquals(ExitCodes.OK, exit);
        assertEquals(2, worked.get(), guard.ledger().summaryLine());
        assertEquals(Map.of("twice-1", "1", "last-2", "1"), redis.hgetall(queue + ":results"));
        assertEquals("received=4 processed=2 rejected=0 failed=1 handed_back=0 duplicate=1 missing=0",
                guard.ledger().summaryLine());
        assertTrue(redis.lindex(queue + ":dead", 0).contains("so its completion cannot be recorded"),
                redis.lindex(queue + ":dead", 0));

        RedisClient volatileRedis = RedisClient.create(REDIS);
        closing.add(volatileRedis::shutdown);
        Guard second = Guard.start(spec(Map.of()).build());
        try (CrashSafeListQueue jobs = CrashSafeListQueue.builder(client, queue).pollTimeout(Duration.ofMillis(200)).build();
             RedisCompletions forgets = RedisCompletions.builder(volatileRedis, queue + ":done").build()) {
            exit = second.run(jobs, RedisJob::payload, letter -> { }, forgets, (job, drain, writes) -> worked.incrementAndGet());
        }
        assertEquals(ExitCodes.CONFIG, exit);
        assertEquals(2, worked.get());
    }

    /** The dead-letter sink is down: the job is not dropped and not failed, it goes back to the queue. */
    @Test
    void aDeadLetterThatCannotBeWrittenHandsTheJobBack() throws Exception {
        String queue = MachineServices.uniqueName("guard-dlq-down");
        // the machine's Redis keeps nothing on disk: allowed here, as a user would, by the setting
        Guard guard = Guard.start(spec(Map.of("GUARD_PERSISTENCE_CHECK", "warn")).build());
        RedisClient client = RedisClient.create(REDIS);
        closing.add(client::shutdown);
        RedisCommands<String, String> redis = client.connect().sync();
        redis.lpush(queue, "{\"id\":\"skewed-1\"}");
        DeadLetterSink down = letter -> {
            guard.drain().requestStop("test: after the first attempt");
            throw new DeadLetterException("dead-letter store unreachable (test)", null);
        };
        int exit;
        try (CrashSafeListQueue jobs = CrashSafeListQueue.builder(client, queue).pollTimeout(Duration.ofMillis(200)).build()) {
            exit = guard.run(jobs, RedisJob::payload, down, (job, drain) -> { });
        }
        assertEquals(ExitCodes.OK, exit);
        assertEquals(Outcome.HANDED_BACK, guard.ledger().outcomeOf("skewed-1").orElseThrow(), guard.ledger().summaryLine());
        assertEquals(List.of("{\"id\":\"skewed-1\"}"), redis.lrange(queue, 0, -1));
        redis.del(queue, queue + ":interruptions");
    }

    /**
     * The dead-letter store (a Redis of its own here) is SIGKILLed and comes back 2 s later while a
     * skewed job waits for its letter: the job stays in hand, unacked, its letter is written once
     * the store answers, and the queue counts no interruption. Before, the job was handed back at
     * once, came straight back, and after three hand-backs within a second the queue parked it in
     * its own list ({@code <queue>:dead} of the queue's Redis), where the team's dead-letter
     * reading never looks: the Compose stack's Redis kill run lost a skewed job that way.
     */
    @Test
    void aDeadLetterStoreThatIsDownForSecondsKeepsTheJobInHandUntilItIsBack() throws Exception {
        String queue = MachineServices.uniqueName("guard-dlq-outage");
        Guard guard = Guard.start(spec(Map.of("GUARD_PERSISTENCE_CHECK", "warn")).build());
        RedisServer store = RedisServer.builder().build().start();
        closing.add(store);
        RedisClient client = RedisClient.create(REDIS);
        closing.add(client::shutdown);
        RedisCommands<String, String> redis = client.connect().sync();
        String skewed = "{\"id\":\"skewed-outage\",\"width\":10}";
        int[] exit = {-1};
        try (CrashSafeListQueue jobs = CrashSafeListQueue.builder(client, queue).pollTimeout(Duration.ofMillis(200)).build();
             RedisListDeadLetters dead = RedisListDeadLetters.connect(store.uri(), queue + ":letters")) {
            store.kill();
            redis.lpush(queue, skewed);
            Thread loop = new Thread(() -> exit[0] = guard.run(jobs, RedisJob::payload, dead, (job, drain) -> { }));
            loop.start();
            long until = System.nanoTime() + Duration.ofSeconds(20).toNanos();
            while (!guard.ledger().isPending("skewed-outage") && System.nanoTime() < until) {
                Thread.sleep(20);
            }
            assertTrue(guard.ledger().isPending("skewed-outage"), guard.ledger().summaryLine());
            Thread.sleep(2000);
            assertTrue(guard.ledger().isPending("skewed-outage"), "still in hand while the store is down: "
                    + guard.ledger().summaryLine());
            store.start();
            until = System.nanoTime() + Duration.ofSeconds(40).toNanos();
            while (guard.ledger().outcomeOf("skewed-outage").isEmpty() && System.nanoTime() < until) {
                Thread.sleep(50);
            }
            guard.drain().requestStop("test: done");
            loop.join(10_000);
        }
        assertEquals(ExitCodes.OK, exit[0]);
        assertEquals(Outcome.REJECTED, guard.ledger().outcomeOf("skewed-outage").orElseThrow(), guard.ledger().summaryLine());
        assertTrue(store.command("LRANGE", queue + ":letters", "0", "-1").contains("skewed-outage"), "the letter is in the store");
        assertEquals(0L, redis.llen(queue + ":dead"), "not parked by the queue");
        assertEquals(null, redis.hget(queue + ":interruptions", skewed), "no interruption counted");
        assertEquals(0L, redis.llen(queue), "acked, not handed back");
        redis.del(queue, queue + ":dead", queue + ":interruptions");
    }

    /**
     * This machine's Redis keeps nothing on disk: a crash-safe queue on it would lose every job on
     * a restart of Redis, so run stops with 78 before taking one; a bad setting is a config error.
     */
    @Test
    void aRedisThatKeepsNothingOnDiskStopsTheRunBeforeTheFirstJob() {
        String queue = MachineServices.uniqueName("guard-volatile");
        Guard guard = Guard.start(spec(Map.of()).build());
        RedisClient client = RedisClient.create(REDIS);
        closing.add(client::shutdown);
        RedisCommands<String, String> redis = client.connect().sync();
        redis.lpush(queue, "{\"job_id\":\"kept-1\",\"width\":10}");
        AtomicInteger worked = new AtomicInteger();
        int exit;
        try (CrashSafeListQueue jobs = CrashSafeListQueue.builder(client, queue).pollTimeout(Duration.ofMillis(200)).build()) {
            exit = guard.run(jobs, RedisJob::payload, letter -> { }, (job, drain) -> worked.incrementAndGet());
        }
        assertEquals(ExitCodes.CONFIG, exit);
        assertEquals(0, worked.get());
        assertEquals(0L, guard.ledger().reconcile().received(), guard.ledger().summaryLine());
        assertEquals(List.of("{\"job_id\":\"kept-1\",\"width\":10}"), redis.lrange(queue, 0, -1), "the job was not taken");
        redis.del(queue);

        GuardStopped bad = assertThrows(GuardStopped.class,
                () -> Guard.start(spec(Map.of("GUARD_PERSISTENCE_CHECK", "maybe")).build()));
        assertEquals(ExitCodes.CONFIG, bad.exitCode());
        assertTrue(bad.getMessage().contains("GUARD_PERSISTENCE_CHECK='maybe' (from env GUARD_PERSISTENCE_CHECK)"), bad.getMessage());
    }

    @Test
    void aSpecWithoutSchemaIsRefusedWhenBuilt() {
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> GuardSpec.builder("w").environment(new HashMap<>()).build());
        assertTrue(e.getMessage().contains("schema(jobType"), e.getMessage());
    }

    /**
     * A worker whose longest job outlasts a clock of its real NATS consumer: the consumer, made
     * elsewhere, expires after 8 s without a pull or an ack, and the source's in-progress acks come
     * every 10 s (AckWait 30 s / 3), so JetStream would delete it under every 25 s job (the deletion
     * itself is shown in NatsQueueTest). Refused with 78 before the first job, which stays in the
     * stream; with a longest job of 5 s the same consumer runs.
     */
    @Test
    void aNatsConsumerThatALongJobOutlastsIsRefusedBeforeTheFirstJob() throws Exception {
        String stream = MachineServices.uniqueName("guard_budget").replace('-', '_');
        String subject = stream + ".jobs";
        io.nats.client.Connection nats = io.nats.client.Nats.connect(MachineServices.natsUrl());
        closing.add(nats::close);
        io.nats.client.JetStreamManagement jsm = nats.jetStreamManagement();
        jsm.addStream(io.nats.client.api.StreamConfiguration.builder().name(stream).subjects(subject, subject + ".dead").build());
        closing.add(() -> jsm.deleteStream(stream));
        jsm.addOrUpdateConsumer(stream, io.nats.client.api.ConsumerConfiguration.builder().durable("workers")
                .filterSubject(subject).ackPolicy(io.nats.client.api.AckPolicy.Explicit).ackWait(Duration.ofSeconds(30))
                .maxDeliver(-1).inactiveThreshold(Duration.ofSeconds(8)).build());
        nats.jetStream().publish(subject, "{\"job_id\":\"n-1\",\"width\":10}".getBytes(java.nio.charset.StandardCharsets.UTF_8));

        Guard guard = Guard.start(spec(Map.of("GUARD_LONGEST_JOB", "25s")).drain(DrainConfig.builder()
                .gracePeriod(Duration.ofSeconds(40)).build()).build());
        AtomicInteger worked = new AtomicInteger();
        int exit;
        try (dev.guard.queue.nats.NatsQueue jobs = dev.guard.queue.nats.NatsQueue.builder(nats, stream, subject, "workers")
                .pollTimeout(Duration.ofMillis(200)).build()) {
            exit = guard.run(jobs, dev.guard.queue.nats.NatsJob::payload, letter -> { }, (job, drain) -> worked.incrementAndGet());
        }
        assertEquals(ExitCodes.CONFIG, exit);
        assertEquals(0, worked.get());
        io.nats.client.api.ConsumerInfo info = jsm.getConsumerInfo(stream, "workers");
        assertEquals(1, info.getNumPending() + info.getNumAckPending(), "the job is still in the stream");

        // the same consumer, the longest job within its threshold: the run starts
        Guard within = Guard.start(spec(Map.of("GUARD_LONGEST_JOB", "5s")).drain(DrainConfig.builder()
                .gracePeriod(Duration.ofSeconds(40)).build()).build());
        try (dev.guard.queue.nats.NatsQueue jobs = dev.guard.queue.nats.NatsQueue.builder(nats, stream, subject, "workers")
                .pollTimeout(Duration.ofMillis(200)).build()) {
            exit = within.run(jobs, dev.guard.queue.nats.NatsJob::payload, letter -> { }, (job, drain) -> {
                worked.incrementAndGet();
                drain.requestStop("test");
            });
        }
        assertEquals(ExitCodes.OK, exit);
        assertEquals(1, worked.get());
    }
    /**
     * GUARD_DELETION_COST=on: the boot writes the pod's deletion cost through the (stand-in) API
     * server, a long job marks the pod busy while it runs; a service account without patch on
     * pods stops the boot with 77 and the Role it needs; outside a pod, 78.
     */
    @Test
    void theDeletionCostIsKeptWhenTurnedOnAndItsPermissionProvedAtBoot() throws Exception {
        KubeApiServer api = KubeApiServer.start(dir.resolve("api"));
        closing.add(api);
        api.pod("jobs", "worker-7");
        Map<String, String> env = new HashMap<>(api.env("worker-7"));
        env.put("REDIS_URL", REDIS);
        env.put("GUARD_ALLOW_LOOPBACK", "true");
        env.put("GUARD_PERSISTENCE_CHECK", "off");
        env.put(DeletionCost.ENV, "on");
        env.put(DeletionCost.ENV_AFTER, "200ms");

        GuardStopped refused = assertThrows(GuardStopped.class, () -> Guard.start(spec(env)
                .serviceAccount(api.serviceAccount("jobs", "no-role", false)).build()));
        assertEquals(ExitCodes.NO_PERMISSION, refused.exitCode(), refused.getMessage());
        assertTrue(refused.getMessage().contains("verbs: [\"patch\"]"), refused.getMessage());

        Map<String, String> outside = new HashMap<>(env);
        outside.remove("KUBERNETES_SERVICE_HOST");
        GuardStopped notInPod = assertThrows(GuardStopped.class, () -> Guard.start(spec(outside).build()));
        assertEquals(ExitCodes.CONFIG, notInPod.exitCode());
        assertTrue(notInPod.getMessage().contains("GUARD_DELETION_COST=off"), notInPod.getMessage());

        Guard guard = Guard.start(spec(env).serviceAccount(api.serviceAccount("jobs", "worker", true)).build());
        assertEquals("0", api.annotations("jobs", "worker-7").get(DeletionCost.ANNOTATION), "written at boot");
        String queue = MachineServices.uniqueName("guard-cost");
        RedisClient client = RedisClient.create(REDIS);
        closing.add(client::shutdown);
        RedisCommands<String, String> redis = client.connect().sync();
        redis.lpush(queue, "{\"job_id\":\"long-1\",\"width\":10}");
        List<Integer> seen = new ArrayList<>();
        int exit;
        try (FallbackListQueue jobs = FallbackListQueue.builder(client, queue).pollTimeout(Duration.ofMillis(200)).build();
             RedisListDeadLetters dead = RedisListDeadLetters.connect(REDIS, queue + ":dead")) {
            exit = guard.run(jobs, RedisJob::payload, j -> SourceInfo.redis(queue, null), dead, (job, drain) -> {
                Thread.sleep(600);
                seen.add(api.deletionCost("jobs", "worker-7"));
                drain.requestStop("test: one job");
            });
        } finally {
            redis.del(queue, queue + ":dead", queue + ":fallback");
        }
        assertEquals(ExitCodes.OK, exit);
        assertEquals(List.of(DeletionCost.BUSY), seen, "busy while the job ran past 200 ms");
    }
}
