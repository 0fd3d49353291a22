package dev.guard.queue.redis;

import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import java.util.List;

/**
 * One test's connection to the machine's shared Redis; {@link #close()} deletes every key under
 * the test's prefix, then closes. Fails (never skips) with how to start Redis when it is not there.
 */
final class SharedRedisKeys implements AutoCloseable {

    final RedisClient client;
    final StatefulRedisConnection<String, String> redis;
    private final String prefix;

    private SharedRedisKeys(RedisClient client, StatefulRedisConnection<String, String> redis, String prefix) {
        this.client = client;
        this.redis = redis;
        this.prefix = prefix;
    }

    static SharedRedisKeys open(String uri, String prefix) {
        RedisClient client = RedisClient.create(uri);
        try {
            return new SharedRedisKeys(client, client.connect(), prefix);
        } catch (RuntimeException e) {
            client.shutdown();
            throw new AssertionError("this test needs the Redis at " + dev.guard.config.Redaction.maskText(uri)
                    + " (set " + dev.guard.testing.MachineServices.REDIS_ENV + ", or start it with .ci/run or `"
                    + dev.guard.testing.MachineServices.REDIS_START + "`): " + e, e);
        }
    }

    @Override
    public void close() {
        List<String> keys = redis.sync().keys(prefix + "*");
        if (!keys.isEmpty()) {
            redis.sync().del(keys.toArray(new String[0]));
        }
        redis.close();
        client.shutdown();
    }
}
