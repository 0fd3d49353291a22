package dev.guard.init;

/** Exit codes of guard-init, from sysexits.h, plus the healthcheck convention. */
public final class ExitCodes {
    public static final int OK = 0;
    /** healthcheck: not healthy (Compose / Kubernetes convention). */
    public static final int UNHEALTHY = 1;
    public static final int USAGE = 64;
    public static final int DATA_ERROR = 65;
    /** validate: a payload file does not exist or cannot be read. */
    public static final int NO_INPUT = 66;
    public static final int UNAVAILABLE = 69;
    public static final int SOFTWARE = 70;
    public static final int NO_PERMISSION = 77;
    public static final int CONFIG = 78;
    /** Stopped by SIGINT (128 + 2). */
    public static final int INTERRUPTED = 130;
    /** Stopped by SIGTERM (128 + 15), e.g. the container runtime stopping an init container that is still waiting. */
    public static final int TERMINATED = 143;

    private ExitCodes() {}
}
