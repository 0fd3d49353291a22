package dev.guard.init;

import dev.guard.ExitCodes;
import java.util.concurrent.atomic.AtomicReference;

/**
 * SIGTERM/SIGINT handling for {@link GuardInit#main}: as PID 1 of a container, the JVM must stop
 * when the runtime sends TERM, at once, and say so. The handler records the signal, interrupts the
 * main thread (the running command stops waiting and prints its summary), and halts the JVM with
 * {@code 128 + signal} if the command has not returned within {@link #GRACE_MS}.
 */
final class Signals {
    static final long GRACE_MS = 500;

    private Signals() {}

    static void install(Thread main, AtomicReference<String> stoppedBy) {
        for (String name : new String[] {"TERM", "INT"}) {
            try {
                sun.misc.Signal.handle(new sun.misc.Signal(name), sig -> {
                    if (!stoppedBy.compareAndSet(null, "SIG" + name)) {
                        Runtime.getRuntime().halt(exitCode("SIG" + name)); // a second signal: stop now
                    }
                    main.interrupt();
                    Thread watchdog = new Thread(() -> {
                        try {
                            main.join(GRACE_MS);
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                        }
                        if (main.isAlive()) {
                            System.err.println("guard-init: stopped by SIG" + name + " (the command did not return within "
                                    + GRACE_MS + " ms)");
                            System.err.flush();
                            Runtime.getRuntime().halt(exitCode("SIG" + name));
                        }
                    }, "guard-init-signal-watchdog");
                    watchdog.setDaemon(true);
                    watchdog.start();
                });
            } catch (IllegalArgumentException | UnsupportedOperationException | LinkageError e) {
                // no such signal here (or the JVM reserves it, e.g. with -Xrs): keep the JVM's default, which exits 128+n
            }
        }
    }

    /** 143 for SIGTERM, 130 for SIGINT. */
    static int exitCode(String signal) {
        return "SIGINT".equals(signal) ? ExitCodes.INTERRUPTED : ExitCodes.TERMINATED;
    }
}
