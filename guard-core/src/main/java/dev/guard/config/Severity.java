package dev.guard.config;

/** How bad a violation is: an {@link #ERROR} stops the boot, a {@link #WARNING} is reported only. */
public enum Severity {
    ERROR,
    WARNING
}
