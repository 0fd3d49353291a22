package dev.guard.queue.redis;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** A real child JVM running a main class from the test classpath, so signals are real. */
final class ChildJvm implements AutoCloseable {

    private final Process process;
    private final List<String> lines = new ArrayList<>();

    private ChildJvm(Process process) {
        this.process = process;
        Thread reader = new Thread(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = r.readLine()) != null) {
                    synchronized (lines) {
                        lines.add(line);
                        lines.notifyAll();
                    }
                }
            } catch (IOException ignored) {
                // process gone
            }
        }, "child-output");
        reader.setDaemon(true);
        reader.start();
    }

    /**
     * Starts {@code main} in a new JVM with SIGHUP at its default disposition. A JVM installs its
     * shutdown-on-HUP handler only when HUP is not ignored at its start, and children inherit an
     * ignored HUP from {@code nohup} or a CI agent; {@code perl} (Debian's essential perl-base)
     * resets it and execs the JVM, which keeps perl's pid.
     */
    static ChildJvm start(Class<?> main, String... args) throws IOException {
        List<String> cmd = new ArrayList<>(List.of(
                "perl", "-e", "$SIG{HUP} = 'DEFAULT'; exec { $ARGV[0] } @ARGV or die \"exec $ARGV[0]: $!\\n\"",
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"),
                "-Xmx64m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
                "-Dorg.apache.logging.log4j.level=INFO",
                main.getName()));
        cmd.addAll(List.of(args));
        return new ChildJvm(new ProcessBuilder(cmd).redirectErrorStream(true).start());
    }

    long pid() {
        return process.pid();
    }

    /** Waits for a line containing {@code text}; fails with the output so far. */
    String awaitLine(String text, Duration max) throws InterruptedException {
        long until = System.nanoTime() + max.toNanos();
        synchronized (lines) {
            while (true) {
                for (String l : lines) {
                    if (l.contains(text)) {
                        return l;
                    }
                }
                long left = until - System.nanoTime();
                if (left <= 0) {
                    throw new AssertionError("child pid " + pid() + " printed no line containing '" + text + "' within "
                            + max.toMillis() + " ms; output:\n" + output());
                }
                TimeUnit.NANOSECONDS.timedWait(lines, left);
            }
        }
    }

    String output() {
        synchronized (lines) {
            return String.join("\n", lines);
        }
    }

    /** SIGTERM, through the ProcessHandle: Process.destroy() would also close our end of the child's output. */
    void sigterm() {
        process.toHandle().destroy();
    }

    /** SIGKILL, through the ProcessHandle (keeps the output readable). */
    void sigkill() {
        process.toHandle().destroyForcibly();
    }

    int awaitExit(Duration max) throws InterruptedException {
        if (!process.waitFor(max.toMillis(), TimeUnit.MILLISECONDS)) {
            throw new AssertionError("child pid " + pid() + " did not exit within " + max.toMillis() + " ms; output:\n" + output());
        }
        return process.exitValue();
    }

    @Override
    public void close() throws InterruptedException {
        if (process.isAlive()) {
            process.destroyForcibly();
            process.waitFor(10, TimeUnit.SECONDS);
        }
    }
}
