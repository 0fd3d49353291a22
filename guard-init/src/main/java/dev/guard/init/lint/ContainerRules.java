package dev.guard.init.lint;

import dev.guard.config.Redaction;
import dev.guard.endpoint.Broker;
import dev.guard.endpoint.Endpoint;
import dev.guard.endpoint.Endpoints;
import dev.guard.endpoint.Loopback;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The rules on one container, Compose service or Kubernetes container alike: how it starts
 * (a shell as PID 1, a fixed sleep, a TCP wait for Redis, a wait with no deadline), what its
 * command line shows (a password), what its environment points at (loopback), and what its
 * checks ask (a Redis ping that passes on LOADING, a liveness probe that asks a broker, a preStop
 * that needs a shell).
 */
final class ContainerRules {

    private ContainerRules() {}

    static List<Finding> check(Container c) {
        List<Finding> out = new ArrayList<>();
        shellAsPid1(c, out);
        sleepAsWait(c, out);
        secretInCommand(c, out);
        loopbackEnv(c, out);
        redisPing(c, out);
        tcpWaitForRedis(c, out);
        waitForever(c, out);
        livenessAsksBroker(c, out);
        preStopShellSleep(c, out);
        undefinedVariable(c, out);
        DeletionCostRules.compose(c, out);
        return out;
    }

    private static Finding error(Container c, int line, String rule, String found, String runtime, String fix) {
        return new Finding(c.file, line, rule, Finding.Severity.ERROR, c.where + ": " + found, runtime, fix);
    }

    private static Finding warning(Container c, int line, String rule, String found, String runtime, String fix) {
        return new Finding(c.file, line, rule, Finding.Severity.WARNING, c.where + ": " + found, runtime, fix);
    }

    private static String shown(List<String> argv) {
        String s = Redaction.maskText(String.join(" ", argv));
        return s.length() > 160 ? s.substring(0, 157) + "..." : s;
    }

    // --- how it starts ---------------------------------------------------------------------------

    /**
     * A shell that runs the worker as its child stays PID 1, and PID 1 ignores SIGTERM without a
     * handler. Which shells do, seen here in a PID namespace: dash 0.5.12 (Debian's and Ubuntu's
     * {@code /bin/sh}) runs even a lone command as its child (PID 2); bash 5.2 execs the last
     * command of a {@code -c} string ({@code true && sleep 3} left sleep as PID 1). BusyBox ash
     * (Alpine's {@code /bin/sh}) execs a lone command (docker/docs#23124, on alpine: "watch -n 1
     * date" was PID 1; not run here), so on an Alpine image only a script of several commands is
     * named, as a warning.
     */
    private static void shellAsPid1(Container c, List<Finding> out) {
        if (c.init) {
            return;
        }
        String script = Shell.script(c.argv);
        if (script == null) {
            return;
        }
        List<Shell.Command> cmds = Shell.commands(script);
        if (cmds.isEmpty()) {
            return;
        }
        Shell.Command last = cmds.get(cmds.size() - 1);
        String shell = Shell.shellOf(c.argv);
        if (last.name().equals("exec")) {
            return;
        }
        if (cmds.stream().allMatch(x -> x.name().equals("sleep") || x.name().equals("echo") || x.name().equals("true"))
                || ONE_SHOT.contains(last.name())) {
            return; // nothing to drain: the script ends by itself with a client's one command
        }
        boolean lone = cmds.size() == 1 && last.depth() == 0;
        Finding.Severity severity;
        String how;
        if (shell.equals("bash")) {
            if (last.depth() == 0 && !script.contains("trap ")) {
                return; // bash execs the last simple command
            }
            severity = Finding.Severity.ERROR;
            how = "bash keeps itself as PID 1 when the last command is inside a loop or a trap is set";
        } else if (shell.equals("dash") || (shell.equals("sh") && Container.debianShell(c.image))) {
            severity = Finding.Severity.ERROR;
            how = "sh on this image is dash (Debian's and Ubuntu's /bin/sh), which runs the command as its child: seen"
                    + " here, dash 0.5.12 left even a lone command as PID 2";
        } else if (shell.equals("sh") && Container.alpineShell(c.image)) {
            if (lone) {
                return; // busybox ash execs a lone command
            }
            severity = Finding.Severity.WARNING;
            how = "sh on this Alpine image is BusyBox ash, which execs a lone command but, as far as documented, not the"
                    + " last of several (not run here)";
        } else {
            severity = lone ? Finding.Severity.WARNING : Finding.Severity.ERROR;
            how = lone ? "if the image's /bin/sh is dash (Debian, Ubuntu and the images built on them) it runs the"
                    + " command as its child (seen here: dash 0.5.12, PID 2); BusyBox ash (Alpine) and bash would exec it"
                    : "a shell keeps itself as PID 1 for a script of several commands (dash did so here; bash execs the"
                    + " last one)";
        }
        out.add(new Finding(c.file, c.argvLine, "shell-pid1", severity, c.where
                        + ": the start command runs through a shell without exec: " + shown(c.argv),
                how + ". PID 1 ignores SIGTERM it has no handler for, so the program never hears it: a worker's drain"
                        + " never runs and the job in hand dies with the SIGKILL at the end of the grace period (a broker"
                        + " misses its shutdown save), with no line anywhere",
                "exec the program as the script's last command (sh -c '...; exec java -jar app.jar'), or run it"
                        + " without a shell (command: [\"java\", \"-jar\", \"app.jar\"])"));
    }

