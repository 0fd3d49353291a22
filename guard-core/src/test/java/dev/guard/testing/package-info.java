/**
 * Real-service test fixtures shared by every module (guard-core's test-jar): private
 * Redis (including a Redis that really answers {@code -LOADING}), NATS and Kafka servers
 * as child processes on free ports, a switchable TCP proxy for refuse / black-hole
 * faults, and checks for the machine's shared services.
 */
package dev.guard.testing;
