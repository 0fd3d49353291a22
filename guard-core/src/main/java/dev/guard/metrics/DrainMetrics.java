package dev.guard.metrics;

import dev.guard.drain.Drain;
import dev.guard.drain.ShutdownReceipt;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.function.ToDoubleFunction;

/**
 * The drain's counts as meters: {@code guard.drain.jobs{outcome=fetched|done|failed|handed_back|hand_back_failed}},
 * read from the drain's live receipt at each scrape (nothing is counted twice).
 */
public final class DrainMetrics {

    private DrainMetrics() {}

    /** Registers the counters of {@code drain} in {@code registry}. */
    public static void bind(Drain drain, MeterRegistry registry) {
        counter(registry, drain, "fetched", ShutdownReceipt::fetched);
        counter(registry, drain, "done", ShutdownReceipt::done);
        counter(registry, drain, "failed", ShutdownReceipt::failed);
        counter(registry, drain, "handed_back", ShutdownReceipt::handedBack);
        counter(registry, drain, "hand_back_failed", ShutdownReceipt::handBackFailed);
        counter(registry, drain, "duplicate", ShutdownReceipt::duplicates);
        counter(registry, drain, "superseded", ShutdownReceipt::superseded);
    }

    private static void counter(MeterRegistry registry, Drain drain, String outcome, ToDoubleFunction<ShutdownReceipt> count) {
        FunctionCounter.builder("guard.drain.jobs", drain, d -> count.applyAsDouble(d.receipt()))
                .description("Jobs the drain saw, by outcome").tag("worker", drain.config().workerId()).tag("outcome", outcome)
                .register(registry);
    }
}
