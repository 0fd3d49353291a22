/**
 * Dead letters: the original payload, unchanged, with the reason beside it, and the
 * {@link dev.guard.schema.deadletter.DeadLetterSink} interface. One sub-package per broker (redis,
 * amqp, kafka, nats); each is the only importer of its optional client library.
 */
package dev.guard.schema.deadletter;
