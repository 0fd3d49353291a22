/**
 * The example stack: a backend that populates Redis and enqueues jobs, a guarded worker, a naive
 * worker written the way the incident write-ups' teams wrote it, and {@link dev.guard.examples.stack.Demo},
 * the README's demo, which runs this stack through the cold-start harness. The stack uses the
 * harness; the harness does not know this stack.
 */
package dev.guard.examples.stack;
