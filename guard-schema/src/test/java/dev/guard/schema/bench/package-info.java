/** JMH benchmark of payload validation (run with {@code -Pbench}, see the README). */
package dev.guard.schema.bench;
