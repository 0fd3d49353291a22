package dev.guard.examples.scaledown;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Kafka's table with the workers on the consumer group protocol of KIP-848 (a KRaft broker per row
 * whose session timeout and heartbeat are the classic members' 6 s and 1 s): the broker assigns the
 * partitions and notices a SIGKILLed member after its own session timeout. Under -Pproof: the
 * default run proves {@code KafkaQueue} under this protocol with {@code KafkaQueueConsumerProtocolTest}
 * (guard-core) and the scale-down of real worker JVMs with the classic protocol
 * ({@link KafkaScaleDownTest}); a row here costs as much again.
 */
@Tag("proof")
class KafkaConsumerProtocolScaleDownTest extends BrokerScaleDownTest {
    KafkaConsumerProtocolScaleDownTest() {
        super(Transport.Kind.KAFKA);
    }

    @Override
    ExperimentConfig.Builder configure(ExperimentConfig.Builder b) {
        return b.kafkaProtocol(KafkaTransport.Protocol.CONSUMER);
    }

    @Test
    void ackOnReceiptLosesAtMostTheJobInHand() throws Exception {
        ackOnReceiptRows();
    }
}