    /** Clients that do one thing and exit: a script ending with one is a set-up step, not a service to stop. */
    private static final Set<String> ONE_SHOT = Set.of("redis-cli", "valkey-cli", "curl", "wget", "psql", "mysql",
            "mongosh", "mongo", "rabbitmqadmin", "rabbitmqctl", "kafka-topics", "kafka-topics.sh", "nats", "mc", "aws",
            "cp", "mv", "chown", "chmod", "mkdir", "ln", "rm", "touch", "cat", "true", "echo", "exit");

    private static final Pattern SLEEP_ARG = Pattern.compile("(\\d+(?:\\.\\d+)?)([smh]?)");

    /** A fixed delay before the worker starts, taken for a readiness wait. */
    private static void sleepAsWait(Container c, List<Finding> out) {
        List<Shell.Command> cmds = Shell.commandsOf(c.argv);
        for (int i = 0; i < cmds.size(); i++) {
            Shell.Command s = cmds.get(i);
            if (s.depth() != 0 || !s.after().isEmpty() || !s.name().equals("sleep") || s.words().size() < 2) {
                continue;
            }
            Matcher m = SLEEP_ARG.matcher(s.words().get(1));
            if (!m.matches()) {
                continue;
            }
            boolean before = false;
            for (int j = i + 1; j < cmds.size(); j++) {
                if (cmds.get(j).depth() == 0) {
                    before = true;
                    break;
                }
            }
            if (before || (c.init && cmds.size() == 1)) {
                out.add(error(c, c.argvLine, "sleep-as-wait", "a fixed 'sleep " + s.words().get(1) + "' "
                        + (before ? "before the next command" : "as the whole init container") + ": " + shown(c.argv),
                        "a delay is not a readiness check: a broker slower than that (Redis loading its dataset answers"
                                + " LOADING for as long as the load takes; RabbitMQ refuses connections while it boots) still"
                                + " fails the worker at start, and a faster one wastes the delay at every start",
                        "wait for the broker's own answer instead: an init container (or entrypoint step) running"
                                + " guard-init wait redis://redis:6379 (exit 69 at its deadline), or Compose's depends_on with"
                                + " condition: service_healthy"));
                return;
            }
        }
    }

    private static final Pattern WAIT_TOOLS = Pattern.compile("wait-for-it(\\.sh)?|wait4x|dockerize|nc|netcat|ncat");

    /** A TCP connect to Redis succeeds while Redis answers every command with LOADING. */
    private static void tcpWaitForRedis(Container c, List<Finding> out) {
        for (List<String> words : wordLists(c)) {
            if (words.isEmpty() || !WAIT_TOOLS.matcher(Shell.base(words.get(0))).matches()) {
                continue;
            }
            String tool = Shell.base(words.get(0));
            boolean nc = tool.startsWith("nc") || tool.equals("netcat");
            if (nc && !words.contains("-z") && words.stream().noneMatch(w -> w.startsWith("-") && w.contains("z"))) {
                continue;
            }
            String target = String.join(" ", words);
            boolean redis = Pattern.compile("(?i)(redis|valkey|keydb)[\\w.-]*[: ]+\\d*|[: ]6379\\b|tcp://[^ ]*:6379")
                    .matcher(target).find();
            if (redis) {
                out.add(error(c, c.argvLine, "tcp-wait-redis", "waits for Redis with a TCP check: " + shown(words),
                        "Redis accepts connections while it loads its dataset and answers every command with"
                                + " -LOADING; a TCP check calls that up, and the worker starts into errors (the seeds' startup"
                                + " race)",
                        "wait with a check that asks Redis: guard-init wait redis://redis:6379 (PING until PONG, LOADING is"
                                + " not ready)"));
            }
            if (tool.startsWith("wait-for-it") && words.contains("--") && !words.contains("-s") && !words.contains("--strict")) {
                out.add(error(c, c.argvLine, "wait-not-strict", "wait-for-it without --strict: " + shown(words),
                        "at its timeout (15 s unless -t) wait-for-it runs the command after -- anyway: a broker that is"
                                + " not up starts the worker into the race it was meant to prevent",
                        "add --strict (-s), so the command runs only when the wait succeeded; or guard-init wait, which"
                                + " exits 69 at its deadline"));
            }
        }
    }

