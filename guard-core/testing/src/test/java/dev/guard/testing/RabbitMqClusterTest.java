package dev.guard.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Address;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Three RabbitMQ nodes (about 20 s of starts: in -Pproof, and run by the fault matrix's failover cell). */
@Tag("proof")
@ExtendWith(NoLeakedProcesses.class)
class RabbitMqClusterTest {

    @Test
    void aQuorumQueueKeepsWhatWasConfirmedWhenItsLeaderIsKilled() throws Exception {
        try (RabbitMqCluster cluster = RabbitMqCluster.start(3, "127.0.0.1")) {
            List<Address> addresses = cluster.nodes().stream().map(n -> new Address("127.0.0.1", n.port())).toList();
            ConnectionFactory f = new ConnectionFactory();
            f.setUsername("guest");
            f.setPassword("guest");
            try (Connection c = f.newConnection(addresses)) {
                Channel ch = c.createChannel();
                ch.queueDeclare("q3", true, false, false, Map.of("x-queue-type", "quorum"));
                ch.confirmSelect();
                for (int i = 0; i < 10; i++) {
                    ch.basicPublish("", "q3", new AMQP.BasicProperties.Builder().deliveryMode(2).build(),
                            ("job-" + i).getBytes(StandardCharsets.UTF_8));
                }
                ch.waitForConfirmsOrDie(30_000);
            }
            String leader = cluster.leaderOf("q3");
            assertNotNull(leader, "the quorum queue has no leader");
            cluster.node(leader).kill();
            String next = null;
            long deadline = System.nanoTime() + Patience.WAIT.toNanos();
            while (System.nanoTime() < deadline && (next == null || next.equals(leader))) {
                try {
                    next = cluster.leaderOf("q3");
                } catch (IllegalStateException e) {
                    // electing
                }
                Thread.sleep(300);
            }
            assertNotEquals(leader, next);
            try (Connection c = f.newConnection(addresses)) {
                assertEquals(10, c.createChannel().queueDeclarePassive("q3").getMessageCount());
            }
        }
    }
}
