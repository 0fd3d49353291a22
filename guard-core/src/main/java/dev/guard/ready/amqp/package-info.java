/**
 * The RabbitMQ probe (amqp-client, optional dependency): AMQP handshake and a channel;
 * optional queues and exchanges that must exist (passive declare).
 */
package dev.guard.ready.amqp;
