/**
 * Graceful drain for queue workers: a SIGTERM/SIGINT handler that only sets state, a deadline
 * (grace period minus a safety margin) that jobs check between steps, hand-back of unfinished
 * jobs, and a shutdown receipt (fetched, done, handed back, failed to hand back).
 */
package dev.guard.drain;
