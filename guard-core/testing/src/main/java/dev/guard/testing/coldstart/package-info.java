/**
 * The cold-start harness: starts a stack from nothing in a random order, enqueues test jobs and
 * reconciles every job id (plain API {@link dev.guard.testing.coldstart.ColdStart} and JUnit 5
 * {@link dev.guard.testing.coldstart.ColdStartTest}). What the harness and a stack agree on is
 * {@link dev.guard.testing.coldstart.StackContract}.
 */
package dev.guard.testing.coldstart;
