package dev.guard.testing;

import java.time.Duration;

/** One running server of a fixture: a local child process, or a container where Docker runs. */
interface Child {

    boolean isAlive();

    /** How it ended, for messages ({@code exit code 1}); meaningful once {@link #isAlive()} is false. */
    String exitStatus();

    /** SIGTERM, wait up to {@code grace}, then SIGKILL; returns once it is gone. */
    void terminate(Duration grace);

    /** SIGKILL; returns once it is gone. */
    void kill();

    /** A local process started by {@link Children#spawn}. */
    static Child local(Process process) {
        return new Child() {
            @Override
            public boolean isAlive() {
                return process.isAlive();
            }

            @Override
            public String exitStatus() {
                return process.isAlive() ? "still running" : "exit code " + process.exitValue();
            }

            @Override
            public void terminate(Duration grace) {
                Children.terminate(process, grace);
            }

            @Override
            public void kill() {
                Children.kill(process);
            }

            @Override
            public String toString() {
                return "pid " + process.pid();
            }
        };
    }
}
