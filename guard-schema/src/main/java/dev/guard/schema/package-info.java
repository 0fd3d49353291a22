/**
 * Validation of job payloads against JSON Schemas registered by job type ({@link dev.guard.schema.Schemas}),
 * with three distinct verdicts (accepted, invalid, malformed), the parsed {@link dev.guard.schema.Payload}
 * in plain Java types, rename/type-change hints and a boot-time self-test; and the words the
 * boundary and the dead-letter sinks share: a job's {@link dev.guard.schema.Outcome} and where it came
 * from ({@link dev.guard.schema.SourceInfo}).
 */
package dev.guard.schema;