    /** A polling loop with no bound: an init container that never ends and never says why. */
    private static void waitForever(Container c, List<Finding> out) {
        String script = Shell.script(c.argv);
        if (script != null) {
            for (Shell.Command s : Shell.commands(script)) {
                if (s.depth() == 0 && (s.after().equals("until") || s.after().equals("while"))
                        && !s.name().equals("true") && !s.name().equals(":")
                        && !Pattern.compile("timeout |-gt |-ge |-lt |-le |\\$\\(\\(|seq |\\{1\\.\\.").matcher(script).find()) {
                    out.add(warning(c, c.argvLine, "wait-forever", "a wait loop with no bound: " + shown(c.argv),
                            "a broker that never comes (a wrong host name, a missing Secret) keeps the pod in its"
                                    + (c.init ? " init container" : " start command") + " forever: no exit code, no restart,"
                                    + " nothing in the logs that says what it waits for",
                            "bound it: guard-init wait --timeout 120s redis://redis:6379 (exit 69 with the last state of"
                                    + " each target), or a counter in the loop"));
                    return;
                }
            }
        }
        for (List<String> words : wordLists(c)) {
            if (!words.isEmpty() && Shell.base(words.get(0)).startsWith("wait-for-it")) {
                for (int i = 1; i < words.size(); i++) {
                    String w = words.get(i);
                    if ((w.equals("-t") || w.equals("--timeout")) && i + 1 < words.size() && words.get(i + 1).equals("0")
                            || w.equals("--timeout=0")) {
                        out.add(warning(c, c.argvLine, "wait-forever", "wait-for-it with timeout 0 (no deadline): "
                                + shown(words), "a target that never comes keeps the container waiting forever, with no exit"
                                + " code that says why", "give it a deadline (-t 120), or guard-init wait --timeout 120s"));
                        return;
                    }
                }
            }
        }
    }

    // --- what its command line shows ------------------------------------------------------------------

    private static final Pattern URL = Pattern.compile("[A-Za-z][A-Za-z0-9+.-]*://[^\\s'\"]+");
    private static final Pattern PASSWORD_FLAG = Pattern.compile("--(password|pass|requirepass|masterauth|auth|token|secret|api-key)(=(.*))?");

    /** A credential in the command line: visible in ps, /proc/PID/cmdline, docker inspect and the pod's spec. */
    private static void secretInCommand(Container c, List<Finding> out) {
        for (List<String> words : wordLists(c)) {
            boolean redisCli = !words.isEmpty() && Shell.base(words.get(0)).equals("redis-cli");
            for (int i = 0; i < words.size(); i++) {
                String w = words.get(i);
                Matcher u = URL.matcher(w);
                while (u.find()) {
                    try {
                        for (Endpoint e : Endpoints.parse(u.group())) {
                            if (literal(e.password())) {
                                out.add(secret(c, "a password in a URL of the command line: " + Redaction.maskText(w)));
                                return;
                            }
                        }
                    } catch (IllegalArgumentException notAnEndpoint) {
                        // not a URL guard reads
                    }
                }
                Matcher f = PASSWORD_FLAG.matcher(w);
                String value = null;
                if (f.matches()) {
                    value = f.group(2) != null ? f.group(3) : i + 1 < words.size() ? words.get(i + 1) : null;
                } else if (redisCli && w.equals("-a") && i + 1 < words.size()) {
                    value = words.get(i + 1);
                }
                if (literal(value)) {
                    out.add(secret(c, "a password in the command line: " + w.replaceAll("=.*", "=" + Redaction.MASK)
                            + (f.matches() && f.group(2) != null ? "" : " " + Redaction.MASK)));
                    return;
                }
            }
        }
    }

    private static boolean literal(String value) {
        return value != null && !value.isBlank() && !value.startsWith("$") && !value.startsWith("{{")
                && !value.contains("$(") && !value.equals(Redaction.MASK) && !value.startsWith("/") && !value.startsWith("<");
    }

