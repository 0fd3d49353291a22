package dev.guard.examples.scaledown;

/**
 * RabbitMQ's table (the machine's broker): {@link BrokerScaleDownTest}, in a class of its own so that the module's two test JVMs
 * run the brokers' tables side by side.
 */
class RabbitMqScaleDownTest extends BrokerScaleDownTest {
    RabbitMqScaleDownTest() {
        super(Transport.Kind.RABBITMQ);
    }
}
