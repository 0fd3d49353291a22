package dev.guard.schema.deadletter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import com.rabbitmq.client.GetResponse;
import dev.guard.schema.Outcome;
import dev.guard.schema.SourceInfo;
import dev.guard.schema.deadletter.amqp.AmqpDeadLetters;
import dev.guard.testing.MachineServices;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The RabbitMQ sink against the machine's RabbitMQ (GUARD_TEST_AMQP_URL or 127.0.0.1:5672; a unique queue per test). */
class AmqpDeadLettersTest extends SkewContract {

    Connection connection;
    Channel admin;
    AmqpDeadLetters sink;

    @BeforeEach
    void connect() throws Exception {
        ConnectionFactory f = new ConnectionFactory();
        f.setUri(MachineServices.amqpUri());
        connection = f.newConnection("guard-schema-test");
        admin = connection.createChannel();
        admin.queueDeclare(unique, false, false, false, null);
    }

    @Override
    String broker() {
        return "amqp";
    }

    @Override
    DeadLetterSink sink() {
        sink = AmqpDeadLetters.toQueue(connection, unique);
        return sink;
    }

    @Override
    List<ReadBack> readBack(int n) throws Exception {
        List<ReadBack> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            GetResponse r = admin.basicGet(unique, true);
            assertNotNull(r, "letter " + (i + 1) + " of " + n + " not in queue " + unique);
            Map<String, String> meta = new HashMap<>();
            r.getProps().getHeaders().forEach((k, v) -> meta.put(shortName(k), String.valueOf(v)));
            assertEquals(2, r.getProps().getDeliveryMode(), "dead letters are persistent");
            out.add(new ReadBack(r.getBody(), meta));
        }
        return out;
    }

    @Test
    void unroutableLetterFailsTheWriteInsteadOfVanishing() {
        AmqpDeadLetters toNowhere = AmqpDeadLetters.toExchange(connection, "amq.direct", unique + "-unbound");
        try {
            DeadLetter letter = new DeadLetter(new byte[] {'x'}, Outcome.REJECTED, "r", List.of(), List.of(), null,
                    SourceInfo.amqp("in", "1"), "job-unroutable", null, "c", null);
            DeadLetterException e = assertThrows(DeadLetterException.class, () -> toNowhere.write(letter));
            String hostPort = MachineServices.hostPort(MachineServices.amqpUri());
            assertEquals("dead letter for job job-unroutable returned unroutable by rabbitmq exchange 'amq.direct' routing key '"
                    + unique + "-unbound' on " + hostPort + ": no queue is bound for it; bind a queue, the job is not acknowledged",
                    e.getMessage());
        } finally {
            toNowhere.close();
        }
    }

    @Test
    void missingQueueFailsAtStartNamingIt() {
        DeadLetterException e = assertThrows(DeadLetterException.class, () -> AmqpDeadLetters.toQueue(connection, unique + "-absent"));
        assertTrue(e.getMessage().startsWith("dead-letter sink: cannot use rabbitmq queue '" + unique + "-absent' on "), e.getMessage());
        assertTrue(e.getMessage().contains("NOT_FOUND - no queue '" + unique + "-absent'"), e.getMessage());
        assertTrue(e.getMessage().endsWith("declare the queue before starting the consumer"), e.getMessage());
    }

    @AfterEach
    void cleanUp() throws Exception {
        try {
            if (sink != null) {
                sink.close();
            }
            if (admin != null && admin.isOpen()) {
                admin.queueDelete(unique);
            }
        } finally {
            if (connection != null) {
                connection.close();
            }
        }
    }
}
