package dev.guard.init;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * Test helper: runs an image's entrypoint the way a container runtime does, as PID 1 of a fresh
 * PID namespace, in the unpacked root filesystem, as the image's user, with the image's Env only:
 *
 * <pre>
 * [/usr/bin/time -f '%e %M'] unshare --pid --fork --mount --propagation private \
 *   sh -c 'mount --rbind /dev R/dev; mount -t proc proc R/proc;
 *          exec env -i ENV... unshare --root=R --wd=/ --setgid=G --setuid=U -- ENTRYPOINT... ARGS...'
 * </pre>
 *
 * The {@code sh} execs (no shell stays as PID 1), the mounts live and die with the mount namespace.
 * No {@code --kill-child}: util-linux then leaves SIGTERM blocked in the child.
 */
final class Pid1Run implements AutoCloseable {
    private static final String SCRIPT = "set -e; r=$1; u=$2; shift 2; "
            + "mount --rbind /dev \"$r/dev\"; mount -t proc proc \"$r/proc\"; "
            + "exec \"$@\"";

    final Process process;
    final Path stdout;
    final Path stderr;
    final Path timeFile;

    private Pid1Run(Process process, Path stdout, Path stderr, Path timeFile) {
        this.process = process;
        this.stdout = stdout;
        this.stderr = stderr;
        this.timeFile = timeFile;
    }

    /** Starts the image's entrypoint with {@code args}; {@code measure} wraps it in GNU time. */
    static Pid1Run start(OciImage image, Path rootfs, Path logDir, boolean measure, List<String> args) throws IOException {
        List<String> command = new ArrayList<>(image.entrypoint());
        command.addAll(args);
        return exec(image, rootfs, logDir, measure, command);
    }

    /** Runs {@code command} (an absolute path inside the image, then its arguments) as the entrypoint would be. */
    static Pid1Run exec(OciImage image, Path rootfs, Path logDir, boolean measure, List<String> command) throws IOException {
        String[] user = image.user().split(":");
        List<String> cmd = new ArrayList<>();
        Path timeFile = null;
        Files.createDirectories(logDir);
        if (measure) {
            if (!Files.isExecutable(Path.of("/usr/bin/time"))) {
                throw new IllegalStateException("/usr/bin/time is missing: apt-get install time");
            }
            timeFile = Files.createTempFile(logDir, "time", ".txt");
            cmd.addAll(List.of("/usr/bin/time", "-o", timeFile.toString(), "-f", "%e %M"));
        }
        cmd.addAll(List.of("unshare", "--pid", "--fork", "--mount", "--propagation", "private",
                "sh", "-c", SCRIPT, "sh", rootfs.toString(), image.user()));
        cmd.add("env");
        cmd.add("-i");
        cmd.addAll(image.env());
        cmd.addAll(List.of("unshare", "--root=" + rootfs, "--wd=/", "--setgid=" + user[1], "--setuid=" + user[0], "--"));
        cmd.addAll(command);
        Path out = Files.createTempFile(logDir, "stdout", ".txt");
        Path err = Files.createTempFile(logDir, "stderr", ".txt");
        Process p = new ProcessBuilder(cmd)
                .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
                .redirectOutput(out.toFile())
                .redirectError(err.toFile())
                .start();
        return new Pid1Run(p, out, err, timeFile);
    }

    /** The JVM's host-side process, once it has exec'd: the {@code /opt/java/bin/java} descendant. */
    Optional<ProcessHandle> jvm(Duration within) throws InterruptedException {
        long deadline = System.nanoTime() + within.toNanos();
        while (System.nanoTime() < deadline) {
            Optional<ProcessHandle> jvm = process.toHandle().descendants()
                    .filter(h -> h.info().command().map(c -> c.endsWith("/opt/java/bin/java")).orElse(false)
                            || cmdline(h).startsWith("/opt/java/bin/java"))
                    .findFirst();
            if (jvm.isPresent()) {
                return jvm;
            }
            Thread.sleep(10);
        }
        return Optional.empty();
    }

    static String cmdline(ProcessHandle h) {
        try {
            return new String(Files.readAllBytes(Path.of("/proc/" + h.pid() + "/cmdline"))).replace('\0', ' ');
        } catch (IOException e) {
            return "";
        }
    }

    /** A field of /proc/PID/status ("NSpid", "Uid", "VmHWM"), or "" once the process is gone. */
    static String status(ProcessHandle h, String field) {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/" + h.pid() + "/status"))) {
                if (line.startsWith(field + ":")) {
                    return line.substring(field.length() + 1).trim();
                }
            }
        } catch (IOException e) {
            return "";
        }
        return "";
    }

    /** Waits for the exit; on timeout kills the whole tree and fails. */
    int waitFor(Duration max) throws InterruptedException {
        if (!process.waitFor(max.toMillis(), TimeUnit.MILLISECONDS)) {
            close();
            throw new AssertionError("guard-init in the image did not exit within " + max + "; stdout: " + out()
                    + " stderr: " + err());
        }
        return process.exitValue();
    }

    String out() {
        return read(stdout);
    }

    String err() {
        return read(stderr);
    }

    /** GNU time's "%e %M": wall seconds and peak RSS in KiB. */
    String[] timeFigures() {
        return read(timeFile).trim().split("\\s+");
    }

    private static String read(Path p) {
        try {
            return p == null ? "" : Files.readString(p);
        } catch (IOException e) {
            return "<unreadable " + p + ": " + e + ">";
        }
    }

    @Override
    public void close() {
        process.toHandle().descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
        try {
            process.waitFor(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
