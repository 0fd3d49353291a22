package dev.guard.init.diagnose;

/**
 * The connection errors one group's logs hold for one target.
 *
 * @param group the worker type (compose service, pod name without its hash, or file name)
 * @param target {@code host:port} the errors name, {@code LOADING} for LOADING replies, or
 *     {@code (no host)} for errors that name none
 * @param category loopback, not-an-endpoint, service, unverified, no-host, loading or auth
 * @param lines how many lines (not attempts) name it
 * @param first the first such line's time (ISO-8601), or null without timestamps
 * @param last the last such line's time, or null
 * @param firstAt {@code file:line} of the first
 * @param lastAt {@code file:line} of the last
 * @param stopped true when the group got through after the last of them
 */
public record HostErrors(String group, String target, String category, int lines, String first, String last,
        String firstAt, String lastAt, boolean stopped) {}
