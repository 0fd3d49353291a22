package dev.guard.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import com.rabbitmq.client.GetResponse;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.nats.client.Nats;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class MachineServicesTest {

    @Test
    void sharedRedisAnswers() {
        String uri = MachineServices.redisUri();
        String key = MachineServices.uniqueName("guard-fixtures-test");
        RedisClient client = RedisClient.create(uri);
        try (StatefulRedisConnection<String, String> connection = client.connect()) {
            connection.sync().set(key, "v", io.lettuce.core.SetArgs.Builder.ex(30));
            assertEquals("v", connection.sync().get(key));
            connection.sync().del(key);
        } finally {
            client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
        }
    }

    @Test
    void sharedNatsAnswers() throws Exception {
        try (io.nats.client.Connection nats = Nats.connect(MachineServices.natsUrl())) {
            assertEquals(io.nats.client.Connection.Status.CONNECTED, nats.getStatus());
        }
    }

    @Test
    void amqpVhostIsIsolatedAndUsable() throws Exception {
        String vhost = MachineServices.uniqueName("guard-fixtures-vhost");
        String uri = MachineServices.amqpVhost(vhost);
        try {
            assertTrue(uri.endsWith("/" + vhost), uri);
            ConnectionFactory factory = new ConnectionFactory();
            factory.setUri(uri);
            try (Connection connection = factory.newConnection(); Channel channel = connection.createChannel()) {
                assertEquals(vhost, factory.getVirtualHost());
                channel.queueDeclare("q", false, false, true, null);
                channel.basicPublish("", "q", null, "hello".getBytes());
                assertEquals("hello", new String(channel.basicGet("q", true).getBody()));
            }
        } finally {
            MachineServices.deleteAmqpVhost(vhost);
        }
    }

    @Test
    void sharedAmqpAnswers() throws Exception {
        ConnectionFactory factory = new ConnectionFactory();
        factory.setUri(MachineServices.amqpUri());
        try (Connection connection = factory.newConnection(); Channel channel = connection.createChannel()) {
            assertEquals("RabbitMQ", String.valueOf(connection.getServerProperties().get("product")),
                    "amqpUri() must lead to the machine's RabbitMQ");
            // a server-named, exclusive queue: private to this connection, gone when it closes
            String queue = channel.queueDeclare().getQueue();
            String body = MachineServices.uniqueName("guard-fixtures-amqp");
            channel.basicPublish("", queue, null, body.getBytes(StandardCharsets.UTF_8));
            GetResponse got = channel.basicGet(queue, true);
            assertNotNull(got, "the message published to " + queue + " must come back");
            assertEquals(body, new String(got.getBody(), StandardCharsets.UTF_8), "the message must come back unchanged");
        }
    }

    @Test
    void unreachableRedisFailsSayingWhereFromAndHowToStartIt() {
        int closed = FreePorts.next();
        AssertionError error = assertThrows(AssertionError.class,
                () -> MachineServices.checkRedis("redis://:hunter2@127.0.0.1:" + closed, "from env GUARD_TEST_REDIS_URL"));
        String message = error.getMessage();
        assertTrue(message.startsWith("Redis at redis://:****@127.0.0.1:" + closed + " (from env GUARD_TEST_REDIS_URL)"
                + " did not answer PING with PONG: java.net.ConnectException"), message);
        assertTrue(message.contains("start it with `redis-server --daemonize yes --bind 127.0.0.1"), message);
        assertFalse(message.contains("hunter2"), message);
    }

    @Test
    void unreachableNatsAndAmqpFailWithHowTo() {
        int closed = FreePorts.next();
        AssertionError nats = assertThrows(AssertionError.class,
                () -> MachineServices.checkNats("nats://127.0.0.1:" + closed, "default"));
        assertTrue(nats.getMessage().contains("did not send its INFO line")
                && nats.getMessage().contains("/usr/sbin/nats-server -- -a 127.0.0.1 -p 4222 -js"), nats.getMessage());
        AssertionError amqp = assertThrows(AssertionError.class,
                () -> MachineServices.checkAmqp("amqp://guest:guest@127.0.0.1:" + closed, "default"));
        assertTrue(amqp.getMessage().contains("`rabbitmq-server -detached`"), amqp.getMessage());
        assertFalse(amqp.getMessage().contains("guest:guest"), amqp.getMessage());
    }

    @Test
    void uniqueNamesAreDistinctAndPrefixed() {
        String a = MachineServices.uniqueName("jobs");
        String b = MachineServices.uniqueName("jobs");
        assertNotEquals(a, b);
        assertTrue(a.matches("jobs-[0-9a-f]{8}"), a);
    }
}
