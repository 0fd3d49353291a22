/**
 * The example stack's worker as a Spring Boot application with guard: its queue, its work and the
 * harness's log lines are code; the config check, the wait, the boundary and the drain come from
 * guard's auto-configuration and {@code thumbnail-worker.properties}.
 */
package dev.guard.examples.spring.guarded;
