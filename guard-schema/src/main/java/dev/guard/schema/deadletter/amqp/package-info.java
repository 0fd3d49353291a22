/** Dead letters to a RabbitMQ exchange or queue (amqp-client); the only package that imports it. */
package dev.guard.schema.deadletter.amqp;
