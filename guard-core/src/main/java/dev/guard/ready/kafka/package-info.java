/**
 * The Kafka probe (kafka-clients AdminClient, optional dependency): cluster metadata with at
 * least N brokers and a controller; optional topics with a leader on every partition.
 */
package dev.guard.ready.kafka;
