package dev.guard.init.diagnose;

/**
 * What one connection error is about: its kind and the host it names, or the host of the URL the
 * worker logged before it ({@code fromBoot}), or none ({@code host} null).
 */
record ErrorKey(Signal.Type type, String host, int port, boolean fromBoot) {}
