package dev.guard.schema.spring;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.guard.queue.redis.CrashSafeListQueue;
import dev.guard.queue.redis.RedisJob;
import dev.guard.schema.boundary.Ledger;
import dev.guard.schema.SourceInfo;
import dev.guard.schema.deadletter.DeadLetterSink;
import dev.guard.spring.GuardBrokers;
import dev.guard.spring.SpringApps;
import dev.guard.testing.MachineServices;
import dev.guard.testing.RedisServer;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import io.lettuce.core.RedisClient;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.InitializingBean;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

/**
 * A Spring Boot worker whose Redis is not up when the application starts. Spring makes every
 * bean before guard's gate opens (the gate is a lifecycle phase), so a bean that connected when
 * made would fail the start; guard's queues and its dead-letter sink connect at their first use.
 */
class SpringWorkerBeforeRedisTest {

    static final Set<String> DONE = ConcurrentHashMap.newKeySet();
    /** Counted down once the worker's beans exist: its queue, the boundary, guard's dead-letter sink. */
    static final CountDownLatch BEANS_MADE = new CountDownLatch(1);

    @Configuration(proxyBeanMethods = false)
    static class LateWorker {
        @Bean(destroyMethod = "shutdown")
        RedisClient redisClient(GuardBrokers brokers) {
            return RedisClient.create(brokers.target("redis").orElseThrow());
        }

        @Bean(destroyMethod = "close")
        CrashSafeListQueue jobs(RedisClient redis, Environment env) {
            return CrashSafeListQueue.builder(redis, env.getRequiredProperty("test.queue")).pollTimeout(Duration.ofMillis(200))
                    .build();
        }

        @Bean
        GuardWorker<RedisJob> worker(GuardWorkers workers, CrashSafeListQueue jobs, Environment env) {
            String queue = env.getRequiredProperty("test.queue");
            return workers.worker(jobs, RedisJob::payload, job -> SourceInfo.redis(queue, job.id()),
                    (job, drain) -> DONE.add(job.string("job_id")));
        }

        @Bean
        InitializingBean beansMade(GuardWorker<RedisJob> worker, DeadLetterSink deadLetters) {
            return BEANS_MADE::countDown;
        }
    }

    /**
     * The worker's beans (its queue, guard's dead-letter sink) are made while its Redis does not
     * listen yet, as they are when a pod starts beside a restarting Redis: nothing connects before
     * guard's gate opens, the gate waits through the closed port and the LOADING, and then jobs
     * flow and a skewed one lands in the dead-letter list.
     */
    @Test
    void theWorkersBeansAreMadeBeforeItsRedisListens() throws Exception {
        String queue = MachineServices.uniqueName("guard-spring-late");
        try (RedisServer redis = RedisServer.builder().heldLoading().build()) {
            redis.startLoading(); // writes its dataset (answering PONG meanwhile) ...
            redis.stop(); // ... so that the start below is LOADING from its first reply
            SpringApps.Starting starting = SpringApps.start("""
                    spring.data.redis.url: %s
                    test.queue: %s
                    guard:
                      brokers: redis
                      config.allow-loopback: true
                      persistence-check: warn # a test server that keeps nothing on disk
                      wait.deadline: 90s
                      boundary:
                        consumer: resizer
                        dead-letter-key: %s:dead
                        schemas.resize-image: classpath:schemas/resize-image.json
                    """.formatted(redis.uri(), queue, queue), LateWorker.class);
            ConfigurableApplicationContext ctx = null;
            try {
                assertTrue(starting.await(() -> BEANS_MADE.getCount() == 0, Duration.ofSeconds(60)),
                        "the worker's beans were not made: " + starting);
                assertTrue(redis.ping().startsWith("no connection"), "Redis should not listen yet: " + redis.ping());
                assertFalse(starting.await(starting::done, Duration.ofSeconds(2)),
                        "with Redis not listening the application should wait at guard's gate, not end: " + starting);
                redis.startLoading();
                assertFalse(starting.await(starting::done, Duration.ofSeconds(1)), "it should wait through LOADING: " + starting);
                redis.finishLoading();
                redis.awaitLoaded(Duration.ofSeconds(60));
                redis.command("LPUSH", queue, SpringWorkerTest.job("late-1", "width\":10"), "{\"id\":\"late-2\",\"image_url\":\"s3://x\",\"width\":5}");
                ctx = starting.awaitStarted(Duration.ofSeconds(60), "Redis up and loaded");
                Ledger ledger = ctx.getBean(Ledger.class);
                SpringWorkerTest.await(() -> ledger.reconcile().received() == 2 && ledger.reconcile().missing() == 0, "the two jobs to end");
                assertTrue(DONE.contains("late-1"), DONE.toString());
                assertEquals(1L, ledger.reconcile().rejected());
                assertTrue(redis.command("LRANGE", queue + ":dead", "0", "-1").contains("late-2"), "the skewed job is dead-lettered");
            } finally {
                if (ctx != null) {
                    ctx.close();
                }
            }
        }
    }
}
