package dev.guard;

/**
 * The exit codes of everything guard stops: the {@code guard-init} commands, a worker booted by
 * {@code Guard}, and a drained worker's {@link dev.guard.drain.ShutdownReceipt}. From
 * {@code sysexits.h}, plus the healthcheck and signal conventions. One table, so a restart
 * policy, an alert or a runbook can tell "fix the config" (78) from "the broker is not there"
 * (69) and from "a job may be lost" (70), whichever part of guard said it.
 */
public final class ExitCodes {
    public static final int OK = 0;
    /** healthcheck: not healthy (Compose / Kubernetes convention). */
    public static final int UNHEALTHY = 1;
    public static final int USAGE = 64;
    /** A payload or an example does not match its schema (validate, the boot-time schema self-test). */
    public static final int DATA_ERROR = 65;
    /** validate: a payload file does not exist or cannot be read. */
    public static final int NO_INPUT = 66;
    /** A dependency did not serve before the readiness deadline. */
    public static final int UNAVAILABLE = 69;
    /** Internal failure; for a drained worker: a job could not be handed back or is unaccounted for. */
    public static final int SOFTWARE = 70;
    /** Authentication refused (waiting cannot fix it). */
    public static final int NO_PERMISSION = 77;
    /** Bad configuration: a missing, placeholder, loopback or unparsable setting; a bad target URL; TLS. */
    public static final int CONFIG = 78;
    /** Stopped by SIGINT (128 + 2). */
    public static final int INTERRUPTED = 130;
    /** Stopped by SIGTERM (128 + 15), e.g. the container runtime stopping an init container that is still waiting. */
    public static final int TERMINATED = 143;

    private ExitCodes() {}
}
