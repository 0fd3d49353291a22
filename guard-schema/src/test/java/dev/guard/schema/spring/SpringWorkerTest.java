package dev.guard.schema.spring;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.guard.drain.ShutdownReceipt;
import dev.guard.queue.redis.CrashSafeListQueue;
import dev.guard.queue.redis.RedisJob;
import dev.guard.schema.boundary.Ledger;
import dev.guard.schema.SourceInfo;
import dev.guard.spring.GuardBrokers;
import dev.guard.spring.GuardStartupException;
import dev.guard.spring.SpringApps;
import dev.guard.testing.MachineServices;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

/**
 * A Spring Boot worker built from guard's beans against the machine's Redis: jobs go through the
 * boundary (a skewed one is dead-lettered in a real Redis list), the ledger endpoint and the
 * meters say what happened, and closing the context drains: the job in hand is handed back to
 * the queue within the grace period, not lost.
 */
class SpringWorkerTest {

    static final Set<String> DONE = ConcurrentHashMap.newKeySet();
    static final SimpleMeterRegistry METERS = new SimpleMeterRegistry();

    @Configuration(proxyBeanMethods = false)
    static class Worker {
        @Bean(destroyMethod = "") // shared with the test, which reads it after the context closed
        MeterRegistry meterRegistry() {
            return METERS;
        }

        @Bean(destroyMethod = "shutdown")
        RedisClient redisClient(GuardBrokers brokers) {
            return RedisClient.create(brokers.target("redis").orElseThrow());
        }

        @Bean(destroyMethod = "close")
        CrashSafeListQueue jobs(RedisClient redis, Environment env) {
            return CrashSafeListQueue.builder(redis, env.getRequiredProperty("test.queue")).workerId("spring-w1")
                    .pollTimeout(Duration.ofMillis(200)).build();
        }

        @Bean
        GuardWorker<RedisJob> worker(GuardWorkers workers, CrashSafeListQueue jobs, Environment env) {
            String queue = env.getRequiredProperty("test.queue");
            return workers.worker(jobs, RedisJob::payload, job -> SourceInfo.redis(queue, job.id()), (job, drain) -> {
                String id = job.string("job_id");
                while (id.startsWith("slow")) { // a long job: works until the drain's deadline hands it back
                    drain.checkpoint();
                    Thread.sleep(20);
                }
                DONE.add(id);
            });
        }
    }

    @Test
    void jobsGoThroughTheBoundaryAndTheJobInHandIsHandedBackOnClose() throws Exception {
        String queue = MachineServices.uniqueName("guard-spring-jobs");
        RedisClient client = RedisClient.create(MachineServices.redisUri());
        try (StatefulRedisConnection<String, String> redis = client.connect()) {
            redis.sync().lpush(queue, job("a1", "width\":10"), job("a2", "width\":20"),
                    "{\"id\":\"b1\",\"image_url\":\"s3://x\",\"width\":5}");
            ConfigurableApplicationContext ctx = SpringApps.run(Map.of(), "", List.of(Worker.class), "--test.queue=" + queue,
                    "--spring.data.redis.url=" + MachineServices.redisUri(), "--guard.brokers=redis",
                    "--guard.boundary.schemas.resize-image=classpath:schemas/resize-image.json",
                    "--guard.boundary.dead-letter-key=" + queue + ":dead", "--guard.boundary.consumer=resizer",
                    "--guard.drain.grace-period=4s", "--guard.drain.safety-margin=1s",
                    "--guard.persistence-check=warn"); // the machine's Redis keeps nothing on disk
            Ledger ledger = ctx.getBean(Ledger.class);
            GuardWorker<?> worker = ctx.getBean(GuardWorker.class);
            try {
                await(() -> ledger.reconcile().received() == 3 && ledger.reconcile().missing() == 0, "the three jobs to end");
                assertEquals(Set.of("a1", "a2"), DONE);
                assertEquals(1L, redis.sync().llen(queue + ":dead"));
                assertTrue(redis.sync().lindex(queue + ":dead", 0).contains("job_id"), "the dead letter says what was wrong");
                Map<String, Object> endpoint = ctx.getBean(LedgerEndpoint.class).ledger();
                assertEquals(3L, endpoint.get("received"));
                assertEquals(2L, endpoint.get("processed"));
                assertEquals(1L, endpoint.get("rejected"));
                assertEquals(0L, endpoint.get("missing"));
                assertEquals(1.0, METERS.get("guard.jobs.outcome").tag("outcome", "rejected").counter().count());
                assertEquals(1.0, METERS.get("guard.deadletter.writes").tag("sink", queue + ":dead").tag("outcome", "rejected")
                        .counter().count());

                redis.sync().lpush(queue, job("slow-1", "width\":30"));
                await(() -> ledger.isPending("slow-1"), "the slow job to be taken");
            } finally {
                long closing = System.nanoTime();
                ctx.close();
                Duration took = Duration.ofNanos(System.nanoTime() - closing);
                assertTrue(took.compareTo(Duration.ofSeconds(10)) < 0, "closing took " + took);
            }
            ShutdownReceipt receipt = worker.receipt();
            assertNotNull(receipt, "the worker logged no receipt");
            assertEquals(1, receipt.handedBack(), receipt.toLine());
            assertTrue(receipt.clean(), receipt.toLine());
            assertEquals(1L, ledger.reconcile().handedBack());
            assertEquals(0L, ledger.reconcile().missing());
            assertEquals(List.of(job("slow-1", "width\":30")), redis.sync().lrange(queue, 0, -1), "the job is back on the queue");
            assertEquals(1.0, METERS.get("guard.drain.jobs").tag("outcome", "handed_back").functionCounter().count());
        } finally {
            try (StatefulRedisConnection<String, String> redis = client.connect()) {
                redis.sync().del(redis.sync().keys(queue + "*").toArray(String[]::new));
            }
            client.shutdown();
        }
    }

