/**
 * NATS JetStream as a {@link dev.guard.drain.JobSource}: a durable pull consumer, ack after the
 * handler, nak on hand-back, AckWait as the crash-recovery bound, in-progress acks for long jobs.
 * jnats is an optional dependency, used only here.
 */
package dev.guard.queue.nats;
