package dev.guard.schema.spring;

import static dev.guard.schema.spring.SpringWorkerTest.await;
import static dev.guard.schema.spring.SpringWorkerTest.cause;
import static dev.guard.schema.spring.SpringWorkerTest.job;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.guard.queue.redis.CrashSafeListQueue;
import dev.guard.queue.redis.RedisJob;
import dev.guard.schema.SourceInfo;
import dev.guard.schema.boundary.Ledger;
import dev.guard.spring.GuardBrokers;
import dev.guard.spring.GuardStartupException;
import dev.guard.spring.SpringApps;
import dev.guard.testing.KubeApiServer;
import dev.guard.testing.MachineServices;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

/** The pod's deletion cost kept by a Spring Boot worker ({@code guard.deletion-cost}), against the stand-in API server. */
class SpringDeletionCostTest {

    @Configuration(proxyBeanMethods = false)
    static class CostWorker {
        @Bean(destroyMethod = "shutdown")
        RedisClient redisClient(GuardBrokers brokers) {
            return RedisClient.create(brokers.target("redis").orElseThrow());
        }

        @Bean(destroyMethod = "close")
        CrashSafeListQueue jobs(RedisClient redis, Environment env) {
            return CrashSafeListQueue.builder(redis, env.getRequiredProperty("test.queue")).workerId("spring-cost-w1")
                    .pollTimeout(Duration.ofMillis(200)).build();
        }

        @Bean
        GuardWorker<RedisJob> worker(GuardWorkers workers, CrashSafeListQueue jobs, Environment env) {
            String queue = env.getRequiredProperty("test.queue");
            return workers.worker(jobs, RedisJob::payload, job -> SourceInfo.redis(queue, job.id()), (job, drain) -> {
                while (job.string("job_id").startsWith("slow")) { // a long job: works until the drain hands it back
                    drain.checkpoint();
                    Thread.sleep(20);
                }
            });
        }
    }

    /**
     * guard.deletion-cost=on: the first worker's start writes the pod's deletion cost through the
     * (stand-in) API server and a long job marks the pod busy; a service account without patch on
     * pods fails the start with 77, the job untaken.
     */
    @Test
    void thePodsDeletionCostIsKeptWhenAskedForAndItsPermissionProvedAtStart(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
            throws Exception {
        String queue = MachineServices.uniqueName("guard-spring-cost");
        RedisClient client = RedisClient.create(MachineServices.redisUri());
        try (KubeApiServer api = KubeApiServer.start(dir); StatefulRedisConnection<String, String> redis = client.connect()) {
            api.pod("jobs", "spring-worker-0");
            List<String> args = new java.util.ArrayList<>(List.of("--test.queue=" + queue,
                    "--spring.data.redis.url=" + MachineServices.redisUri(), "--guard.brokers=redis",
                    "--guard.boundary.schemas.resize-image=classpath:schemas/resize-image.json",
                    "--guard.boundary.dead-letter-key=" + queue + ":dead", "--guard.boundary.consumer=resizer",
                    "--guard.drain.grace-period=3s", "--guard.drain.safety-margin=1s", "--guard.persistence-check=warn",
                    "--guard.deletion-cost=on", "--guard.deletion-cost-after=100ms"));
            api.env("spring-worker-0").forEach((k, v) -> args.add("--" + k + "=" + v));
            redis.sync().lpush(queue, job("r1", "width\":10"));

            List<String> refused = new java.util.ArrayList<>(args);
            refused.add("--guard.service-account=" + api.serviceAccount("jobs", "plain", false));
            RuntimeException failed = assertThrows(RuntimeException.class, () -> SpringApps.run(Map.of(), "",
                    List.of(CostWorker.class), refused.toArray(String[]::new)).close());
            GuardStartupException why = cause(failed, GuardStartupException.class);
            assertNotNull(why, "no GuardStartupException in " + failed);
            assertEquals(77, why.getExitCode(), why.description());
            assertTrue(why.description().contains("verbs: [\"patch\"]"), why.description());
            assertEquals(List.of(job("r1", "width\":10")), redis.sync().lrange(queue, 0, -1), "the job was not taken");

            args.add("--guard.service-account=" + api.serviceAccount("jobs", "worker", true));
            ConfigurableApplicationContext ctx = SpringApps.run(Map.of(), "", List.of(CostWorker.class), args.toArray(String[]::new));
            try {
                Ledger ledger = ctx.getBean(Ledger.class);
                await(() -> ledger.reconcile().received() == 1 && ledger.reconcile().missing() == 0, "the quick job to end");
                assertEquals(0, api.deletionCost("jobs", "spring-worker-0"), "idle after the quick job");
                assertEquals("0", api.annotations("jobs", "spring-worker-0").get(KubeApiServer.DELETION_COST), "written at start");
                redis.sync().lpush(queue, job("slow-9", "width\":30"));
                await(() -> api.deletionCost("jobs", "spring-worker-0") == 100, "the pod to be marked busy during the long job");
            } finally {
                ctx.close();
            }
        } finally {
            try (StatefulRedisConnection<String, String> redis = client.connect()) {
                redis.sync().del(redis.sync().keys(queue + "*").toArray(String[]::new));
            }
            client.shutdown();
        }
    }
}
