package dev.guard.ready.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.guard.testing.MachineServices;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The probes' lettuce client, against the machine's Redis: connections without the synchronous facade. */
class AsyncOnlyRedisClientTest {

    @Test
    void connectionsSkipTheSynchronousProxyAndStillAnswer() throws Exception {
        AsyncOnlyRedisClient client = new AsyncOnlyRedisClient(LettuceSupport.acquireShared());
        try (StatefulRedisConnection<String, String> c = client.connect(RedisURI.create(MachineServices.redisUri()))) {
            // lettuce's own connections always build it; ours must not (that is the start-up saved)
            assertNull(c.sync(), "no synchronous API built");
            assertNotNull(c.async());
            assertEquals("PONG", c.async().ping().get(5, TimeUnit.SECONDS));
            assertEquals("redis", c.async().info("server").get(5, TimeUnit.SECONDS).lines()
                    .filter(l -> l.startsWith("redis_mode:")).findFirst().map(l -> "redis").orElse("no redis_mode"));
        } finally {
            client.shutdown();
            LettuceSupport.releaseShared();
        }
    }
}
