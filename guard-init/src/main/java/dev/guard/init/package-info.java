/** guard-init, the standalone CLI: check-env, wait, healthcheck, validate (and diagnose, capture) for init containers, Compose one-shots and healthchecks. */
package dev.guard.init;
