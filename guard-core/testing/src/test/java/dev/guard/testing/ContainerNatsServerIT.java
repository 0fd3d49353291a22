package dev.guard.testing;

import org.junit.jupiter.api.BeforeAll;

/**
 * The NATS fixture's tests ({@link NatsServerTest}) on its container path: nats-server in a
 * Testcontainers container of {@value NatsServer#IMAGE}, JetStream's store in the mounted fixture dir
 * (so a stream survives kill and restart), port published on 127.0.0.1.
 */
class ContainerNatsServerIT extends NatsServerTest {
    @BeforeAll
    static void containers() throws Exception {
        ContainerFixtures.require();
    }
}
