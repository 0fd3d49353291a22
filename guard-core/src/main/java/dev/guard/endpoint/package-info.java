/**
 * Endpoints, the one place guard knows them: how a URL, a {@code host:port}, a bare host or a
 * list of them is parsed ({@link Endpoints}), which hosts only reach this machine
 * ({@link Loopback}), and which schemes, default ports, service words and client artifacts
 * belong to which broker ({@link Broker}, {@link Scheme}). The config guard, the readiness
 * probes and {@code guard-init diagnose} all answer these questions through this package, so
 * they cannot disagree.
 */
package dev.guard.endpoint;
