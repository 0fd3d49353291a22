package dev.guard.examples.spring.guarded;

import dev.guard.testing.coldstart.StackContract;
import dev.guard.queue.redis.CrashSafeListQueue;
import dev.guard.queue.redis.RedisJob;
import dev.guard.ready.ProbeResult;
import dev.guard.ready.ReadinessListener;
import dev.guard.ready.ReadinessReport;
import dev.guard.schema.boundary.Ledger;
import dev.guard.schema.Outcome;
import dev.guard.schema.SourceInfo;
import dev.guard.schema.deadletter.DeadLetterSink;
import dev.guard.schema.deadletter.redis.RedisListDeadLetters;
import dev.guard.schema.spring.GuardWorker;
import dev.guard.schema.spring.GuardWorkers;
import dev.guard.spring.GuardBrokers;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.InitializingBean;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;

/**
 * The example stack's worker as a Spring Boot application. Everything guard does comes from its
 * auto-configuration and {@code thumbnail-worker.yml}: the config check of
 * {@code spring.data.redis.url} before any bean, the wait for Redis (LOADING is not ready) and the
 * backend's ready marker before the worker starts, the boundary (schema, dead letters, ledger),
 * and the drain when the context stops. The code here is what any worker has: its queue, its
 * work, and the per-job lines the cold-start harness reads.
 */
@SpringBootApplication(proxyBeanMethods = false)
public class SpringThumbnailWorker {

    private static final Logger LOG = LoggerFactory.getLogger("worker");

    public static void main(String[] args) {
        System.setProperty("spring.config.name", "thumbnail-worker");
        SpringApplication.run(SpringThumbnailWorker.class, args);
    }

    @Bean(destroyMethod = "shutdown")
    RedisClient redisClient(GuardBrokers brokers) {
        return RedisClient.create(brokers.target("redis").orElseThrow());
    }

    @Bean(destroyMethod = "close")
    CrashSafeListQueue jobs(RedisClient redis, @Value("${" + StackContract.JOB_QUEUE + ":jobs}") String queue) {
        return CrashSafeListQueue.builder(redis, queue).deadLetter(queue + ":interrupted").leaseTtl(Duration.ofSeconds(10))
                .pollTimeout(Duration.ofMillis(500)).build();
    }

    @Bean(destroyMethod = "close")
    Results results(RedisClient redis) {
        return new Results(redis);
    }

    /** Dead letters in the stack's Redis list, each one's reason kept for the job's log line. */
    @Bean(destroyMethod = "")
    ReasonedDeadLetters deadLetters(GuardBrokers brokers, @Value("${" + StackContract.JOB_QUEUE + ":jobs}") String queue) {
        return new ReasonedDeadLetters(RedisListDeadLetters.atFirstWrite(brokers.target("redis").orElseThrow(),
                queue + StackContract.DEAD_SUFFIX, Duration.ofSeconds(5)));
    }

    @Bean
    GuardWorker<RedisJob> thumbnails(GuardWorkers workers, CrashSafeListQueue jobs, Results results,
                                     @Value("${" + StackContract.JOB_QUEUE + ":jobs}") String queue) {
        return workers.worker(jobs, RedisJob::payload, job -> SourceInfo.redis(queue, null), (job, drain) -> {
            long width = job.integer("width");
            String result = "{\"width\":" + width + ",\"thumbnail\":\"" + job.string("image") + "@" + width + "\"}";
            results.put(queue + StackContract.RESULTS_SUFFIX, job.string("job_id"), result); // by id: idempotent
        });
    }

    /** The harness's per-job lines, from the ledger. */
    @Bean
    InitializingBean jobLines(Ledger ledger, ReasonedDeadLetters dead) {
        return () -> ledger.addListener(new Ledger.Listener() {
            @Override
            public void received(String jobId) {
                LOG.info("job {} received", jobId);
            }

            @Override
            public void recorded(String jobId, Outcome outcome) {
                switch (outcome) {
                    case PROCESSED -> LOG.info("job {} processed", jobId);
                    case REJECTED -> LOG.warn("job {} rejected: {}", jobId, dead.reasonOf(jobId));
                    case FAILED -> LOG.warn("job {} failed: {}", jobId, dead.reasonOf(jobId));
                    case HANDED_BACK -> LOG.info("job {} handed back", jobId);
                }
            }
        });
    }

    /** The harness's figure: when guard's gate let the worker start. */
    @Bean
    ReadinessListener readinessLine() {
        return new ReadinessListener() {
            @Override
            public void onStateChange(ProbeResult previous, ProbeResult current) {
            }

            @Override
            public void onWaitEnded(ReadinessReport report) {
                if (report.ready()) {
                    LOG.info("dependencies ready after {} ms at {}", report.elapsed().toMillis(), System.currentTimeMillis());
                }
            }
        };
    }

    /**
     * The results hash's connection, opened with the first result. Spring makes every bean before
     * guard's gate opens (the gate is a lifecycle phase), so a bean that connected when made would
     * fail the start whenever Redis is not up yet; guard's queue and dead-letter sink wait for
     * their first use the same way.
     */
    static final class Results implements AutoCloseable {
        private final RedisClient redis;
        private StatefulRedisConnection<String, String> connection;

        Results(RedisClient redis) {
            this.redis = redis;
        }

        synchronized void put(String hash, String id, String value) {
            if (connection == null) {
                connection = redis.connect();
            }
            connection.sync().hset(hash, id, value);
        }

        @Override
        public synchronized void close() {
            if (connection != null) {
                connection.close();
            }
        }
    }

    /** A dead-letter sink that remembers each letter's reason by job id, for the log line. */
    static final class ReasonedDeadLetters implements DeadLetterSink, AutoCloseable {
        private final RedisListDeadLetters delegate;
        private final Map<String, String> reasons = new ConcurrentHashMap<>();

        ReasonedDeadLetters(RedisListDeadLetters delegate) {
            this.delegate = delegate;
        }

        @Override
        public void write(dev.guard.schema.deadletter.DeadLetter letter) {
            delegate.write(letter);
            reasons.put(letter.jobId(), letter.reason());
        }

        String reasonOf(String jobId) {
            String r = reasons.remove(jobId);
            return r == null ? "(no dead letter)" : r;
        }

        @Override
        public void close() {
            delegate.close();
        }
    }
}
