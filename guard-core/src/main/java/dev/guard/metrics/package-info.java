/**
 * Micrometer meters for the readiness gate and the drain, usable with or without Spring
 * (micrometer-core is an optional dependency: nothing outside this package uses it). The
 * boundary's meters (the ledger, dead letters) are guard-schema's {@code dev.guard.schema.metrics}.
 *
 * <ul>
 * <li>{@code guard.readiness.ready{kind,target}}: 1 while the target's last state is READY, else 0;</li>
 * <li>{@code guard.readiness.state{kind,target,state}}: 1 for the target's last state, 0 for the others;</li>
 * <li>{@code guard.readiness.wait{kind,target,outcome}}: how long each wait took, by how it ended
 *     ({@code ready}, or the last state of a target that never was);</li>
 * <li>{@code guard.drain.jobs{outcome}}: jobs fetched, done, failed, handed back and whose hand-back failed.</li>
 * </ul>
 */
package dev.guard.metrics;
