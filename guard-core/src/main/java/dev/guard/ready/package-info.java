/**
 * The readiness gate: protocol-aware probes for a worker's dependencies and a bounded,
 * parallel wait for all of them, with classified results instead of exceptions.
 */
package dev.guard.ready;
