package dev.guard.drain;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * Will SIGTERM reach this JVM? A container runtime (and the kubelet, through it) sends SIGTERM to
 * the container's PID 1 only. When PID 1 is a shell that started the JVM as a child (the
 * shell-form {@code CMD java -jar app.jar}, or a script without {@code exec}), the shell neither
 * handles nor forwards it: as PID 1 of its namespace it ignores the signal outright, the drain
 * never starts, and the container is SIGKILLed at the end of the grace period with its in-flight
 * jobs. Read from {@code /proc} once at boot; {@link #inspect()} never throws.
 *
 * <ul>
 *   <li>{@link Kind#DELIVERED}: the JVM is PID 1 (exec-form {@code CMD}, or {@code exec java});</li>
 *   <li>{@link Kind#FORWARDED}: PID 1 is an init that forwards signals (tini, dumb-init,
 *       catatonit, {@code docker run --init}) and it is this JVM's parent;</li>
 *   <li>{@link Kind#SHELL_PID1}: the trap, see above;</li>
 *   <li>{@link Kind#SHELL_BETWEEN}: such an init is PID 1 but a shell sits between it and the
 *       JVM: tini sends SIGTERM to its child, the shell, not to the JVM;</li>
 *   <li>{@link Kind#NO_CONTAINER}: PID 1 is a system init (systemd, ...): a terminal, a service
 *       manager or a CI runner started this JVM, and sends its signals to it directly;</li>
 *   <li>{@link Kind#UNKNOWN}: {@code /proc} could not be read (not Linux, hidepid).</li>
 * </ul>
 */
public final class SignalPath {

    /** What the process tree says about the way from PID 1 to this JVM. */
    public enum Kind {
        DELIVERED, FORWARDED, SHELL_PID1, SHELL_BETWEEN, NO_CONTAINER, UNKNOWN;

        /** True when SIGTERM to the container will not reach this JVM (or may not). */
        public boolean trap() {
            return this == SHELL_PID1 || this == SHELL_BETWEEN;
        }
    }

    /** One process of the chain from this JVM's parent up to PID 1. */
    public record Proc(long pid, String name, String commandLine) {
        @Override
        public String toString() {
            return "pid " + pid + " (" + commandLine + ")";
        }
    }

    static final Set<String> SHELLS = Set.of("sh", "bash", "dash", "ash", "zsh", "ksh", "mksh", "busybox");
    static final Set<String> FORWARDING_INITS = Set.of("tini", "tini-static", "dumb-init", "catatonit", "docker-init",
            "s6-svscan", "runsvdir", "supervisord", "podman-init");

    private static final int MAX_DEPTH = 64;
    private static final int MAX_COMMAND = 160;

    private final Kind kind;
    private final long self;
    private final List<Proc> ancestors;
    private final String reason;

    private SignalPath(Kind kind, long self, List<Proc> ancestors, String reason) {
        this.kind = kind;
        this.self = self;
        this.ancestors = List.copyOf(ancestors);
        this.reason = reason;
    }

    /** This JVM, read from {@code /proc}. */
    public static SignalPath inspect() {
        return inspect(Path.of("/proc"), ProcessHandle.current().pid());
    }

    /** The process {@code self} as seen in the proc file system at {@code proc} (tests give a prepared tree). */
    static SignalPath inspect(Path proc, long self) {
        if (self == 1) {
            return new SignalPath(Kind.DELIVERED, self, List.of(), "this JVM is PID 1: SIGTERM to the container reaches it");
        }
        List<Proc> chain = new ArrayList<>();
        long pid = self;
        try {
            for (int i = 0; i < MAX_DEPTH && pid > 1; i++) {
                long parent = parentOf(proc, pid);
                if (parent <= 0) {
                    break; // the parent is outside this PID namespace: we are its first process's sibling chain
                }
                chain.add(read(proc, parent));
                pid = parent;
            }
        } catch (IOException | RuntimeException e) {
            return new SignalPath(Kind.UNKNOWN, self, chain, "cannot read " + proc + " (" + e + ")");
        }
        if (chain.isEmpty() || chain.get(chain.size() - 1).pid() != 1) {
            return new SignalPath(Kind.UNKNOWN, self, chain, "PID 1 is not an ancestor of this JVM in " + proc);
        }
        Proc init = chain.get(chain.size() - 1);
        if (isShell(init)) {
            return new SignalPath(Kind.SHELL_PID1, self, chain, "PID 1 is a shell, " + init.commandLine()
                    + ", and this JVM (pid " + self + ") is its " + (chain.size() == 1 ? "child" : "descendant")
                    + ": the container runtime sends SIGTERM to PID 1 only, and a shell as PID 1 neither handles nor"
                    + " forwards it. The drain never starts; after the grace period SIGKILL ends the JVM with its"
                    + " in-flight jobs");
        }
        if (FORWARDING_INITS.contains(baseName(init))) {
            Optional<Proc> shell = chain.subList(0, chain.size() - 1).stream().filter(SignalPath::isShell).findFirst();
            if (shell.isPresent()) {
                return new SignalPath(Kind.SHELL_BETWEEN, self, chain, "PID 1 is " + init.commandLine()
                        + ", which forwards SIGTERM to its child, but its child is a shell, " + shell.get()
                        + ", that started this JVM (pid " + self + ") without exec: the shell gets the signal, the JVM"
                        + " may not");
            }
            return new SignalPath(Kind.FORWARDED, self, chain, "PID 1 is " + init.commandLine()
                    + ", an init that forwards SIGTERM to this JVM");
        }
        return new SignalPath(Kind.NO_CONTAINER, self, chain, "PID 1 is " + init.commandLine()
                + " (not a container's shell or init): whatever started this JVM signals it directly");
    }

    public Kind kind() {
        return kind;
    }

    /** True when SIGTERM to the container will not reach this JVM (or may not). */
    public boolean trap() {
        return kind.trap();
    }

    /** This JVM's parent, its parent, ..., PID 1. */
    public List<Proc> ancestors() {
        return ancestors;
    }

    /** What was found, as a sentence. */
    public String reason() {
        return reason;
    }

    /** The fix for a trap; empty when there is none to make. */
    public String action() {
        return switch (kind) {
            case SHELL_PID1, SHELL_BETWEEN -> "Action: start the JVM with exec, so that it becomes the process the"
                    + " signal is sent to: in a Dockerfile the exec form, CMD [\"java\", \"-jar\", \"/app/app.jar\"],"
                    + " not CMD java -jar /app/app.jar; in a Kubernetes command or an entrypoint script,"
                    + " exec java ... as its last line; or run an init that forwards signals to the whole process"
                    + " group (dumb-init, tini -g, docker run --init). GUARD_SIGNAL_CHECK=warn starts the worker"
                    + " anyway (it will lose in-flight jobs on every scale-down)";
            default -> "";
        };
    }

    /** The reason and, for a trap, the action: one message for the boot log. */
    public String describe() {
        return trap() ? "SIGTERM will not reach the drain: " + reason + ". " + action() : reason;
    }

    @Override
    public String toString() {
        return "SignalPath{" + kind + ", self=" + self + ", ancestors=" + ancestors + "}";
    }

    private static boolean isShell(Proc p) {
        return SHELLS.contains(baseName(p));
    }

    /** The program's name: from the command line's first word (busybox's applet, a path), else comm. */
    private static String baseName(Proc p) {
        String first = p.commandLine().isBlank() ? p.name() : p.commandLine().split(" ", 2)[0];
        String base = first.substring(first.lastIndexOf('/') + 1).toLowerCase(Locale.ROOT);
        if (base.startsWith("-")) {
            base = base.substring(1); // a login shell
        }
        return base.isEmpty() ? p.name() : base;
    }

    private static long parentOf(Path proc, long pid) throws IOException {
        String stat = Files.readString(proc.resolve(Long.toString(pid)).resolve("stat"), StandardCharsets.UTF_8);
        // pid (comm) state ppid ...: comm may hold spaces and parentheses, so read after the last ')'
        String[] rest = stat.substring(stat.lastIndexOf(')') + 2).trim().split("\\s+");
        return Long.parseLong(rest[1]);
    }

    private static Proc read(Path proc, long pid) throws IOException {
        Path dir = proc.resolve(Long.toString(pid));
        String comm = Files.readString(dir.resolve("comm"), StandardCharsets.UTF_8).trim();
        String cmd;
        try {
            byte[] raw = Files.readAllBytes(dir.resolve("cmdline"));
            // a command line may carry a URL with its password: masked like everything guard prints
            cmd = dev.guard.config.Redaction.maskText(new String(raw, StandardCharsets.UTF_8).replace('\0', ' ').trim());
        } catch (IOException e) {
            cmd = "";
        }
        if (cmd.length() > MAX_COMMAND) {
            cmd = cmd.substring(0, MAX_COMMAND - 3) + "...";
        }
        return new Proc(pid, comm, cmd.isEmpty() ? comm : cmd);
    }
}
