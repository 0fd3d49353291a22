package dev.guard.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(NoLeakedProcesses.class)
class FixturesTest {

    @Test
    void localBinariesAreUsedOnThisMachine() throws IOException {
        assertEquals("local", Fixtures.backend(),
                "this machine has redis-server; install it with apt-get install redis-server");
        try (RedisServer redis = Fixtures.redis().start(); NatsServer nats = Fixtures.nats().start()) {
            assertEquals("+PONG", Resp.call(redis.host(), redis.port(), null, 2000, "PING"));
            assertTrue(NatsServer.readInfoLine(nats.host(), nats.port(), 2000).startsWith("INFO "));
        }
    }

    @Test
    void withNeitherBinaryNorDockerTheFailureNamesWhatToInstall() {
        IllegalStateException error = assertThrows(IllegalStateException.class,
                () -> Children.localOrDocker("guard-no-such-server", "apt-get install guard-no-such-server"));
        String message = error.getMessage();
        assertTrue(message.startsWith("guard-no-such-server not found in PATH, /usr/sbin, /usr/bin or /usr/local/bin, "
                + "and no Docker engine answers (Testcontainers)"), message);
        assertTrue(message.contains("Install it (apt-get install guard-no-such-server), or run where a Docker engine is available."),
                message);
    }
}
