package dev.guard.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import org.junit.jupiter.api.Test;

/** A fixture never prints a password: what it masks in a URL's user info. */
class MaskingTest {

    @Test
    void thePasswordOrTokenOfEveryUrlIsMaskedAndTheRestKept() {
        assertEquals("redis://:****@127.0.0.1:6379", Masking.url("redis://:s3cr3t-test-pw@127.0.0.1:6379"));
        assertEquals("amqp://guest:****@127.0.0.1:5672/vh", Masking.url("amqp://guest:guest@127.0.0.1:5672/vh"));
        assertEquals("nats://****@nats:4222", Masking.url("nats://s3cr3t-token@nats:4222"));
        assertEquals("a redis://:****@h:1 and nats://u:****@h:2", Masking.url("a redis://:p1@h:1 and nats://u:p2@h:2"));
        assertEquals("redis://127.0.0.1:6379", Masking.url("redis://127.0.0.1:6379"));
        assertEquals("pw with $ and \\ kept out: redis://:****@h", Masking.url("pw with $ and \\ kept out: redis://:a$1\\b@h"));
    }

    @Test
    void aServerWithAPasswordNamesItselfMasked() {
        RedisServer redis = RedisServer.builder().password("s3cr3t-test-pw").build();
        try {
            assertFalse(redis.toString().contains("s3cr3t-test-pw"), redis.toString());
            assertEquals("RedisServer[redis://:****@127.0.0.1:" + redis.port() + "]", redis.toString());
        } finally {
            redis.close();
        }
    }
}
