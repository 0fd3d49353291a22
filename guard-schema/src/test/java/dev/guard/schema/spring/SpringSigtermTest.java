package dev.guard.schema.spring;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.guard.spring.SpringApps;
import dev.guard.testing.MachineServices;
import dev.guard.testing.Patience;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Kubernetes scaling a Spring Boot worker down: a real process, with a job in hand that would
 * outlast the grace period, gets SIGTERM. Spring's shutdown hook closes the context, the
 * {@link GuardWorker} stops taking jobs, hands the job back to the Redis list before the grace
 * period ends and logs the receipt; nothing is left in the worker's processing list.
 */
class SpringSigtermTest {

    @Test
    void sigtermWithAJobInHandHandsItBackAndLogsTheReceipt(@TempDir Path dir) throws Exception {
        String queue = MachineServices.uniqueName("guard-spring-sigterm");
        String job = "{\"job_id\":\"slow-1\",\"image_url\":\"s3://img/slow-1\",\"width\":30}";
        RedisClient client = RedisClient.create(MachineServices.redisUri());
        try (StatefulRedisConnection<String, String> redis = client.connect()) {
            redis.sync().lpush(queue, job);
            Path out = dir.resolve("out.txt");
            Process p = SpringApps.process(SpringDrainMain.class, out,
                    "--test.queue=" + queue, "--spring.data.redis.url=" + MachineServices.redisUri(), "--guard.brokers=redis",
                    "--guard.config.in-container=false", "--logging.level.dev.guard=INFO",
                    "--guard.boundary.schemas.resize-image=classpath:schemas/resize-image.json",
                    "--guard.boundary.dead-letter-key=" + queue + ":dead", "--guard.boundary.consumer=resizer",
                    "--guard.drain.grace-period=6s", "--guard.drain.safety-margin=2s",
                    "--guard.persistence-check=warn").start(); // the machine's Redis keeps nothing on disk
            try {
                long until = System.nanoTime() + Patience.PROCESS.toNanos();
                while (redis.sync().llen(queue) > 0 && p.isAlive() && System.nanoTime() < until) {
                    Thread.sleep(20);
                }
                assertEquals(0L, redis.sync().llen(queue), "the worker did not take the job:\n" + Files.readString(out));
                Thread.sleep(500); // in hand, working
                long sent = System.nanoTime();
                p.destroy(); // SIGTERM, as the kubelet sends it
                assertTrue(p.waitFor(Patience.PROCESS.toSeconds(), TimeUnit.SECONDS), "the worker did not exit on SIGTERM");
                Duration took = Duration.ofNanos(System.nanoTime() - sent);
                String text = Files.readString(out, StandardCharsets.UTF_8);
                System.out.println("exit " + p.exitValue() + " " + took.toMillis() + " ms after SIGTERM\n" + text);
                assertEquals(List.of(job), redis.sync().lrange(queue, 0, -1), "the job is not back on the queue:\n" + text);
                assertEquals(0L, redis.sync().exists(queue + ":processing:spring-w1"), "left in the processing list:\n" + text);
                assertTrue(text.lines().anyMatch(l -> l.contains("guard drain receipt: worker=") && l.contains("reason=Spring context close")
                        && l.contains("received=1") && l.contains("handed_back=1") && l.contains("hand_back_failed=0")), text);
                assertFalse(text.contains("unaccounted="), text);
            } finally {
                p.destroyForcibly();
                redis.sync().del(redis.sync().keys(queue + "*").toArray(String[]::new));
            }
        } finally {
            client.shutdown();
        }
    }
}
