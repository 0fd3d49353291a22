/**
 * Internals shared by the per-client probe packages (exception classification, optional
 * client checks, URL helpers); not API, may change without notice.
 */
package dev.guard.ready.internal;
