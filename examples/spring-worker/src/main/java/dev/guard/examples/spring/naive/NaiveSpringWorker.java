package dev.guard.examples.spring.naive;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.guard.testing.coldstart.StackContract;
import io.lettuce.core.KeyValue;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.CommandLineRunner;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;

/**
 * {@link dev.guard.examples.spring.guarded.SpringThumbnailWorker}'s naive twin, kept as the thing the cold-start harness must
 * catch; do not copy it. A Spring Boot worker as such workers are written: its Redis URL from
 * {@code ${CACHE_URL:redis://localhost:6379}} (the backend sets {@code REDIS_URL}), one connection
 * attempt at start, BRPOP (the job's only copy is then in memory), and a broad catch that
 * swallows a renamed {@code job_id}. guard is on its class path and off ({@code guard.enabled=false}).
 */
@SpringBootApplication(proxyBeanMethods = false)
public class NaiveSpringWorker {

    private static final Logger LOG = LoggerFactory.getLogger("worker");
    private static final ObjectMapper JSON = new ObjectMapper();

    public static void main(String[] args) {
        System.setProperty("spring.config.name", "naive-spring-worker");
        SpringApplication.run(NaiveSpringWorker.class, args);
    }

    @Bean
    @SuppressWarnings({"unchecked", "InfiniteLoopStatement"})
    CommandLineRunner consume(@Value("${spring.data.redis.url}") String url,
                              @Value("${" + StackContract.JOB_QUEUE + ":jobs}") String queue) {
        return args -> {
            RedisClient client = RedisClient.create(url);
            StatefulRedisConnection<String, String> connection = client.connect(); // one attempt: refused or LOADING ends it
            RedisCommands<String, String> redis = connection.sync();
            redis.ping();
            while (true) {
                KeyValue<String, String> item = redis.brpop(1, queue);
                if (item == null || !item.hasValue()) {
                    continue;
                }
                try {
                    Map<String, Object> job = JSON.readValue(item.getValue(), Map.class);
                    String jobId = (String) job.get("job_id");
                    LOG.info("job " + jobId + " received");
                    int width = (Integer) job.get("width");
                    redis.hset(queue + StackContract.RESULTS_SUFFIX, jobId, "thumbnail " + width + "px of " + job.get("image"));
                    LOG.info("job " + jobId + " processed");
                } catch (Exception e) {
                    // "never let one bad message crash the worker"
                }
            }
        };
    }
}
