package dev.guard.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nats.client.Connection;
import io.nats.client.JetStream;
import io.nats.client.JetStreamManagement;
import io.nats.client.Nats;
import io.nats.client.Options;
import io.nats.client.api.StorageType;
import io.nats.client.api.StreamConfiguration;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(NoLeakedProcesses.class)
class NatsClusterTest {

    /** An R3 stream keeps what it acknowledged when its leader is SIGKILLed, under a new leader. */
    @Test
    void anR3StreamOutlivesItsLeader() throws Exception {
        try (NatsCluster cluster = NatsCluster.start(3, "127.0.0.1")) {
            Options options = new Options.Builder().server(cluster.url("127.0.0.1")).connectionTimeout(Patience.REPLY)
                    .reconnectWait(Duration.ofMillis(100)).maxReconnects(-1).build();
            try (Connection c = Nats.connect(options)) {
                JetStreamManagement jsm = c.jetStreamManagement();
                jsm.addStream(StreamConfiguration.builder().name("r3").subjects("r3.jobs").replicas(3)
                        .storageType(StorageType.File).build());
                JetStream js = c.jetStream();
                for (int i = 0; i < 10; i++) {
                    js.publish("r3.jobs", ("job-" + i).getBytes(StandardCharsets.UTF_8));
                }
                String leader = cluster.leaderOf("r3");
                cluster.server(leader).kill();
                String next = null;
                long deadline = System.nanoTime() + Patience.WAIT.toNanos();
                while (System.nanoTime() < deadline) {
                    try {
                        next = cluster.leaderOf("r3");
                        if (next != null && !next.equals(leader)) {
                            break;
                        }
                    } catch (java.io.IOException e) {
                        // electing
                    }
                    Thread.sleep(200);
                }
                assertTrue(next != null, "no new leader of r3 after " + leader + " died\n" + cluster.logs());
                assertNotEquals(leader, next);
                assertEquals(10, jsm.getStreamInfo("r3").getStreamState().getMsgCount(), "acknowledged messages kept");
            }
        }
    }
}
