package dev.guard.drain;

import dev.guard.GuardLog;
import java.util.Objects;
import java.util.Optional;
import org.slf4j.Logger;

/**
 * The check guard's worker loops run before a source takes its first job: does the broker keep
 * what the source holds ({@link JobSource#durability()})? A source on a broker that loses its
 * queue on restart stops the start by default; {@link CheckLevel#WARN} logs the same report and starts.
 */
public final class DurabilityCheck {

    private static final Logger LOG = GuardLog.logger("guard");

    /** Environment variable (and {@code guard.persistence-check}) for the {@link CheckLevel}: error, warn, off. */
    public static final String ENV = "GUARD_PERSISTENCE_CHECK";

    /**
     * The {@link CheckLevel} in {@code value}: {@code error}, {@code warn} or {@code off}, any case.
     * Error (the default) because every job such a broker holds is lost, silently, on its restart;
     * warn for a queue whose jobs can be re-created, a test bench.
     *
     * @throws IllegalArgumentException naming {@code origin} and the values allowed
     */
    public static CheckLevel parseLevel(String value, String origin) {
        return CheckLevel.parse(value, origin, ENV, "a worker whose broker would lose its jobs on a restart");
    }

    private DurabilityCheck() {}

    /**
     * Asks {@code source} what its broker keeps and judges it at {@code level}.
     *
     * @param allow how to start anyway, in the caller's words ({@code GUARD_PERSISTENCE_CHECK=warn})
     * @return the report to stop with, when the source must not start; empty when it may
     */
    public static Optional<String> refusal(JobSource<?> source, CheckLevel level, String consumer, String allow) {
        Objects.requireNonNull(source, "source");
        return refusal(source::durability, source.getClass().getSimpleName(),
                "the broker would lose this worker's jobs on a restart, so it takes none", level, consumer, allow);
    }

    /**
     * Asks a {@link CompletionStore} what it keeps: one that forgets its records on a restart runs
     * every job given out again after that restart a second time.
     */
    public static Optional<String> refusal(CompletionStore<?> store, CheckLevel level, String consumer, String allow) {
        Objects.requireNonNull(store, "store");
        return refusal(store::durability, store.getClass().getSimpleName(), "the completion store would forget which"
                + " jobs are done on a restart (every job given out again after it would run again), so this worker"
                + " takes none", level, consumer, allow);
    }

    private static Optional<String> refusal(java.util.function.Supplier<Durability> ask, String name, String lead,
            CheckLevel level, String consumer, String allow) {
        if (level == CheckLevel.OFF) {
            return Optional.empty();
        }
        Durability d;
        try {
            d = ask.get();
        } catch (RuntimeException e) {
            d = Durability.unknown(name, "asking failed: " + e, "");
        }
        switch (d.verdict()) {
            case KEPT -> LOG.info("guard: {} durability: {}", consumer, oneLine(d));
            case NOT_REPORTED -> LOG.debug("guard: {} durability: {}", consumer, oneLine(d));
            case UNKNOWN -> LOG.warn("guard: {} durability: {}", consumer, d.render());
            case LOST_ON_RESTART -> {
                if (level == CheckLevel.ERROR) {
                    return Optional.of(lead + ":\n" + d.render() + "\n  to start anyway: " + allow);
                }
                LOG.warn("guard: {} durability (starting anyway, {}=warn): {}", consumer, ENV, d.render());
            }
        }
        return Optional.empty();
    }

    private static String oneLine(Durability d) {
        return d.broker() + ": " + d.found();
    }
}
