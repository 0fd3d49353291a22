/**
 * One call in a worker's {@code main}: {@link dev.guard.worker.Guard#boot(GuardSpec)} checks the
 * configuration and the signal path, self-tests the schemas, installs the drain, waits for the
 * dependencies, and returns what the worker loop needs, or exits with the documented code
 * ({@link dev.guard.ExitCodes}) after printing why.
 */
package dev.guard.worker;