    private static Finding secret(Container c, String found) {
        return error(c, c.argvLine, "secret-in-command", found,
                "anyone who can list processes on the node, inspect the container or read the pod's spec reads it (ps,"
                        + " /proc/PID/cmdline, docker inspect, kubectl get pod -o yaml), and crash reports and CI logs print"
                        + " command lines",
                "pass it in the environment from a Secret (env.valueFrom.secretKeyRef; Compose: environment with"
                        + " ${VAR} or secrets:) and let the program read it there (guard-init reads its targets from"
                        + " GUARD_CONFIG, resolved against the environment)");
    }

    /** {@code $(NAME)} of a variable the container does not define reaches the program as that literal text. */
    private static void undefinedVariable(Container c, List<Finding> out) {
        if (c.where.startsWith("service ") || c.envIncomplete) {
            return;
        }
        Matcher m = Pattern.compile("(?<!\\$)\\$\\(([A-Za-z_][A-Za-z0-9_]*)\\)").matcher(String.join(" ", c.argv));
        while (m.find()) {
            if (!c.env.containsKey(m.group(1))) {
                out.add(error(c, c.argvLine, "undefined-variable", "$(" + m.group(1) + ") in the command, and the container's"
                        + " env does not define " + m.group(1),
                        "Kubernetes expands $(NAME) only from the container's own env; an undefined one is passed as the"
                                + " literal text $(" + m.group(1) + "), which the program then reads as a host, a URL or a"
                                + " password",
                        "define " + m.group(1) + " in the container's env (or envFrom), under exactly that name"));
                return;
            }
        }
    }

    // --- what its environment points at -------------------------------------------------------------

    /** A broker at localhost inside a container is the container itself. */
    private static void loopbackEnv(Container c, List<Finding> out) {
        if (c.sharedNetwork || c.isBroker()) {
            return;
        }
        String allow = c.envValue("GUARD_ALLOW_LOOPBACK");
        if (allow != null && allow.trim().equalsIgnoreCase("true")) {
            return;
        }
        Set<String> allowed = allow == null ? Set.of() : Set.of(allow.split("[,\\s]+"));
        for (Container.Env e : c.env.values()) {
            if (e.value() == null || e.value().isBlank() || allowed.contains(e.name())
                    || e.name().toUpperCase(Locale.ROOT).contains("LISTENER") || e.name().toUpperCase(Locale.ROOT).contains("BIND")) {
                continue; // where a server listens or what it advertises, not what a client connects to
            }
            String v = e.value().trim();
            Optional<Broker> broker = Endpoints.startsWithScheme(v)
                    ? Broker.ofScheme(v.substring(0, v.indexOf("://")).toLowerCase(Locale.ROOT))
                    : Broker.ofName(e.name());
            if (broker.isEmpty() || !(Endpoints.startsWithScheme(v) || Container.namesAnAddress(e.name()))) {
                continue;
            }
            List<Endpoint> eps;
            try {
                eps = Endpoints.parse(v);
            } catch (IllegalArgumentException notAnEndpoint) {
                continue;
            }
            for (Endpoint ep : eps) {
                if (Loopback.bySpelling(ep.host()) && !ep.host().equals("0.0.0.0") && !ep.host().equals("::")
                        && !c.podPorts.contains(ep.port())) {
                    out.add(error(c, e.line(), "loopback-env", e.name() + "=" + Redaction.maskValue(e.name(), v)
                                    + ": the " + broker.get().product() + " address is loopback",
                            "inside a container, " + ep.host() + " is the container itself: nothing of "
                                    + broker.get().product() + " listens there, and the worker's connection is refused (or"
                                    + " it falls back to its default, the same address) while the broker runs in its own"
                                    + " container",
                            "use the broker's service name (" + broker.get().exampleUrl() + "); where loopback is meant (a"
                                    + " sidecar, host networking) say so: GUARD_ALLOW_LOOPBACK=" + e.name()));
                    break;
                }
            }
        }
    }

    // --- what its checks ask ------------------------------------------------------------------------

    /** {@code redis-cli ping} exits 0 on an error reply: LOADING, NOAUTH, WRONGPASS. */
    private static void redisPing(Container c, List<Finding> out) {
        for (Y check : new Y[] {c.healthcheck, exec(c.liveness), exec(c.readiness), exec(c.startup)}) {
            if (check != null) {
                redisPing(c.file, check.line(), c.where, String.join(" ", check.strings()), out);
            }
        }
    }

