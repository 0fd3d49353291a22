/**
 * RabbitMQ as a {@link dev.guard.drain.JobSource}: manual ack after the handler, bounded
 * prefetch, hand-back and crash recovery through the broker's own requeue, interruptions counted
 * and dead-lettered at a limit. amqp-client is an optional dependency, used only here.
 */
package dev.guard.queue.amqp;
