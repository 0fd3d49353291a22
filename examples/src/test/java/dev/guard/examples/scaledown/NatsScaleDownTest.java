package dev.guard.examples.scaledown;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * NATS's table (the machine's nats-server with JetStream): {@link BrokerScaleDownTest}, in a class of its own so that the module's test JVMs
 * run the brokers' tables side by side. The default run has the rows that must lose nothing;
 * -Pproof adds the two that ack on receipt, which complete the four-mode table.
 */
class NatsScaleDownTest extends BrokerScaleDownTest {
    NatsScaleDownTest() {
        super(Transport.Kind.NATS);
    }

    @Test
    @Tag("proof")
    void ackOnReceiptLosesAtMostTheJobInHand() throws Exception {
        ackOnReceiptRows();
    }
}
