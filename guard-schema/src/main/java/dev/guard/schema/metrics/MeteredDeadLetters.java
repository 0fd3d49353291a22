package dev.guard.schema.metrics;

import dev.guard.schema.deadletter.DeadLetter;
import dev.guard.schema.deadletter.DeadLetterException;
import dev.guard.schema.deadletter.DeadLetterSink;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.Objects;

/**
 * A dead-letter sink that counts what its delegate confirmed ({@code guard.deadletter.writes})
 * and what it did not ({@code guard.deadletter.failures}), by sink name and the letter's outcome.
 * The failure is rethrown as it was: counting changes nothing about hand-back.
 */
public final class MeteredDeadLetters implements DeadLetterSink {

    private final DeadLetterSink delegate;
    private final String sink;
    private final MeterRegistry registry;

    /**
     * @param sink a name for the destination in the meters' tags ({@code jobs:dead}, {@code orders.dlq});
     *             never a URL with a password
     */
    public MeteredDeadLetters(DeadLetterSink delegate, String sink, MeterRegistry registry) {
        this.delegate = Objects.requireNonNull(delegate, "delegate");
        this.sink = Objects.requireNonNull(sink, "sink");
        this.registry = Objects.requireNonNull(registry, "registry");
    }

    @Override
    public void write(DeadLetter letter) throws DeadLetterException {
        String outcome = letter.outcome() == null ? "unknown" : letter.outcome().label();
        try {
            delegate.write(letter);
        } catch (RuntimeException e) { // DeadLetterException is one
            counter("guard.deadletter.failures", "Dead letters the sink did not confirm", outcome).increment();
            throw e;
        }
        counter("guard.deadletter.writes", "Dead letters the sink confirmed", outcome).increment();
    }

    private Counter counter(String name, String description, String outcome) {
        return Counter.builder(name).description(description).tag("sink", sink).tag("outcome", outcome).register(registry);
    }
}
