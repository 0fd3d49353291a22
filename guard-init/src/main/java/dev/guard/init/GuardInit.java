package dev.guard.init;

import java.io.PrintWriter;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * guard-init: the standalone CLI. {@link #run(PrintWriter, PrintWriter, String...)} returns the exit
 * code; only {@link #main(String[])} calls {@code System.exit}.
 */
@Command(
        name = "guard-init",
        mixinStandardHelpOptions = true,
        version = "guard-init 0.1.0",
        description = "Stops queue workers from losing jobs silently: checks config, waits for brokers, "
                + "validates payloads, diagnoses captured logs.",
        subcommands = {
            CheckEnvCommand.class,
            WaitCommand.class,
            HealthcheckCommand.class,
            ValidateCommand.class,
            DiagnoseCommand.class,
            CaptureCommand.class,
            CommandLine.HelpCommand.class
        },
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {
            "0:ok",
            "64:usage error",
            "65:invalid payload (validate)",
            "69:not ready by the deadline (wait)",
            "70:internal error",
            "77:authentication refused",
            "78:bad configuration or target"
        })
public final class GuardInit implements Runnable {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "a command is required");
    }

    /** Builds the command line with guard's exit-code mapping and the given writers. */
    public static CommandLine commandLine(PrintWriter out, PrintWriter err) {
        CommandLine cl = new CommandLine(new GuardInit());
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
        return cl;
    }

    /** Runs guard-init with the given writers and returns the exit code; never throws, never exits. */
    public static int run(PrintWriter out, PrintWriter err, String... args) {
        try {
            return commandLine(out, err).execute(args);
        } finally {
            out.flush();
            err.flush();
        }
    }

    public static void main(String[] args) {
        int code = run(new PrintWriter(System.out, true), new PrintWriter(System.err, true), args);
        System.exit(code);
    }
}
