package dev.guard.queue.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.guard.drain.JobSource;
import dev.guard.testing.FreePorts;
import dev.guard.testing.RedisServer;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisConnectionException;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * A queue is built before its Redis is up, as a Spring bean is (beans are made before guard's
 * readiness gate opens): building sends no command, a fetch before Redis answers fails and the
 * next one, once Redis is up, works; the crash-safe queue then takes its lease and returns its
 * own leftovers. Each case on a private redis-server started after the queue was built, first
 * closed, then really loading its dataset.
 */
class QueuesBuiltBeforeRedisTest {

    @Test
    void crashSafeListQueue() throws Exception {
        try (RedisServer redis = RedisServer.builder().heldLoading().build()) {
            RedisClient client = RedisClient.create(redis.uri());
            try (CrashSafeListQueue queue = CrashSafeListQueue.builder(client, "jobs").workerId("w1")
                    .pollTimeout(Duration.ofMillis(100)).build()) {
                assertThrows(RedisConnectionException.class, queue::fetch, "Redis is not listening yet");

                redis.startLoading();
                IllegalStateException loading = assertThrows(IllegalStateException.class, queue::fetch);
                assertTrue(loading.getMessage().contains("LOADING"), loading.getMessage());
                assertTrue(redis.isLoading(), "still loading after the failed fetch");

                redis.finishLoading();
                redis.awaitLoaded(Duration.ofSeconds(60));
                // a job of this worker's previous run, left in its processing list: returned at the first fetch
                redis.command("RPUSH", "jobs:processing:w1", "left-over");
                redis.command("LPUSH", "jobs", "new");
                assertEquals(List.of("left-over", "new"), drain(queue, 2, Function.identity()));
                assertEquals(":1", redis.command("EXISTS", "jobs:lease:w1"), "the lease is taken at the first good fetch");
            } finally {
                client.shutdown();
            }
        }
    }

    @Test
    void streamQueue() throws Exception {
        try (RedisServer redis = RedisServer.builder().build()) {
            RedisClient client = RedisClient.create(redis.uri());
            try (StreamQueue queue = StreamQueue.builder(client, "events", "workers").consumer("c1")
                    .pollTimeout(Duration.ofMillis(100)).build()) {
                assertThrows(RedisConnectionException.class, queue::fetch, "Redis is not listening yet");
                redis.start();
                assertEquals(":0", redis.command("EXISTS", "events"), "building the queue created nothing");
                assertEquals(Optional.empty(), queue.fetch(), "the first fetch creates the group");
                redis.command("XADD", "events", "*", "job", "e-1");
                assertEquals(List.of("e-1"), drain(queue, 1, Function.identity()));
            } finally {
                client.shutdown();
            }
        }
    }

    @Test
    void fallbackListQueue() throws Exception {
        try (RedisServer redis = RedisServer.builder().build()) {
            RedisClient client = RedisClient.create(redis.uri());
            try (FallbackListQueue queue = FallbackListQueue.builder(client, "plain").pollTimeout(Duration.ofMillis(100))
                    .build()) {
                assertThrows(RedisConnectionException.class, queue::fetch, "Redis is not listening yet");
                redis.start();
                redis.command("LPUSH", "plain", "p-1");
                assertEquals(List.of("p-1"), drain(queue, 1, Function.identity()));
            } finally {
                client.shutdown();
            }
        }
    }

    @Test
    void aClosedQueueIsNotReopenedByAFetch() {
        RedisClient client = RedisClient.create("redis://127.0.0.1:" + FreePorts.next());
        try {
            CrashSafeListQueue list = CrashSafeListQueue.builder(client, "jobs").build();
            list.close(); // never fetched: nothing to clean up, no connection attempted
            IllegalStateException e = assertThrows(IllegalStateException.class, list::fetch);
            assertTrue(e.getMessage().contains("is closed"), e.getMessage());
            StreamQueue stream = StreamQueue.builder(client, "events", "g").build();
            stream.close();
            assertThrows(IllegalStateException.class, stream::fetch);
            FallbackListQueue plain = FallbackListQueue.builder(client, "plain").build();
            plain.close();
            assertThrows(IllegalStateException.class, plain::fetch);
        } finally {
            client.shutdown();
        }
    }

    private static <J> List<String> drain(JobSource<J> queue, int n, Function<String, String> show) {
        List<String> got = new java.util.ArrayList<>();
        long end = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (got.size() < n && System.nanoTime() < end) {
            queue.fetch().ifPresent(j -> {
                got.add(show.apply(((RedisJob) j).payload()));
                queue.ack(j);
            });
        }
        return got;
    }
}
