/**
 * The NATS probe (jnats, optional dependency): connect, a PING/PONG round trip (flush),
 * optional JetStream stream that must exist.
 */
package dev.guard.ready.nats;
