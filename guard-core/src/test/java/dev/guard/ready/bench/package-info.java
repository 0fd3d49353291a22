/** Benchmarks of the readiness gate (mains that print figures; not tests). */
package dev.guard.ready.bench;
