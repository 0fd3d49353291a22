/** JMH benchmark of payload validation (run with {@code -Pbench}, see guard-schema/README.md). */
package dev.guard.schema.bench;
