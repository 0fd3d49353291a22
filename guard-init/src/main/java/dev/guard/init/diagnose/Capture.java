package dev.guard.init.diagnose;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Collects what the runbook says to capture before anyone restarts anything, into one folder.
 *
 * <p>docker compose: {@code docker compose ps --all}, then per service {@code docker compose logs
 * --no-color --no-log-prefix --timestamps SERVICE}. Kubernetes: {@code kubectl get pod -o wide},
 * then per pod {@code kubectl describe pod}, {@code kubectl logs --timestamps --all-containers}
 * and the same with {@code --previous} (emptied when it equals the current one, as in
 * CrashLoopBackOff both return the same crashed container), then {@code kubectl get events}.
 *
 * <p>The executables are looked up on the {@code PATH} of the environment given to the builder
 * (the process's own by default), and the children run with exactly that environment.
 */
public final class Capture {
    /** Which platform to capture from. */
    public enum Platform { COMPOSE, KUBERNETES }

    /**
     * One command run.
     *
     * @param command the argv
     * @param exitCode its exit code (-1: timed out)
     * @param file where its stdout went, or null for a listing step
     * @param stderr the first part of what it wrote on stderr
     */
    public record Step(List<String> command, int exitCode, Path file, String stderr) {}

    /**
     * What was captured.
     *
     * @param dir the folder
     * @param steps every command, in order
     * @param files the files to hand to diagnose
     */
    public record Result(Path dir, List<Step> steps, List<Path> files) {
        /** {@code guard-init diagnose FILE...}: the command to run next. */
        public String diagnoseCommand() {
            StringBuilder b = new StringBuilder("guard-init diagnose");
            for (Path f : files) {
                b.append(' ').append(quote(f.toString()));
            }
            return b.toString();
        }

        private static String quote(String s) {
            return s.matches("[A-Za-z0-9_./:=@%+-]+") ? s : "'" + s.replace("'", "'\\''") + "'";
        }
    }

    private final Platform platform;
    private final Path projectDir;
    private final String namespace;
    private final String selector;
    private final Path out;
    private final Map<String, String> env;
    private final String executable;
    private final Duration timeout;

    Capture(Builder b) {
        this.platform = b.platform;
        this.projectDir = b.projectDir;
        this.namespace = b.namespace;
        this.selector = b.selector;
        this.out = b.out != null ? b.out : Path.of("guard-capture-" + DateTimeFormatter
                .ofPattern("yyyyMMdd'T'HHmmss'Z'").format(ZonedDateTime.now(ZoneOffset.UTC)));
        this.env = Map.copyOf(b.env);
        this.executable = b.executable;
        this.timeout = b.timeout;
    }

    /** Captures from {@code docker compose}. */
    public static Builder compose() {
        return new Builder(Platform.COMPOSE, null);
    }

    /** Captures from Kubernetes, in this namespace. */
    public static Builder kubernetes(String namespace) {
        if (namespace == null || namespace.isBlank()) {
            throw new IllegalArgumentException("a namespace is required (-n NAMESPACE)");
        }
        return new Builder(Platform.KUBERNETES, namespace);
    }

    /** Runs the capture; throws when the tool is missing or its first listing fails (nothing to capture then). */
    public Result run() throws CaptureException {
        String tool = platform == Platform.COMPOSE ? "docker" : "kubectl";
        Path exe = executable != null ? resolveGiven(executable) : find(tool, env)
                .orElseThrow(() -> new CaptureException(tool + " not found on PATH (" + env.getOrDefault("PATH", "")
                        + "): install it, or pass --" + tool + " /path/to/" + tool));
        try {
            Files.createDirectories(out);
        } catch (IOException e) {
            throw new CaptureException("cannot create the capture folder " + out + ": " + e.getMessage());
        }
        List<Step> steps = new ArrayList<>();
        List<Path> files = new ArrayList<>();
        if (platform == Platform.COMPOSE) {
            List<String> base = new ArrayList<>(List.of(exe.toString(), "compose"));
            if (projectDir != null) {
                base.addAll(List.of("--project-directory", projectDir.toString()));
            }
            Step ps = run(steps, concat(base, "ps", "--all"), out.resolve("ps.txt"));
            files.add(ps.file());
            Path services = out.resolve(".services");
            Step list = run(steps, concat(base, "config", "--services"), services);
            if (list.exitCode() != 0) {
                throw new CaptureException("'" + String.join(" ", list.command()) + "' failed (exit " + list.exitCode()
                        + "): " + list.stderr().strip() + "; run it from the Compose project's folder or pass --project-dir");
            }
            for (String svc : lines(services)) {
                Path f = out.resolve(safe(svc) + ".log");
                run(steps, concat(base, "logs", "--no-color", "--no-log-prefix", "--timestamps", svc), f);
                files.add(f);
            }
            deleteQuietly(services);
        } else {
            List<String> scope = new ArrayList<>(List.of("-n", namespace));
            if (selector != null) {
                scope.addAll(List.of("-l", selector));
            }
            Path names = out.resolve(".pods");
            Step list = run(steps, concat(concat(List.of(exe.toString(), "get", "pod"), scope), "-o", "name"), names);
            if (list.exitCode() != 0) {
                throw new CaptureException("'" + String.join(" ", list.command()) + "' failed (exit " + list.exitCode()
                        + "): " + list.stderr().strip() + "; check the kubectl context and the namespace");
            }
            Step wide = run(steps, concat(concat(List.of(exe.toString(), "get", "pod"), scope), "-o", "wide"),
                    out.resolve("pods.txt"));
            files.add(wide.file());
            for (String line : lines(names)) {
                String pod = line.startsWith("pod/") ? line.substring(4) : line;
                String s = safe(pod);
                Path describe = out.resolve(s + "-describe.txt");
                run(steps, List.of(exe.toString(), "describe", "pod", "-n", namespace, pod), describe);
                files.add(describe);
                Path current = out.resolve(s + ".log");
                run(steps, List.of(exe.toString(), "logs", "-n", namespace, pod, "--timestamps", "--all-containers"), current);
                files.add(current);
                Path previous = out.resolve(s + "-previous.log");
                Step prev = run(steps, List.of(exe.toString(), "logs", "-n", namespace, pod, "--timestamps",
                        "--all-containers", "--previous"), previous);
                if (prev.exitCode() != 0 || sameContent(current, previous)) {
                    truncate(previous);
                }
                files.add(previous);
            }
            deleteQuietly(names);
            Step events = run(steps, List.of(exe.toString(), "get", "events", "-n", namespace,
                    "--sort-by=.lastTimestamp"), out.resolve("events.txt"));
            files.add(events.file());
        }
        writeManifest(steps);
        return new Result(out, List.copyOf(steps), List.copyOf(files));
    }

    private Step run(List<Step> steps, List<String> command, Path stdout) throws CaptureException {
        ProcessBuilder pb = new ProcessBuilder(command);
        pb.environment().clear();
        pb.environment().putAll(env);
        pb.redirectOutput(stdout.toFile());
        Path err;
        try {
            err = Files.createTempFile(out, ".stderr", ".txt");
        } catch (IOException e) {
            throw new CaptureException("cannot write into " + out + ": " + e.getMessage());
        }
        pb.redirectError(err.toFile());
        int code;
        try {
            Process p = pb.start();
            if (p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                code = p.exitValue();
            } else {
                p.destroyForcibly();
                p.waitFor(5, TimeUnit.SECONDS);
                code = -1;
            }
        } catch (IOException e) {
            throw new CaptureException("cannot run '" + String.join(" ", command) + "': " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CaptureException("interrupted while running '" + String.join(" ", command) + "'");
        }
        String stderr;
        try {
            stderr = Files.readString(err, StandardCharsets.UTF_8);
        } catch (IOException e) {
            stderr = "";
        }
        deleteQuietly(err);
        if (stderr.length() > 2000) {
            stderr = stderr.substring(0, 2000) + "...";
        }
        if (code == -1) {
            stderr = "timed out after " + timeout.toSeconds() + " s; " + stderr;
        }
        Step step = new Step(List.copyOf(command), code, stdout, stderr);
        steps.add(step);
        return step;
    }

    private void writeManifest(List<Step> steps) throws CaptureException {
        StringBuilder b = new StringBuilder("# guard-init capture: every command, its exit code and file\n");
        for (Step s : steps) {
            b.append("exit ").append(s.exitCode()).append("  ").append(String.join(" ", s.command()));
            if (s.file() != null && !s.file().getFileName().toString().startsWith(".")) {
                b.append("  > ").append(s.file().getFileName());
            }
            b.append('\n');
            if (!s.stderr().isBlank()) {
                for (String l : s.stderr().strip().split("\\R")) {
                    b.append("    stderr: ").append(l).append('\n');
                }
            }
        }
        try {
            Files.writeString(out.resolve("capture.txt"), b.toString(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new CaptureException("cannot write " + out.resolve("capture.txt") + ": " + e.getMessage());
        }
    }

    /** The first executable file named {@code name} on the environment's PATH. */
    static java.util.Optional<Path> find(String name, Map<String, String> env) {
        String path = env.getOrDefault("PATH", "");
        for (String dir : path.split(File.pathSeparator)) {
            if (dir.isEmpty()) {
                continue;
            }
            Path p = Path.of(dir, name);
            if (Files.isRegularFile(p) && Files.isExecutable(p)) {
                return java.util.Optional.of(p);
            }
        }
        return java.util.Optional.empty();
    }

    private Path resolveGiven(String exe) throws CaptureException {
        if (exe.contains(File.separator)) {
            Path p = Path.of(exe);
            if (Files.isRegularFile(p) && Files.isExecutable(p)) {
                return p;
            }
            throw new CaptureException(exe + " is not an executable file");
        }
        return find(exe, env).orElseThrow(() -> new CaptureException(exe + " not found on PATH ("
                + env.getOrDefault("PATH", "") + ")"));
    }

    private static List<String> concat(List<String> base, String... more) {
        List<String> l = new ArrayList<>(base);
        l.addAll(Arrays.asList(more));
        return l;
    }

    private static List<String> concat(List<String> base, List<String> more) {
        List<String> l = new ArrayList<>(base);
        l.addAll(more);
        return l;
    }

    private static List<String> lines(Path f) throws CaptureException {
        try {
            return Files.readAllLines(f, StandardCharsets.UTF_8).stream().map(String::strip).filter(s -> !s.isEmpty())
                    .toList();
        } catch (IOException e) {
            throw new CaptureException("cannot read " + f + ": " + e.getMessage());
        }
    }

    private static String safe(String name) {
        return name.replaceAll("[^A-Za-z0-9_.-]", "_");
    }

    private static boolean sameContent(Path a, Path b) {
        try {
            return Files.size(a) > 0 && Files.mismatch(a, b) == -1;
        } catch (IOException e) {
            return false;
        }
    }

    private static void truncate(Path f) throws CaptureException {
        try {
            Files.write(f, new byte[0]);
        } catch (IOException e) {
            throw new CaptureException("cannot empty " + f + ": " + e.getMessage());
        }
    }

    private static void deleteQuietly(Path f) {
        try {
            Files.deleteIfExists(f);
        } catch (IOException ignored) {
            // a leftover listing file is harmless
        }
    }

    /** Builds a {@link Capture}. */
    public static final class Builder {
        private final Platform platform;
        private final String namespace;
        private Path projectDir;
        private String selector;
        private Path out;
        private Map<String, String> env = new HashMap<>(System.getenv());
        private String executable;
        private Duration timeout = Duration.ofSeconds(60);

        Builder(Platform platform, String namespace) {
            this.platform = platform;
            this.namespace = namespace;
        }

        /** Compose: the project directory ({@code --project-directory}). */
        public Builder projectDir(Path dir) {
            this.projectDir = dir;
            return this;
        }

        /** Kubernetes: a label selector ({@code -l app=worker}). */
        public Builder selector(String selector) {
            this.selector = selector;
            return this;
        }

        /** The folder to write into (created); default {@code guard-capture-<UTC time>}. */
        public Builder out(Path dir) {
            this.out = dir;
            return this;
        }

        /** The environment the tool is looked up in (its PATH) and runs with. */
        public Builder env(Map<String, String> env) {
            this.env = new HashMap<>(env);
            return this;
        }

        /** The docker / kubectl executable to use instead of the one on PATH. */
        public Builder executable(String exe) {
            this.executable = exe;
            return this;
        }

        /** How long one command may take before it is stopped (default 60 s). */
        public Builder timeout(Duration t) {
            this.timeout = t;
            return this;
        }

        public Capture build() {
            return new Capture(this);
        }
    }
}
