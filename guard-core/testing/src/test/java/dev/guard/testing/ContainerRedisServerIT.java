package dev.guard.testing;

import org.junit.jupiter.api.BeforeAll;

/**
 * The Redis fixture's tests ({@link RedisServerTest}) on its container path: redis-server in a
 * Testcontainers container of {@value RedisServer#IMAGE}, the fixture's dir mounted at /data and its
 * port published on 127.0.0.1. The same assertions hold there: a real -LOADING observed, its end
 * read from the server's log (so the log is kept), kill and restart on the same port.
 */
class ContainerRedisServerIT extends RedisServerTest {
    @BeforeAll
    static void containers() throws Exception {
        ContainerFixtures.require();
    }
}
