package dev.guard.queue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.guard.queue.redis.FallbackListQueue;
import dev.guard.queue.redis.StreamQueue;
import io.lettuce.core.RedisClient;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The one options type of the job sources (pure logic: no command is sent; that the sources obey
 * the values is proved against the brokers in each source's own tests).
 */
class SourceOptionsTest {

    @Test
    void badValuesAreRefusedNamingTheSettingAndTheValue() {
        IllegalArgumentException limit = assertThrows(IllegalArgumentException.class,
                () -> SourceOptions.DEFAULTS.withMaxInterruptions(0));
        assertEquals("maxInterruptions must be at least 1, was 0 (1 dead-letters a job at its first interruption)",
                limit.getMessage());
        IllegalArgumentException poll = assertThrows(IllegalArgumentException.class,
                () -> SourceOptions.DEFAULTS.withPollTimeout(Duration.ofMillis(-5)));
        assertTrue(poll.getMessage().startsWith("pollTimeout must not be negative, was -5 ms"), poll.getMessage());
        IllegalArgumentException handBack = assertThrows(IllegalArgumentException.class,
                () -> SourceOptions.DEFAULTS.withHandBackTimeout(Duration.ZERO));
        assertTrue(handBack.getMessage().startsWith("handBackTimeout must be positive, was 0 ms"), handBack.getMessage());
        assertThrows(NullPointerException.class, () -> SourceOptions.DEFAULTS.withPollTimeout(null));
        assertEquals(Duration.ZERO, SourceOptions.DEFAULTS.withPollTimeout(Duration.ZERO).pollTimeout(),
                "a zero poll timeout is a non-blocking fetch, allowed");
    }

    @Test
    void theLimitIsReachedAtMaxInterruptionsAndSaysSoInOneWording() {
        SourceOptions two = SourceOptions.DEFAULTS.withMaxInterruptions(2);
        assertFalse(two.exhausted(1));
        assertTrue(two.exhausted(2));
        assertTrue(two.exhausted(3));
        assertEquals("interrupted 2 times (limit 2)", two.exhaustedReason(2));
    }

    @Test
    void aSourceTakesTheOptionsWholeOrOneByOne() {
        SourceOptions options = new SourceOptions(Duration.ofMillis(250), Duration.ofMillis(700), 5);
        RedisClient client = RedisClient.create();
        try {
            StreamQueue.Builder stream = StreamQueue.builder(client, "s", "g").options(options);
            assertSame(options, stream.options());
            StreamQueue.Builder oneByOne = StreamQueue.builder(client, "s", "g").pollTimeout(Duration.ofMillis(250))
                    .handBackTimeout(Duration.ofMillis(700)).maxInterruptions(5);
            assertEquals(options, oneByOne.options());
        } finally {
            client.shutdown();
        }
    }

    @Test
    void aSourceThatKeepsNoCountRefusesALimitItCouldNotKeep() {
        RedisClient client = RedisClient.create();
        try {
            FallbackListQueue.Builder b = FallbackListQueue.builder(client, "q");
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> b.maxInterruptions(5));
            assertTrue(e.getMessage().startsWith("maxInterruptions 5 cannot be kept: a list queue with a fallback list"
                    + " keeps no count"), e.getMessage());
            assertTrue(e.getMessage().endsWith("use CrashSafeListQueue or StreamQueue for a limit"), e.getMessage());
            assertThrows(IllegalArgumentException.class, () -> b.options(SourceOptions.DEFAULTS.withMaxInterruptions(1)));
            SourceOptions defaultLimit = SourceOptions.DEFAULTS.withPollTimeout(Duration.ofMillis(100));
            assertEquals(defaultLimit, b.options(defaultLimit).options(),
                    "options shared with counting sources, at the default limit, are taken");
        } finally {
            client.shutdown();
        }
    }
}
