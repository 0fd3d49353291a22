/** Dead letters to a Kafka topic (kafka-clients); the only package that imports kafka-clients. */
package dev.guard.schema.deadletter.kafka;
