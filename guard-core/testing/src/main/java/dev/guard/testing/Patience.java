package dev.guard.testing;

import java.time.Duration;

/**
 * The bounds tests give things that must happen, named once. They are generous on purpose:
 * a bound that must exist (so a broken build ends instead of hanging) is no claim about speed,
 * and on a busy 2-core CI runner a cold client, a child JVM or a server start can take many
 * times what it takes on a quiet one. Each of these ends early when the awaited thing happens,
 * so a generous bound costs nothing when all is well. Timing claims belong in benchmarks.
 */
public final class Patience {

    /**
     * One probe attempt or client call that is expected to get an answer (a PONG, a refusal,
     * an auth error): the first connection of a client in a JVM loads classes for seconds on a
     * loaded machine, and an answer ends the attempt at once.
     */
    public static final Duration REPLY = Duration.ofSeconds(30);

    /** A whole readiness wait, or a state change, that is expected to be reached. */
    public static final Duration WAIT = Duration.ofSeconds(90);

    /** A server or child JVM to start, stop, or exit on a signal. */
    public static final Duration PROCESS = Duration.ofSeconds(120);

    private Patience() {}
}
