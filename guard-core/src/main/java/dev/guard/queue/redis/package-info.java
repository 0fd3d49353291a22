/**
 * Redis job queues for a draining worker (Lettuce; the only package that imports it): a list
 * with a fallback list for hand-back, a crash-safe list (BLMOVE into a per-worker processing
 * list, heartbeat leases, a reaper that returns a dead worker's jobs and dead-letters jobs
 * interrupted too often), and a Streams queue with consumer groups.
 */
package dev.guard.queue.redis;
