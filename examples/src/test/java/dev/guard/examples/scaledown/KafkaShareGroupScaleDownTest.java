package dev.guard.examples.scaledown;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Kafka's table with the workers in a share group of KIP-932 ({@code KafkaShareQueue}, a KRaft
 * broker per row whose record lock and share session are the classic members' 6 s): the broker
 * counts each delivery and gives a released or expired record to any member. Under -Pproof: the
 * default run proves {@code KafkaShareQueue} on a real broker with {@code KafkaShareQueueTest}
 * (guard-core) and the scale-down of real worker JVMs with the classic protocol
 * ({@link KafkaScaleDownTest}); a row here costs as much again.
 */
@Tag("proof")
class KafkaShareGroupScaleDownTest extends BrokerScaleDownTest {
    KafkaShareGroupScaleDownTest() {
        super(Transport.Kind.KAFKA);
    }

    @Override
    ExperimentConfig.Builder configure(ExperimentConfig.Builder b) {
        return b.kafkaProtocol(KafkaTransport.Protocol.SHARE);
    }

    @Test
    void ackOnReceiptLosesAtMostTheJobInHand() throws Exception {
        ackOnReceiptRows();
    }
}
