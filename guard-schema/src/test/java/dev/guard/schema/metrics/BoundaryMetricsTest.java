package dev.guard.schema.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.guard.schema.boundary.Ledger;
import dev.guard.schema.Outcome;
import dev.guard.schema.SourceInfo;
import dev.guard.schema.deadletter.DeadLetter;
import dev.guard.schema.deadletter.DeadLetterException;
import dev.guard.schema.deadletter.redis.RedisListDeadLetters;
import dev.guard.testing.MachineServices;
import dev.guard.testing.RedisServer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.lettuce.core.RedisClient;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The boundary's meters: the ledger's counts, and dead letters a real Redis confirmed or did not. */
class BoundaryMetricsTest {

    @Test
    void ledgerMetersCountReceptionsOutcomesAndWhatIsStillMissing() {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        Ledger ledger = new Ledger();
        LedgerMetrics.bind(ledger, registry);
        for (String id : List.of("a", "b", "c", "d", "a")) {
            ledger.received(id);
        }
        ledger.record("a", Outcome.PROCESSED);
        ledger.record("a", Outcome.HANDED_BACK);
        ledger.record("b", Outcome.REJECTED);
        ledger.record("c", Outcome.FAILED);
        assertThrows(IllegalStateException.class, () -> ledger.record("c", Outcome.PROCESSED), "a second outcome is refused");
        assertEquals(5.0, registry.get("guard.jobs.received").counter().count());
        assertEquals(1.0, registry.get("guard.jobs.outcome").tag("outcome", "processed").counter().count());
        assertEquals(1.0, registry.get("guard.jobs.outcome").tag("outcome", "handed_back").counter().count());
        assertEquals(1.0, registry.get("guard.jobs.outcome").tag("outcome", "rejected").counter().count());
        assertEquals(1.0, registry.get("guard.jobs.outcome").tag("outcome", "failed").counter().count());
        assertEquals(1.0, registry.get("guard.jobs.missing").gauge().value(), "d has no outcome");
        ledger.record("d", Outcome.PROCESSED);
        assertEquals(0.0, registry.get("guard.jobs.missing").gauge().value());
        assertEquals(ledger.reconcile().received(), (long) registry.get("guard.jobs.received").counter().count());
    }

    @Test
    void deadLettersAreCountedAsTheRealSinkConfirmedThemOrNot() throws Exception {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        String key = MachineServices.uniqueName("guard-metrics-dead");
        try (RedisListDeadLetters sink = RedisListDeadLetters.connect(MachineServices.redisUri(), key)) {
            MeteredDeadLetters metered = new MeteredDeadLetters(sink, key, registry);
            metered.write(letter(Outcome.REJECTED));
            metered.write(letter(Outcome.REJECTED));
            metered.write(letter(Outcome.FAILED));
            assertEquals(2.0, registry.get("guard.deadletter.writes").tag("sink", key).tag("outcome", "rejected").counter().count());
            assertEquals(1.0, registry.get("guard.deadletter.writes").tag("sink", key).tag("outcome", "failed").counter().count());
        } finally {
            RedisClient client = RedisClient.create(MachineServices.redisUri());
            try (var c = client.connect()) {
                assertEquals(3L, c.sync().llen(key), "the sink holds what the meters say it confirmed");
                c.sync().del(key);
            } finally {
                client.shutdown();
            }
        }
        // a Redis that stops: the write is not confirmed, counted as a failure, and the exception still reaches the caller
        try (RedisServer redis = RedisServer.builder().build().start();
             RedisListDeadLetters sink = RedisListDeadLetters.connect(redis.uri(), "dead", Duration.ofSeconds(1))) {
            MeteredDeadLetters metered = new MeteredDeadLetters(sink, "dead", registry);
            metered.write(letter(Outcome.REJECTED));
            redis.kill();
            assertThrows(DeadLetterException.class, () -> metered.write(letter(Outcome.REJECTED)));
            assertEquals(1.0, registry.get("guard.deadletter.writes").tag("sink", "dead").counter().count());
            assertEquals(1.0, registry.get("guard.deadletter.failures").tag("sink", "dead").tag("outcome", "rejected").counter().count());
        }
    }

    private static DeadLetter letter(Outcome outcome) {
        return new DeadLetter("{\"id\":1}".getBytes(), outcome, "test", List.of(), List.of(), null,
                SourceInfo.redis("jobs", "1"), "1", Instant.now(), "metrics-test", outcome == Outcome.FAILED ? "boom" : null);
    }
}
