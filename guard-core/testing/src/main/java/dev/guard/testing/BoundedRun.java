package dev.guard.testing;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Test helper: runs a child process with its stdout and stderr going to a file (so a child that
 * hangs, or writes more than a pipe holds, never blocks the test on a read) and waits for it at
 * most a bound; past the bound the child and its descendants are killed and the test fails with
 * what it had printed.
 */
public final class BoundedRun {
    /** Exit code and the merged stdout+stderr. */
    public record Result(int exit, String output) {}

    private BoundedRun() {}

    /** Runs {@code command} (inheriting this JVM's environment). */
    public static Result run(List<String> command, Duration bound) throws IOException, InterruptedException {
        return run(new ProcessBuilder(command), bound);
    }

    /**
     * Runs what {@code builder} describes (its command, environment and directory); its stdin,
     * stdout and stderr are set here: /dev/null in, both outputs to one file.
     */
    public static Result run(ProcessBuilder builder, Duration bound) throws IOException, InterruptedException {
        List<String> command = builder.command();
        Path log = Files.createTempFile("guard-test-child", ".log");
        try {
            Process p = builder
                    .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                    .redirectErrorStream(true)
                    .redirectOutput(log.toFile())
                    .start();
            try {
                if (!p.waitFor(bound.toMillis(), TimeUnit.MILLISECONDS)) {
                    kill(p);
                    throw new AssertionError(String.join(" ", command) + " did not exit within " + bound.toSeconds()
                            + " s (killed); its output:\n" + read(log));
                }
                return new Result(p.exitValue(), read(log));
            } finally {
                if (p.isAlive()) {
                    kill(p);
                }
            }
        } finally {
            Files.deleteIfExists(log);
        }
    }

    private static void kill(Process p) throws InterruptedException {
        p.toHandle().descendants().forEach(ProcessHandle::destroyForcibly);
        p.destroyForcibly();
        p.waitFor(10, TimeUnit.SECONDS);
    }

    private static String read(Path log) {
        try {
            return Files.readString(log, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("could not read the child's output " + log, e);
        }
    }
}
