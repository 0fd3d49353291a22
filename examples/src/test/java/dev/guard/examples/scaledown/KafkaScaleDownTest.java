package dev.guard.examples.scaledown;

/**
 * Kafka's table, small: the two rows that ack after the job (graceful + hand-back, and SIGKILL
 * alone), the ones that must lose nothing, on a KRaft broker from the Maven Central jars (one for
 * both rows, each with its own topics and group; the Experiment command starts one per row). Each row waits out a rebalance per scale-down, and a
 * SIGKILLed member is noticed only after the session timeout ({@value KafkaTransport#SESSION_TIMEOUT_MS}
 * ms), so the table is 200 jobs, 2 workers and one scale-down; the rows that ack on receipt, and the
 * full size, are the Experiment command's (examples/README.md).
 */
class KafkaScaleDownTest extends BrokerScaleDownTest {
    KafkaScaleDownTest() {
        super(Transport.Kind.KAFKA);
    }
}
