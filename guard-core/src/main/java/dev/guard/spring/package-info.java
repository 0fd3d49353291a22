/**
 * Spring Boot auto-configuration (Boot 3.5 and 4.0): guard's config check over Spring's
 * {@code Environment} before any bean exists, with a {@code FailureAnalyzer}; the readiness gate
 * as a lifecycle bean that holds the listener containers until their brokers serve; health
 * contributors built on guard's probes. Spring Boot is an optional dependency: nothing outside
 * this package uses it, and Spring loads it only from its own registration files.
 */
package dev.guard.spring;
