package dev.guard.ready;

import dev.guard.testing.MachineServices;
import java.time.Duration;
import java.util.List;

/**
 * Loads the client libraries' classes once per test JVM (one check of each against the
 * machine's services). On a loaded 2-core machine the first lettuce/jnats/amqp connection in a
 * JVM takes seconds of class loading; tests whose deadlines are about retry behaviour warm up
 * first so they measure the gate, not the JVM.
 */
public final class Warm {
    private static volatile boolean done;

    private Warm() {}

    public static synchronized void clients() {
        if (done) {
            return;
        }
        for (Probe p : Probes.forUrls(List.of(MachineServices.redisUri(), MachineServices.amqpUri(),
                MachineServices.natsUrl()))) {
            try {
                ProbeResult r = p.check(Duration.ofSeconds(30));
                if (!r.ready()) {
                    throw new IllegalStateException("warm-up check of the machine's " + p.kind() + " failed: " + r);
                }
            } finally {
                p.close();
            }
        }
        done = true;
    }
}
