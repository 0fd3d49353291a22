package dev.guard;

import dev.guard.testing.PackageCycles;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** guard-core's packages depend on each other in one direction, except the two pairs named here. */
class PackageCyclesTest {

    @Test
    void theOnlyPackageCyclesAreTheAcceptedOnes() {
        Set<Set<String>> accepted = Set.of(
                // Probes, the factory in dev.guard.ready, builds each broker's probe; each probe implements
                // ready's Probe and shares ready.internal's helpers
                Set.of("dev.guard.ready", "dev.guard.ready.amqp", "dev.guard.ready.internal", "dev.guard.ready.kafka",
                        "dev.guard.ready.nats", "dev.guard.ready.net", "dev.guard.ready.redis"),
                // config's rules (config.internal) judge endpoints; Endpoints masks with config's Redaction
                // and reads placeholders with config.internal's parser
                Set.of("dev.guard.config", "dev.guard.config.internal", "dev.guard.endpoint"));
        PackageCycles.assertOnly(accepted);
    }
}
