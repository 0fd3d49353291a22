package dev.guard.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.guard.drain.Drain;
import dev.guard.drain.DrainConfig;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The drain's meters read its live counts: what the receipt says, the meters say. */
class DrainMetricsTest {

    @Test
    void drainCountersFollowTheReceipt() {
        Drain drain = Drain.create(DrainConfig.builder().workerId("w-1").gracePeriod(Duration.ofSeconds(30)).build());
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        DrainMetrics.bind(drain, registry);
        for (int i = 0; i < 4; i++) {
            drain.jobFetched();
        }
        drain.jobDone();
        drain.jobDone();
        drain.jobFailed();
        drain.jobHandedBack();
        drain.jobHandBackFailed("job-9");
        assertEquals(4.0, count(registry, "fetched"));
        assertEquals(2.0, count(registry, "done"));
        assertEquals(1.0, count(registry, "failed"));
        assertEquals(drain.receipt().handedBack(), (long) count(registry, "handed_back"));
        assertEquals(1.0, count(registry, "hand_back_failed"));
        drain.release();
    }

    private static double count(SimpleMeterRegistry registry, String outcome) {
        return registry.get("guard.drain.jobs").tag("worker", "w-1").tag("outcome", outcome).functionCounter().count();
    }
}
