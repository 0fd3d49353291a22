package dev.guard.examples.scaledown;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.guard.testing.MachineServices;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The idempotent sink on the machine's Redis: a job written twice is one result and two runs. */
class SinkTest {

    @Test
    void aJobWrittenTwiceIsCountedOnceAndItsRunsApart() {
        String prefix = "guard-test:sink:" + UUID.randomUUID();
        // the machine's Redis (GUARD_TEST_REDIS_URL or 127.0.0.1:6379); fails saying how to start it if it does not answer
        RedisClient client = RedisClient.create(MachineServices.redisUri());
        try (StatefulRedisConnection<String, String> c = client.connect()) {
            Sink sink = new Sink(c, prefix);
            assertEquals(1, sink.write("job-1", "w1"));
            assertEquals(2, sink.write("job-1", "w2"));
            assertEquals(1, sink.write("job-2", "w2"));
            assertEquals(2L, c.sync().hlen(Sink.results(prefix)));
            assertEquals("w2", c.sync().hget(Sink.results(prefix), "job-1"));
            assertEquals("2", c.sync().hget(Sink.runs(prefix), "job-1"));
            c.sync().del(Sink.results(prefix), Sink.runs(prefix));
        } finally {
            client.shutdown();
        }
    }
}
