/** The cold-start harness: starts a stack from nothing in a random order, enqueues test jobs and reconciles every job id (plain API, JUnit 5 extension, and the README's demo). */
package dev.guard.examples.coldstart;
