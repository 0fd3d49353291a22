package dev.guard.init;

import dev.guard.ExitCodes;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.guard.testing.KafkaBroker;
import dev.guard.testing.NoLeakedProcesses;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** {@code guard-init wait kafka://...} against a real single-node KRaft broker (one per class: it takes seconds to start). */
@ExtendWith(NoLeakedProcesses.class)
class WaitKafkaTest {
    static KafkaBroker kafka;

    @BeforeAll
    static void startBroker() {
        kafka = KafkaBroker.builder().build().start();
    }

    @AfterAll
    static void stopBroker() {
        if (kafka != null) {
            kafka.close();
        }
    }

    @Test
    void runningBrokerIsReady() {
        Cli.Result r = Cli.run(Map.of(), "wait", "kafka://" + kafka.bootstrapServers(), "--timeout", "30s");
        assertEquals(0, r.code(), r.toString());
        assertTrue(r.out().contains("kafka " + kafka.bootstrapServers() + ": ready"), r.toString());
    }

    @Test
    void aGroupFromTheFlagIsReadyWhenItsCoordinatorAnswers() {
        Cli.Result r = Cli.run(Map.of(), "wait", "kafka://" + kafka.bootstrapServers(), "--kafka-group", "guard-cli-workers",
                "--timeout", "30s");
        assertEquals(0, r.code(), r.toString());
        assertTrue(r.out().contains("kafka " + kafka.bootstrapServers() + ": ready (1 broker(s), group 'guard-cli-workers'"
                + " coordinator answers (no such group yet))"), r.toString());
    }

    @Test
    void missingTopicFromTheFlagIsNotReadyByTheDeadline() {
        Cli.Result r = Cli.run(Map.of(), "wait", "kafka://" + kafka.bootstrapServers(), "--kafka-topic", "guard-cli-no-such-topic",
                "--timeout", "3s");
        assertEquals(ExitCodes.UNAVAILABLE, r.code(), r.toString());
        assertTrue(r.out().contains(": missing (topic(s) 'guard-cli-no-such-topic' do not exist yet)"), r.toString());
        assertTrue(r.err().contains("NOT READY: deadline of 3s reached"), r.toString());
    }
}
