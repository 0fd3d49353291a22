/**
 * The scale-down experiment: 50 worker JVMs on a real Redis list, scale-down events that send
 * real SIGTERM/SIGKILL, four worker modes, reconciliation by job id; plus a fetch benchmark.
 */
package dev.guard.examples.scaledown;
