package dev.guard.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.ConnectException;
import java.nio.file.Files;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(NoLeakedProcesses.class)
class RedisServerTest {

    @Test
    void startsOnAFreePortAndAnswersPong() throws IOException {
        try (RedisServer redis = RedisServer.builder().build().start()) {
            assertEquals("127.0.0.1", redis.host());
            assertEquals("redis://127.0.0.1:" + redis.port(), redis.uri());
            assertEquals("+PONG", Resp.call(redis.host(), redis.port(), null, 2000, "PING"));
            assertEquals("+OK", Resp.call(redis.host(), redis.port(), null, 2000, "SET", "k", "v"));
            assertEquals("v", Resp.call(redis.host(), redis.port(), null, 2000, "GET", "k"));
        }
    }

    @Test
    void passwordIsRequiredAndMaskedInToString() throws IOException {
        try (RedisServer redis = RedisServer.builder().password("s3cret pw").build().start()) {
            String noAuth = Resp.call(redis.host(), redis.port(), null, 2000, "PING");
            assertTrue(noAuth.startsWith("-NOAUTH"), "PING without password answered: " + noAuth);
            String wrong = Resp.call(redis.host(), redis.port(), "wrong", 2000, "PING");
            assertTrue(wrong.startsWith("-WRONGPASS"), "AUTH with a wrong password answered: " + wrong);
            assertEquals("+PONG", Resp.call(redis.host(), redis.port(), "s3cret pw", 2000, "PING"));
            assertEquals("redis://:s3cret+pw@127.0.0.1:" + redis.port(), redis.uri());
            assertFalse(redis.toString().contains("s3cret"), redis.toString());
        }
    }

    @Test
    void killThenRestartOnTheSamePort() throws IOException {
        try (RedisServer redis = RedisServer.builder().build().start()) {
            int port = redis.port();
            Resp.call(redis.host(), port, null, 2000, "SET", "before-kill", "1");
            redis.kill();
            assertFalse(redis.isRunning());
            assertThrows(ConnectException.class, () -> Resp.call("127.0.0.1", port, null, 2000, "PING"));
            redis.restart();
            assertEquals(port, redis.port());
            assertEquals("+PONG", Resp.call(redis.host(), port, null, 2000, "PING"));
            assertEquals("(nil)", Resp.call(redis.host(), port, null, 2000, "GET", "before-kill"),
                    "persistence is off: a killed server comes back empty");
        }
    }

    @Test
    void loadingWindowIsObservedNotSlept() throws IOException {
        try (RedisServer redis = RedisServer.builder().password("pw").build().startLoading()) {
            Instant observed = redis.loadingObservedAt();
            assertTrue(redis.isLoading(), "isLoading() right after startLoading()");
            String reply = redis.ping();
            assertTrue(reply.startsWith("-LOADING Redis is loading the dataset in memory"), "PING during loading answered: " + reply);

            Instant loaded = redis.awaitLoaded(Duration.ofSeconds(60));
            assertTrue(Files.readString(redis.logFile()).contains("DB loaded from disk"), "log has the loaded line");
            assertTrue(loaded.isAfter(observed), "loading ended (" + loaded + ") after LOADING was seen (" + observed + ")");
            assertEquals("+PONG", Resp.call(redis.host(), redis.port(), "pw", 2000, "PING"));
            assertFalse(redis.isLoading());
            assertEquals(":40000", Resp.call(redis.host(), redis.port(), "pw", 2000, "DBSIZE"));
            System.out.printf("Redis LOADING window (40,000 keys, key-load-delay 20 us): observed %d ms of LOADING"
                    + " (from first -LOADING reply to 'DB loaded from disk')%n", Duration.between(observed, loaded).toMillis());

            redis.restart();
            assertTrue(redis.isLoading(), "a restart in loading mode loads again");
            Instant again = redis.awaitLoaded(Duration.ofSeconds(60));
            assertTrue(again.isAfter(redis.loadingObservedAt()));
            System.out.printf("Redis LOADING window after restart: %d ms%n",
                    Duration.between(redis.loadingObservedAt(), again).toMillis());
        }
    }

    @Test
    void stopDuringLoadingEndsTheServerAndRestartLoadsAgain() {
        try (RedisServer redis = RedisServer.builder().preloadKeys(40_000).build().startLoading()) {
            long start = System.nanoTime();
            redis.stop();
            System.out.printf("Redis stop() during LOADING took %d ms%n", (System.nanoTime() - start) / 1_000_000);
            assertFalse(redis.isRunning());
            assertFalse(redis.isLoading(), "a stopped server answers nothing");
            assertTrue(redis.ping().startsWith("no connection: java.net.ConnectException"), redis.ping());
            redis.restart();
            assertTrue(redis.isLoading(), "restart in loading mode shows LOADING again");
            redis.kill();
            assertFalse(redis.isRunning());
        }
    }
}