    /**
     * Without the setting, the machine's Redis (nothing on disk) stops the application before its
     * worker takes a job: Spring Boot's failure report says what Redis keeps and what to set.
     */
    @Test
    void aRedisThatKeepsNothingOnDiskStopsTheApplicationBeforeTheFirstJob() {
        GuardStartupException why = refusedBeforeTheFirstJob("guard-spring-volatile");
        assertTrue(why.description().contains("found: appendonly no, save ''"), why.description());
        assertTrue(why.action().contains("guard.persistence-check=warn"), why.action());
    }

    /**
     * A longest job past the drain's time after SIGTERM stops the application before its worker
     * takes a job: the failure report carries the timeout budget's table and the grace period to set.
     */
    @Test
    void aLongestJobPastTheGracePeriodStopsTheApplicationBeforeTheFirstJob() {
        GuardStartupException why = refusedBeforeTheFirstJob("guard-spring-budget", "--guard.persistence-check=warn",
                "--guard.drain.grace-period=30s", "--guard.drain.safety-margin=5s", "--guard.longest-job=2m");
        assertTrue(why.description().contains("the longest job (2 min, guard.longest-job) outlasts the drain's time after"
                + " SIGTERM (25 s: grace period 30 s (guard.drain.grace-period) - safety margin 5 s)"), why.description());
        assertTrue(why.description().contains("lease"), "the source's clocks are in the table: " + why.description());
        assertTrue(why.action().contains("guard.timeout-check=warn"), why.action());
    }

    /** Starts the worker with {@code extra} settings on a queue holding one job; asserts the start fails with 78, the job untaken. */
    private static GuardStartupException refusedBeforeTheFirstJob(String name, String... extra) {
        String queue = MachineServices.uniqueName(name);
        RedisClient client = RedisClient.create(MachineServices.redisUri());
        try (StatefulRedisConnection<String, String> redis = client.connect()) {
            redis.sync().lpush(queue, job("r1", "width\":10"));
            List<String> args = new java.util.ArrayList<>(List.of("--test.queue=" + queue, "--spring.data.redis.url="
                    + MachineServices.redisUri(), "--guard.brokers=redis",
                    "--guard.boundary.schemas.resize-image=classpath:schemas/resize-image.json",
                    "--guard.boundary.dead-letter-key=" + queue + ":dead", "--guard.boundary.consumer=resizer"));
            args.addAll(List.of(extra));
            RuntimeException failed = assertThrows(RuntimeException.class, () -> SpringApps.run(Map.of(), "",
                    List.of(Worker.class), args.toArray(String[]::new)).close());
            GuardStartupException why = cause(failed, GuardStartupException.class);
            assertNotNull(why, "no GuardStartupException in " + failed);
            assertEquals(78, why.getExitCode());
            assertEquals(List.of(job("r1", "width\":10")), redis.sync().lrange(queue, 0, -1), "the job was not taken");
            return why;
        } finally {
            try (StatefulRedisConnection<String, String> redis = client.connect()) {
                redis.sync().del(queue);
            }
            client.shutdown();
        }
    }

    static <T extends Throwable> T cause(Throwable t, Class<T> type) {
        for (Throwable c = t; c != null; c = c.getCause()) {
            if (type.isInstance(c)) {
                return type.cast(c);
            }
        }
        return null;
    }

    static String job(String id, String width) {
        return "{\"job_id\":\"" + id + "\",\"image_url\":\"s3://img/" + id + "\",\"" + width + "}";
    }

    static void await(BooleanSupplier condition, String what) throws InterruptedException {
        long until = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > until) {
                throw new AssertionError("waited 60 s for " + what);
            }
            Thread.sleep(20);
        }
    }
}
