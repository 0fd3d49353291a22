package dev.guard.testing;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Where no engine answers, the engine tests fail saying so and how to provide one; they never skip. */
class EngineTest {

    @Test
    void noSocketFileFailsNamingTheSocketAndTheWayToStartAnEngine(@TempDir Path dir) {
        Path socket = dir.resolve("absent.sock");
        AssertionError e = assertThrows(AssertionError.class, () -> Engine.require("unix://" + socket));
        assertTrue(e.getMessage().contains("no container engine answers on " + socket + " (no socket file)"), e.getMessage());
        assertTrue(e.getMessage().contains(".ci/engine"), e.getMessage());
    }

    @Test
    void aSocketThatIsNotAnEngineFailsToo(@TempDir Path dir) throws Exception {
        // something listens there but never answers HTTP: it closes each connection at once
        Path socket = dir.resolve("mute.sock");
        try (ServerSocketChannel server = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
            server.bind(UnixDomainSocketAddress.of(socket));
            Thread closer = new Thread(() -> {
                try {
                    server.accept().close();
                } catch (Exception ignored) {
                    // the test is over
                }
            });
            closer.setDaemon(true);
            closer.start();
            AssertionError e = assertThrows(AssertionError.class, () -> Engine.require("unix://" + socket));
            assertTrue(e.getMessage().contains("no container engine answers on " + socket), e.getMessage());
        }
    }

    @Test
    void aTcpDockerHostIsRefusedWithTheReason() {
        AssertionError e = assertThrows(AssertionError.class, () -> Engine.require("tcp://127.0.0.1:2375"));
        assertTrue(e.getMessage().contains("need a unix socket"), e.getMessage());
    }
}
