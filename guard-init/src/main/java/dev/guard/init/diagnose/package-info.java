/**
 * Reads captured worker, dependency and platform logs and names why jobs went missing: the
 * runbook's discriminating checks (which host each connection error names, whether the errors
 * stop, whether Redis said it was loading, received versus processed) as code.
 */
package dev.guard.init.diagnose;
