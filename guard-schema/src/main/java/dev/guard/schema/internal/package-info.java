/**
 * Implementation details of guard-schema (strict JSON reading, rename hints); not API, may change
 * without notice.
 */
package dev.guard.schema.internal;
