/** The example stack: a backend that populates Redis and enqueues jobs, a guarded worker, and a naive worker written the way the incident write-ups' teams wrote it. */
package dev.guard.examples.stack;
