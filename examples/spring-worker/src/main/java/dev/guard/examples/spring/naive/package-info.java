/**
 * The negative control: the same Spring Boot worker as the incident write-ups have it
 * ({@code ${CACHE_URL:redis://localhost:6379}}, one connection attempt, BRPOP, a broad catch), guard
 * on the class path but turned off. The cold-start harness shows it losing every job.
 */
package dev.guard.examples.spring.naive;
