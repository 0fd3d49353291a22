package dev.guard.init.diagnose;

/**
 * A line that decided something.
 *
 * @param at {@code file:line}
 * @param why what it showed
 * @param text the line as captured, secrets masked
 */
public record Evidence(String at, String why, String text) {}
