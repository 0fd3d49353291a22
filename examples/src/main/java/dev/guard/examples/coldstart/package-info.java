/** The cold-start harness: starts a stack from nothing in a random order, enqueues test jobs and reconciles every job id (plain API and JUnit 5 extension). */
package dev.guard.examples.coldstart;
