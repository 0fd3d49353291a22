package dev.guard.examples.scaledown;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * RabbitMQ's table (the machine's broker): {@link BrokerScaleDownTest}, in a class of its own so that the module's test JVMs
 * run the brokers' tables side by side. The default run has the rows that must lose nothing;
 * -Pproof adds the two that ack on receipt, which complete the four-mode table.
 */
class RabbitMqScaleDownTest extends BrokerScaleDownTest {
    RabbitMqScaleDownTest() {
        super(Transport.Kind.RABBITMQ);
    }

    @Test
    @Tag("proof")
    void ackOnReceiptLosesAtMostTheJobInHand() throws Exception {
        ackOnReceiptRows();
    }
}
