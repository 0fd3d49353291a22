package dev.guard.examples.scaledown;

/**
 * NATS JetStream's table (the machine's nats-server): {@link BrokerScaleDownTest}, in a class of its own so that the module's two test JVMs
 * run the brokers' tables side by side.
 */
class NatsScaleDownTest extends BrokerScaleDownTest {
    NatsScaleDownTest() {
        super(Transport.Kind.NATS);
    }
}
