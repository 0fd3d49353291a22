package dev.guard.init;

import dev.guard.ExitCodes;
import dev.guard.config.Redaction;
import dev.guard.init.diagnose.DiagnoseInputException;
import dev.guard.init.diagnose.Diagnoser;
import dev.guard.init.diagnose.Diagnosis;
import dev.guard.init.diagnose.DiagnosisReport;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code guard-init diagnose FILE...}: names the cause from captured logs. */
@Command(name = "diagnose", mixinStandardHelpOptions = true,
        description = {
            "Names why the worker drops jobs, from logs captured before anyone restarted anything "
                    + "(see 'guard-init capture'): worker logs (current and --previous), backend, Redis or "
                    + "broker logs, kubectl get pod / describe pod / get events, docker compose logs and ps. "
                    + "Each file's kind is told from its content; CRLF, compose prefixes and timestamps are fine.",
            "",
            "The first line of output is 'cause: ID[, ID...]', the causes in fix order (connectivity, then "
                    + "config, then contract). IDs: oom-or-probe-kill, dependency-down, network-blocked, "
                    + "redis-loading, startup-race, env-drift, permission, no-jobs, schema-skew, healthy, unknown. "
                    + "Then the evidence as file:line, errors per host, received vs processed, and what to do next."
        },
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {
            ExitCodes.OK + ":a cause was determined (healthy included)",
            DiagnoseCommand.UNDETERMINED + ":read the files, but no rule decided (cause: unknown)",
            ExitCodes.USAGE + ":usage error (no files, bad option)",
            ExitCodes.DATA_ERROR + ":a file cannot be read as a text log (missing, unreadable, binary)",
            ExitCodes.SOFTWARE + ":internal error"
        })
final class DiagnoseCommand implements Callable<Integer> {
    /** cause: unknown. */
    static final int UNDETERMINED = 1;

    @Spec
    CommandSpec spec;

    @Parameters(arity = "0..*", paramLabel = "FILE", description = "captured files, in any order")
    List<Path> files = new ArrayList<>();

    @Option(names = "--json", description = "print the diagnosis as JSON (its 'cause' field holds the first line)")
    boolean json;

    @Option(names = "--endpoint", paramLabel = "HOST[:PORT]",
            description = "an address the workers should use (repeatable): HOST, HOST:PORT or a URL, e.g. redis:6379. Errors naming "
                    + "any other host count as drift. Dependencies whose logs or status were captured are "
                    + "added by name.")
    List<String> endpoints = new ArrayList<>();

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        if (files.isEmpty()) {
            err.println("guard-init diagnose: no files given. Capture them first ('guard-init capture --compose' or "
                    + "'guard-init capture --kubernetes -n NAMESPACE'), then pass them: guard-init diagnose FILE...");
            return ExitCodes.USAGE;
        }
        Diagnoser diagnoser;
        try {
            diagnoser = Diagnoser.builder().endpoints(endpoints).build();
        } catch (IllegalArgumentException e) {
            err.println("guard-init diagnose: --endpoint: " + Redaction.maskText(e.getMessage())
                    + ". Action: give HOST, HOST:PORT or a URL, e.g. --endpoint redis:6379");
            return ExitCodes.USAGE;
        }
        Diagnosis d;
        try {
            d = diagnoser.diagnose(files);
        } catch (DiagnoseInputException e) {
            err.println("guard-init diagnose: " + e.getMessage());
            return ExitCodes.DATA_ERROR;
        } catch (OutOfMemoryError e) {
            // diagnose keeps a bounded summary of what it read, so this is a bug, not a large file
            err.println("guard-init diagnose: ran out of memory (heap limit " + Runtime.getRuntime().maxMemory() / 1048576
                    + " MB) reading " + files.size() + " file(s): diagnose's memory should not grow with a capture's "
                    + "size; report it with the files' sizes and line counts. Action: run it with a larger -Xmx meanwhile");
            return ExitCodes.SOFTWARE;
        }
        out.print(json ? DiagnosisReport.json(d) : DiagnosisReport.human(d));
        out.flush();
        return d.causes().equals(List.of("unknown")) ? UNDETERMINED : ExitCodes.OK;
    }
}
