package dev.guard.examples.scaledown;

/**
 * Kafka's table, small: the two rows that ack after the job (graceful + hand-back, and SIGKILL
 * alone), the ones that must lose nothing, on a KRaft broker from the Maven Central jars (one per
 * row, as the Experiment command runs them; BrokerScaleDownTest says why not one for both). Each row waits out a rebalance per scale-down, and a
 * SIGKILLed member is noticed only after the session timeout ({@value KafkaTransport#SESSION_TIMEOUT_MS}
 * ms), so the table is 200 jobs, 2 workers and one scale-down; the rows that ack on receipt, and the
 * full size, are the Experiment command's (examples/README.md).
 */
class KafkaScaleDownTest extends BrokerScaleDownTest {
    KafkaScaleDownTest() {
        super(Transport.Kind.KAFKA);
    }
}
