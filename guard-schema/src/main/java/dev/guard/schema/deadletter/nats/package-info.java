/** Dead letters to a NATS subject (jnats), core or JetStream; the only package that imports jnats. */
package dev.guard.schema.deadletter.nats;
