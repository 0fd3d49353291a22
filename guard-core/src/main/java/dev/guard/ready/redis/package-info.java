/**
 * The Redis probe (lettuce, optional dependency): PING must answer PONG; {@code -LOADING}
 * is its own state with progress; optional key that must exist.
 */
package dev.guard.ready.redis;
