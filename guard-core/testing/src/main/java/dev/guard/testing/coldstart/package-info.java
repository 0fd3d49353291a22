/**
 * The cold-start harness: starts a stack from nothing in a random order (any worker command, the
 * team's producer), enqueues test jobs and reconciles every job id against what the stack's
 * results and dead-letter stores hold (plain API {@link dev.guard.testing.coldstart.ColdStart} and JUnit 5
 * {@link dev.guard.testing.coldstart.ColdStartTest}). What the harness and a stack agree on is
 * {@link dev.guard.testing.coldstart.StackContract}.
 */
package dev.guard.testing.coldstart;
