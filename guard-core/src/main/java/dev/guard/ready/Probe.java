package dev.guard.ready;

import java.time.Duration;

/**
 * One dependency and the protocol exchange that proves it serves. Built probes are
 * immutable configuration; they may hold a reusable client resource, released by
 * {@link #close()}, and recreated lazily on the next check.
 */
public interface Probe extends AutoCloseable {

    /** Short kind: {@code redis}, {@code amqp}, {@code nats}, {@code kafka}, {@code tcp}, {@code http}. */
    String kind();

    /** Where it points, as printable text ({@code redis:6379}); never carries a password. */
    String target();

    /**
     * One attempt, bounded by {@code attemptTimeout}. Never throws: every exception becomes a
     * classified {@link ProbeResult} (attempt 1, elapsed = this attempt's duration).
     */
    ProbeResult check(Duration attemptTimeout);

    /** Releases reusable resources (event loops, clients). Never throws. Default: nothing. */
    @Override
    default void close() {}
}
