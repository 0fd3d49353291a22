package dev.guard.init;

import dev.guard.ExitCodes;
import dev.guard.config.GuardSettings;
import java.io.InputStream;
import java.io.PrintWriter;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * guard-init: the standalone CLI. {@link #run(PrintWriter, PrintWriter, String...)} returns the exit
 * code; only {@link #main(String[])} calls {@code System.exit}.
 *
 * <p>Signals: {@code main} handles SIGTERM and SIGINT itself (instead of the JVM's shutdown): the
 * handler interrupts the running command, which stops at once, prints what it knew and returns;
 * the process then exits {@code 128 + signal} (143 for SIGTERM, 130 for SIGINT). If the command
 * has not returned 500 ms after the signal, the handler halts the JVM with that code.
 */
@Command(
        name = "guard-init",
        mixinStandardHelpOptions = true,
        version = "guard-init 0.1.0",
        description = "Stops queue workers from losing jobs silently: checks config, waits for brokers, "
                + "validates payloads, diagnoses captured logs.",
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {
            ExitCodes.OK + ":ok",
            ExitCodes.UNHEALTHY + ":not healthy (healthcheck); no rule decided (diagnose)",
            ExitCodes.USAGE + ":usage error",
            ExitCodes.DATA_ERROR + ":invalid payload (validate)",
            ExitCodes.NO_INPUT + ":payload file not found (validate)",
            ExitCodes.UNAVAILABLE + ":not ready by the deadline (wait)",
            ExitCodes.SOFTWARE + ":internal error",
            ExitCodes.NO_PERMISSION + ":authentication refused (wait)",
            ExitCodes.CONFIG + ":bad configuration or target; an error found (lint)",
            ExitCodes.INTERRUPTED + "/" + ExitCodes.TERMINATED + ":stopped by SIGINT/SIGTERM"
        })
public final class GuardInit implements Runnable {

    /**
     * The subcommands, in the order {@code --help} lists them. Registered in code, not in the
     * annotation, so that a run of one command builds only that command's model: picocli reflects
     * over every registered command and instantiates it, which cost each run tens of milliseconds
     * per command it did not run (and {@code validate}'s JSON stack on top).
     */
    static final List<String> COMMANDS = List.of("check-env", "wait", "healthcheck", "validate", "diagnose", "capture", "lint", "help");

    /** A new instance of the named command (a switch, not lambdas: each lambda costs start-up). */
    private static Object newCommand(String name) {
        return switch (name) {
            case "check-env" -> new CheckEnvCommand();
            case "wait" -> new WaitCommand();
            case "healthcheck" -> new HealthcheckCommand();
            case "validate" -> new ValidateCommand();
            case "diagnose" -> new DiagnoseCommand();
            case "capture" -> new CaptureCommand();
            case "lint" -> new LintCommand();
            case "help" -> new CommandLine.HelpCommand();
            default -> throw new IllegalArgumentException("no command " + name);
        };
    }

    /** The signal that stopped the process, if one did (set by the handler {@link #main} installs). */
    static final AtomicReference<String> STOPPED_BY = new AtomicReference<>();

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    final Map<String, String> env;
    final InputStream stdin;

    GuardInit(Map<String, String> env, InputStream stdin) {
        this.env = Map.copyOf(env);
        this.stdin = stdin;
    }

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "a command is required");
    }

    /** Builds the command line with guard's exit-code mapping, the given writers, the real environment and stdin. */
    public static CommandLine commandLine(PrintWriter out, PrintWriter err) {
        return commandLine(System.getenv(), System.in, out, err);
    }

    /** Builds the command line reading settings from {@code env} and JSON Lines from {@code stdin}. */
    public static CommandLine commandLine(Map<String, String> env, InputStream stdin, PrintWriter out, PrintWriter err) {
        return commandLine(env, stdin, out, err, null);
    }

    /**
     * The command line for one run: when {@code first} (the first argument) names a command, only
     * that command is registered; for {@code --version} none; otherwise (no argument, help, an
     * option, a typo that picocli answers with "did you mean") all of them.
     */
    static CommandLine commandLine(Map<String, String> env, InputStream stdin, PrintWriter out, PrintWriter err, String first) {
        CommandLine cl = new CommandLine(new GuardInit(env, stdin));
        if (first != null && COMMANDS.contains(first) && !first.equals("help")) {
            cl.addSubcommand(first, newCommand(first));
        } else if (!"--version".equals(first) && !"-V".equals(first)) {
            for (String name : COMMANDS) {
                cl.addSubcommand(name, newCommand(name));
            }
        }
        cl.setOut(out);
        cl.setErr(err);
        // picocli asks this mapper for usage errors too: they are 64, everything else a bug (70)
        cl.setExitCodeExceptionMapper(t -> t instanceof CommandLine.ParameterException ? ExitCodes.USAGE : ExitCodes.SOFTWARE);
        cl.getCommandSpec().exitCodeOnInvalidInput(ExitCodes.USAGE);
        cl.getCommandSpec().exitCodeOnExecutionException(ExitCodes.SOFTWARE);
        for (CommandLine sub : cl.getSubcommands().values()) {
            sub.getCommandSpec().exitCodeOnInvalidInput(ExitCodes.USAGE);
            sub.getCommandSpec().exitCodeOnExecutionException(ExitCodes.SOFTWARE);
        }
        cl.setExecutionExceptionHandler(new SettingsErrors()); // after the subcommands: it is set on each
        return cl;
    }

    /**
     * The one path for a bad setting (a flag, a {@code GUARD_*} variable or a {@code --config}
     * value that does not parse, names nothing, or contradicts another): every command reads its
     * settings and lets {@link GuardSettings.BadSetting} go; this prints
     * {@code guard-init <command>: <what, from where, what to do>} and ends with the setting's exit
     * code. {@code healthcheck} answers Compose's and Kubernetes' question, so a bad setting makes
     * it unhealthy (1). Anything else is a bug: picocli prints it and exits 70.
     */
    static final class SettingsErrors implements CommandLine.IExecutionExceptionHandler {
        @Override
        public int handleExecutionException(Exception e, CommandLine cl, CommandLine.ParseResult parsed) throws Exception {
            if (!(e instanceof GuardSettings.BadSetting bad)) {
                throw e;
            }
            boolean healthcheck = cl.getCommand() instanceof HealthcheckCommand;
            cl.getErr().println("guard-init " + cl.getCommandName() + ": " + (healthcheck ? "unhealthy: " : "") + bad.getMessage());
            return healthcheck ? ExitCodes.UNHEALTHY : bad.exitCode();
        }
    }

    /** Runs guard-init with the given writers and returns the exit code; never throws, never exits. */
    public static int run(PrintWriter out, PrintWriter err, String... args) {
        return run(System.getenv(), System.in, out, err, args);
    }

    /**
     * Runs guard-init with an explicit environment (where {@code GUARD_*} settings and
     * {@code check-env}'s variables are read) and stdin (for {@code validate -}); returns the exit code.
     */
    public static int run(Map<String, String> env, InputStream stdin, PrintWriter out, PrintWriter err, String... args) {
        try {
            return commandLine(env, stdin, out, err, args.length == 0 ? null : args[0]).execute(args);
        } finally {
            out.flush();
            err.flush();
        }
    }

    public static void main(String[] args) {
        // the CLI prints its own report: the libraries' logs (guard's gate, the broker clients) stay
        // off unless GUARD_LOG_LEVEL=info|debug|warn asks for them. Set here, before any logger
        // exists, and only for the real process (tests that embed guard-init keep their logging).
        String logLevel = System.getenv("GUARD_LOG_LEVEL");
        System.setProperty("org.slf4j.simpleLogger.defaultLogLevel",
                logLevel == null || logLevel.isBlank() ? "off" : logLevel.trim());
        System.setProperty("org.slf4j.simpleLogger.showDateTime", "true");
        // lettuce records its events to JDK Flight Recorder when jdk.jfr is present: loading JFR
        // cost a `wait` on Redis about 0.1 s of start-up, for events a one-shot CLI never records
        if (System.getProperty("io.lettuce.core.jfr") == null) {
            System.setProperty("io.lettuce.core.jfr", "false");
        }
        Thread main = Thread.currentThread();
        Signals.install(main, STOPPED_BY);
        int code = run(new PrintWriter(System.out, true), new PrintWriter(System.err, true), args);
        String signal = STOPPED_BY.get();
        if (signal != null) {
            code = Signals.exitCode(signal);
        }
        System.exit(code);
    }
}
