/**
 * Kafka as a {@link dev.guard.drain.JobSource}: commit after the handler, per partition and in
 * order, from one poll thread that keeps the group membership through long jobs (pause/resume),
 * hand-back by seeking back, and a rebalance listener that drops what was revoked.
 * kafka-clients is an optional dependency, used only here.
 */
package dev.guard.queue.kafka;
