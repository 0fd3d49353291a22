package dev.guard.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.ProcessBuilder.Redirect;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Child processes of the fixtures: spawn, stop, kill, and a JVM shutdown hook that kills
 * whatever is still alive so no server outlives the test JVM.
 */
public final class Children {

    private static final Set<Process> LIVE = ConcurrentHashMap.newKeySet();

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(Children::killAll, "guard-fixtures-reaper"));
    }

    private Children() {}

    /** Starts {@code command} in {@code workDir}, stdout and stderr appended to {@code output}. */
    static Process spawn(List<String> command, Path workDir, Path output) {
        ProcessBuilder builder = new ProcessBuilder(command)
                .directory(workDir.toFile())
                .redirectErrorStream(true)
                .redirectOutput(Redirect.appendTo(output.toFile()))
                .redirectInput(Redirect.from(new java.io.File("/dev/null")));
        try {
            Process process = builder.start();
            LIVE.add(process);
            process.onExit().thenRun(() -> LIVE.remove(process));
            startWatchdog(process);
            return process;
        } catch (IOException e) {
            throw new IllegalStateException("could not start " + command.get(0) + ": " + e.getMessage(), e);
        }
    }

    /**
     * A tiny shell loop that SIGKILLs the child if this JVM dies without running its shutdown
     * hooks (SIGKILL of the test JVM, e.g. a surefire fork timeout); ends when the child ends.
     */
    private static void startWatchdog(Process child) {
        String script = "while kill -0 \"$1\" 2>/dev/null && kill -0 \"$2\" 2>/dev/null; do sleep 1; done; "
                + "kill -0 \"$2\" 2>/dev/null && kill -9 \"$2\"; exit 0";
        try {
            new ProcessBuilder("/bin/sh", "-c", script, "guard-fixture-watchdog",
                    Long.toString(ProcessHandle.current().pid()), Long.toString(child.pid()))
                    .redirectErrorStream(true)
                    .redirectOutput(Redirect.DISCARD)
                    .redirectInput(Redirect.from(new java.io.File("/dev/null")))
                    .start();
        } catch (IOException e) {
            // no /bin/sh: the shutdown hook still covers normal JVM exits
        }
    }

    /** SIGTERM, wait up to {@code grace}, then SIGKILL (process and its descendants). */
    static void terminate(Process process, Duration grace) {
        if (process == null) {
            return;
        }
        List<ProcessHandle> descendants = process.descendants().toList();
        process.destroy();
        if (!waitFor(process, grace)) {
            kill(process);
        }
        descendants.forEach(ProcessHandle::destroyForcibly);
    }

    /** SIGKILL the process and its descendants, and wait until it is gone. */
    static void kill(Process process) {
        if (process == null) {
            return;
        }
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
        if (!waitFor(process, Duration.ofSeconds(10))) {
            throw new IllegalStateException("process " + process.pid() + " survived SIGKILL for 10 s");
        }
    }

    static boolean waitFor(Process process, Duration max) {
        try {
            return process.waitFor(max.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return !process.isAlive();
        }
    }

    private static void killAll() {
        for (Process process : List.copyOf(LIVE)) {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
        }
    }

    /**
     * The local binary {@code name} when it exists, else empty meaning "use a container"
     * when a Docker engine answers; throws naming what to install when neither is there.
     * System property {@code guard.fixtures.backend} = {@code local} / {@code docker} forces one.
     */
    static Optional<Path> localOrDocker(String name, String installHint) {
        String forced = System.getProperty("guard.fixtures.backend", "auto").trim().toLowerCase(java.util.Locale.ROOT);
        Optional<Path> local = findBinary(name);
        if (!forced.equals("docker") && local.isPresent()) {
            sayPath(name, "local " + local.get() + " (guard.fixtures.backend=" + forced + ")");
            return local;
        }
        if (!forced.equals("local") && ContainerChild.dockerAvailable()) {
            sayPath(name, "in a Testcontainers container (guard.fixtures.backend=" + forced
                    + (local.isPresent() ? "" : ", no local binary") + ")");
            return Optional.empty();
        }
        throw new IllegalStateException(name + " not found in PATH, /usr/sbin, /usr/bin or /usr/local/bin"
                + (forced.equals("local") ? "" : ", and no Docker engine answers (Testcontainers)")
                + " (guard.fixtures.backend=" + forced + "): the test fixture needs a private " + name
                + ". Install it (" + installHint + "), or run where a Docker engine is available.");
    }

    private static final Set<String> SAID = ConcurrentHashMap.newKeySet();

    /** Prints, once per binary and JVM, which path the fixtures take. */
    private static void sayPath(String name, String path) {
        if (SAID.add(name + " " + path)) {
            System.out.println("[fixtures] " + name + ": " + path);
        }
    }

    /** Executable {@code name} from PATH, /usr/sbin, /usr/bin or /usr/local/bin. */
    public static Optional<Path> findBinary(String name) {
        List<Path> dirs = new ArrayList<>();
        String path = System.getenv("PATH");
        if (path != null) {
            for (String dir : path.split(java.io.File.pathSeparator)) {
                if (!dir.isEmpty()) {
                    dirs.add(Paths.get(dir));
                }
            }
        }
        dirs.add(Paths.get("/usr/sbin"));
        dirs.add(Paths.get("/usr/bin"));
        dirs.add(Paths.get("/usr/local/bin"));
        return dirs.stream().map(dir -> dir.resolve(name)).filter(Files::isExecutable).findFirst();
    }

    /** A fresh directory for one server: under {@code guard.build.dir}/fixtures when set, else the temp dir. */
    static Path tempDir(String prefix) {
        try {
            String buildDir = System.getProperty("guard.build.dir");
            if (buildDir != null && !buildDir.isBlank()) {
                Path base = Paths.get(buildDir, "fixtures");
                Files.createDirectories(base);
                return Files.createTempDirectory(base, prefix);
            }
            return Files.createTempDirectory(prefix);
        } catch (IOException e) {
            throw new UncheckedIOException("could not create a temp dir for " + prefix, e);
        }
    }

    static void deleteTree(Path dir) {
        if (dir == null || !Files.exists(dir)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException | UncheckedIOException e) {
            // best effort: a temp dir left behind is not worth failing a test for
        }
    }

    /** The last {@code lines} lines of a log file, or a note that it is missing. */
    static String tail(Path file, int lines) {
        try {
            if (file == null || !Files.exists(file)) {
                return "(no log at " + file + ")";
            }
            List<String> all = Files.readAllLines(file, StandardCharsets.UTF_8);
            int from = Math.max(0, all.size() - lines);
            return String.join("\n", all.subList(from, all.size()));
        } catch (IOException | UncheckedIOException e) {
            return "(could not read " + file + ": " + e.getMessage() + ")";
        }
    }

    static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting", e);
        }
    }

    /** Runs a short command and returns its output; when {@code check}, throws with that output unless it exits 0 (30 s at most). */
    static String run(boolean check, String... command) {
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!p.waitFor(30, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IllegalStateException("`" + String.join(" ", command) + "` did not end within 30 s");
            }
            if (check && p.exitValue() != 0) {
                throw new IllegalStateException("`" + String.join(" ", command) + "` exited with " + p.exitValue() + ": "
                        + out.trim());
            }
            return out;
        } catch (IOException e) {
            if (!check) {
                return "";
            }
            throw new IllegalStateException("could not run `" + String.join(" ", command) + "`: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted running `" + String.join(" ", command) + "`", e);
        }
    }
}
