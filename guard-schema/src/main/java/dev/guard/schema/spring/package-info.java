/**
 * The consumer boundary in a Spring Boot application (Boot 3.5 and 4.0): {@code Schemas},
 * {@code Ledger} and {@code JobBoundary} as beans from {@code guard.boundary.*}, the ledger as the
 * Actuator endpoint {@code ledger}, its meters when a {@code MeterRegistry} is a bean, and
 * {@link dev.guard.schema.spring.GuardWorker}: guard's worker loop as a lifecycle bean that drains
 * within the grace period when the context stops. Spring Boot is an optional dependency: nothing
 * outside this package uses it.
 */
package dev.guard.schema.spring;
