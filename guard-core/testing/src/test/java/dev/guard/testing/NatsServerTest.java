package dev.guard.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nats.client.Connection;
import io.nats.client.JetStreamManagement;
import io.nats.client.Message;
import io.nats.client.Nats;
import io.nats.client.Options;
import io.nats.client.Subscription;
import io.nats.client.api.StreamConfiguration;
import io.nats.client.api.StreamInfo;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(NoLeakedProcesses.class)
class NatsServerTest {

    @Test
    void urlIsKnownBeforeStartAndConnectFailsUntilItStarts() throws Exception {
        try (NatsServer nats = NatsServer.builder().build()) {
            assertEquals("nats://127.0.0.1:" + nats.port(), nats.url());
            assertFalse(nats.isRunning());
            Options options = new Options.Builder().server(nats.url()).connectionTimeout(Patience.REPLY)
                    .noReconnect().build();
            assertThrows(IOException.class, () -> Nats.connect(options), "nothing listens before start()");

            nats.start();
            try (Connection connection = Nats.connect(options)) {
                assertEquals(Connection.Status.CONNECTED, connection.getStatus());
                Subscription sub = connection.subscribe("late.start");
                connection.publish("late.start", "hi".getBytes(StandardCharsets.UTF_8));
                Message message = sub.nextMessage(Duration.ofSeconds(5));
                assertNotNull(message, "a message published through the late server comes back");
                assertEquals("hi", new String(message.getData(), StandardCharsets.UTF_8));
            }
        }
    }

    @Test
    void jetStreamIsOnAndSurvivesKillAndRestartOnTheSamePort() throws Exception {
        try (NatsServer nats = NatsServer.builder().build().start()) {
            int port = nats.port();
            try (Connection connection = Nats.connect(nats.url())) {
                JetStreamManagement jsm = connection.jetStreamManagement();
                jsm.addStream(StreamConfiguration.builder().name("JOBS").subjects("jobs.>").build());
                connection.jetStream().publish("jobs.one", "1".getBytes(StandardCharsets.UTF_8));
            }
            nats.kill();
            assertFalse(nats.isRunning());
            assertThrows(IOException.class, () -> NatsServer.readInfoLine("127.0.0.1", port, 1000));

            nats.restart();
            assertEquals(port, nats.port());
            try (Connection connection = Nats.connect(nats.url())) {
                StreamInfo info = connection.jetStreamManagement().getStreamInfo("JOBS");
                assertEquals(1, info.getStreamState().getMsgCount(), "the file store kept the stream across SIGKILL");
            }
        }
    }

    @Test
    void userAndPasswordAreRequired() throws Exception {
        try (NatsServer nats = NatsServer.builder().jetStream(false).user("app", "p@ss").build().start()) {
            assertEquals("nats://app:p%40ss@127.0.0.1:" + nats.port(), nats.url());
            assertFalse(nats.toString().contains("p@ss") || nats.toString().contains("p%40ss"), nats.toString());
            Options anonymous = new Options.Builder().server("nats://127.0.0.1:" + nats.port()).noReconnect().build();
            assertThrows(Exception.class, () -> Nats.connect(anonymous).close());
            try (Connection connection = Nats.connect(new Options.Builder().server("nats://127.0.0.1:" + nats.port())
                    .userInfo("app", "p@ss").noReconnect().build())) {
                assertTrue(connection.getStatus() == Connection.Status.CONNECTED);
            }
        }
    }
}
