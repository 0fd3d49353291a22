package dev.guard.schema.metrics;

import dev.guard.schema.boundary.Ledger;
import dev.guard.schema.Outcome;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.EnumMap;
import java.util.Map;

/**
 * The ledger's receptions and outcomes as meters, counted as the ledger records them, and the
 * receptions still without an outcome as a gauge read from the ledger itself.
 */
public final class LedgerMetrics implements Ledger.Listener {

    private final Counter received;
    private final Map<Outcome, Counter> outcomes = new EnumMap<>(Outcome.class);

    private LedgerMetrics(Ledger ledger, MeterRegistry registry) {
        this.received = Counter.builder("guard.jobs.received").description("Jobs received from the broker (each delivery)")
                .register(registry);
        for (Outcome o : Outcome.values()) {
            outcomes.put(o, Counter.builder("guard.jobs.outcome").description("Outcomes the ledger recorded")
                    .tag("outcome", o.label()).register(registry));
        }
        Gauge.builder("guard.jobs.missing", ledger, l -> l.reconcile().missing())
                .description("Receptions without an outcome yet: in flight, or lost").register(registry);
    }

    /** Registers the ledger's meters and starts counting what it records from now on. */
    public static LedgerMetrics bind(Ledger ledger, MeterRegistry registry) {
        LedgerMetrics metrics = new LedgerMetrics(ledger, registry);
        ledger.addListener(metrics);
        return metrics;
    }

    @Override
    public void received(String jobId) {
        received.increment();
    }

    @Override
    public void recorded(String jobId, Outcome outcome) {
        outcomes.get(outcome).increment();
    }
}
