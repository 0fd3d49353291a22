/**
 * Micrometer meters for the consumer boundary, usable with or without Spring (micrometer-core is
 * an optional dependency: nothing outside this package uses it).
 *
 * <ul>
 * <li>{@code guard.jobs.received}: receptions recorded by the ledger;</li>
 * <li>{@code guard.jobs.outcome{outcome=processed|rejected|failed|handed_back}}: outcomes recorded;</li>
 * <li>{@code guard.jobs.missing}: receptions still without an outcome (in flight, or lost);</li>
 * <li>{@code guard.deadletter.writes{sink,outcome}} and {@code guard.deadletter.failures{sink,outcome}}:
 *     dead letters the sink confirmed, and those it did not.</li>
 * </ul>
 */
package dev.guard.schema.metrics;
