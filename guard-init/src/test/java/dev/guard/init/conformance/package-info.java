/**
 * {@code guard-init validate} measured against the JSON Schema Test Suite, run by hand with the
 * suite checked out beside (it is not copied here); see {@link dev.guard.init.conformance.SchemaSuiteRun}.
 */
package dev.guard.init.conformance;
