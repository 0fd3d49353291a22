/**
 * Validation of job payloads against JSON Schemas registered by job type ({@link dev.guard.schema.Schemas}),
 * with three distinct verdicts (accepted, invalid, malformed), rename/type-change hints and a
 * boot-time self-test.
 */
package dev.guard.schema;