    /** The same check on a check's text (a Dockerfile's HEALTHCHECK too). */
    static void redisPing(String file, int line, String where, String text, List<Finding> out) {
        if (text.contains("redis-cli") && text.toLowerCase(Locale.ROOT).matches("(?s).*\\bping\\b.*")
                && !text.toUpperCase(Locale.ROOT).contains("PONG")) {
            out.add(new Finding(file, line, "redis-ping-check", Finding.Severity.ERROR, where + ": a check runs '"
                            + Redaction.maskText(text) + "'",
                    "redis-cli exits 0 on an error reply: while Redis loads its dataset it answers -LOADING, and with a"
                            + " wrong password NOAUTH or WRONGPASS, and the check still passes (seen: redis-cli 7.0.15"
                            + " printed 'LOADING Redis is loading the dataset in memory' and exited 0); whatever waits for"
                            + " it starts into errors",
                    "check the answer: redis-cli ping | grep -q PONG (CMD-SHELL), or guard-init healthcheck"
                            + " redis://redis:6379"));
        }
    }

    private static Y exec(Y probe) {
        if (probe == null || probe.get("exec") == null) {
            return null;
        }
        return probe.get("exec").get("command");
    }

    private static final Pattern BROKER_TOOLS = Pattern.compile(
            "redis-cli|rabbitmqctl|rabbitmq-diagnostics|rabbitmq-plugins|nats|kafka-broker-api-versions(\\.sh)?"
                    + "|kafka-topics(\\.sh)?|kcat|kafkacat|valkey-cli");

    /** A liveness probe that fails when a broker does restarts every worker at a broker blip. */
    private static void livenessAsksBroker(Container c, List<Finding> out) {
        if (c.liveness == null || c.isBroker()) {
            return;
        }
        Y cmd = exec(c.liveness);
        String what = null;
        if (cmd != null) {
            for (List<String> w : Shell.commandsOf(cmd.strings()).stream().map(Shell.Command::words).toList()) {
                if (w.isEmpty()) {
                    continue;
                }
                String tool = Shell.base(w.get(0));
                boolean guardWait = tool.equals("guard-init") && w.size() > 1
                        && (w.get(1).equals("wait") || w.get(1).equals("healthcheck"));
                boolean brokerUrl = w.stream().anyMatch(x -> URL.matcher(x).find() && Endpoints.startsWithScheme(x)
                        && Broker.ofScheme(x.substring(0, x.indexOf("://")).toLowerCase(Locale.ROOT)).isPresent());
                if (BROKER_TOOLS.matcher(tool).matches() || guardWait || brokerUrl) {
                    what = String.join(" ", w);
                    break;
                }
            }
        }
        Y tcp = c.liveness.get("tcpSocket");
        if (what == null && tcp != null && tcp.text("host") != null && !Loopback.bySpelling(tcp.text("host"))) {
            what = "tcpSocket " + tcp.text("host") + ":" + tcp.text("port");
        }
        if (what != null) {
            out.add(error(c, c.liveness.line(), "liveness-asks-broker", "the liveness probe asks a broker: "
                            + Redaction.maskText(what),
                    "a broker restart or a network blip fails the liveness probe of every worker at once: Kubernetes"
                            + " restarts all of them, each cutting the job in hand, while waiting would have been enough",
                    "probe the worker's own loop for liveness (guard's /livez: 503 only when the loop stalls), and the broker"
                            + " in readiness (/readyz) or not at all"));
        }
    }

    /** A preStop that runs {@code sh -c "sleep N"} needs a shell and a sleep binary in the image. */
    private static void preStopShellSleep(Container c, List<Finding> out) {
        Y cmd = exec(c.preStop);
        if (cmd == null) {
            return;
        }
        List<String> argv = cmd.strings();
        String script = Shell.script(argv);
        List<Shell.Command> cmds = Shell.commandsOf(argv);
        if (!cmds.isEmpty() && cmds.stream().allMatch(x -> x.name().equals("sleep"))) {
            out.add(warning(c, cmd.line(), "prestop-shell-sleep", "preStop runs '" + String.join(" ", argv) + "'",
                    "the hook needs " + (script != null ? "a shell and " : "") + "a sleep binary in the image: in a"
                            + " distroless or scratch image (guard-init's, most JVM runtime images) it fails at once"
                            + " (executable file not found), and the pod gets none of the delay it was meant to have"
                            + " before SIGTERM (endpoints still route to it while it stops)",
                    "use the sleep action, which needs nothing in the image: lifecycle.preStop.sleep.seconds"
                            + " (Kubernetes 1.30 and later)"));
        }
    }

    /** The word lists a container runs: its argv, or each command of its shell script. */
    private static List<List<String>> wordLists(Container c) {
        return Shell.commandsOf(c.argv).stream().map(Shell.Command::words).toList();
    }
}
