package dev.guard.init;

import dev.guard.ExitCodes;
import dev.guard.init.diagnose.Capture;
import dev.guard.init.diagnose.CaptureException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code guard-init capture}: saves the runbook's files before anyone restarts anything. */
@Command(name = "capture", mixinStandardHelpOptions = true,
        description = {
            "Saves what 'guard-init diagnose' needs, before anyone restarts anything (a recreated "
                    + "container loses its log): with --compose, 'docker compose ps --all' and each service's "
                    + "'docker compose logs --no-color --no-log-prefix --timestamps'; with --kubernetes, "
                    + "'kubectl get pod -o wide', and per pod 'kubectl describe pod', 'kubectl logs --timestamps "
                    + "--all-containers' and '--previous', then 'kubectl get events'. Every command and its exit "
                    + "code go to capture.txt in the folder. Prints the diagnose command to run next.",
            "The files are saved as the tools print them (describe output may show environment values); "
                    + "diagnose masks secrets when it prints."
        },
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {
            ExitCodes.OK + ":captured (single commands may have failed: see capture.txt)",
            ExitCodes.USAGE + ":usage error",
            ExitCodes.UNAVAILABLE + ":docker / kubectl missing, or its first listing failed (no project, no cluster access)",
            ExitCodes.SOFTWARE + ":internal error"
        })
final class CaptureCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(names = "--compose", description = "capture a docker compose project")
    boolean compose;

    @Option(names = "--kubernetes", description = "capture pods of a Kubernetes namespace (with -n)")
    boolean kubernetes;

    @Option(names = "--project-dir", paramLabel = "DIR", description = "compose: the project directory")
    Path projectDir;

    @Option(names = {"-n", "--namespace"}, paramLabel = "NAMESPACE", description = "kubernetes: the namespace (required)")
    String namespace;

    @Option(names = {"-l", "--selector"}, paramLabel = "SELECTOR",
            description = "kubernetes: a label selector, e.g. app in (worker,redis); default all pods of the namespace")
    String selector;

    @Option(names = "--out", paramLabel = "DIR", description = "the folder to write (default guard-capture-<UTC time>)")
    Path out;

    @Option(names = "--docker", paramLabel = "EXE", description = "the docker executable (default: docker on PATH)")
    String docker;

    @Option(names = "--kubectl", paramLabel = "EXE", description = "the kubectl executable (default: kubectl on PATH)")
    String kubectl;

    @Override
    public Integer call() {
        PrintWriter o = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        Capture.Builder b;
        if (compose == kubernetes) {
            err.println("guard-init capture: give exactly one of --compose or --kubernetes -n NAMESPACE");
            return ExitCodes.USAGE;
        }
        if (compose) {
            if (namespace != null || selector != null) {
                err.println("guard-init capture: -n/-l are for --kubernetes; with --compose use --project-dir");
                return ExitCodes.USAGE;
            }
            b = Capture.compose().projectDir(projectDir).executable(docker);
        } else {
            if (namespace == null) {
                err.println("guard-init capture: --kubernetes needs -n NAMESPACE (the namespace of the worker and its "
                        + "dependency pods)");
                return ExitCodes.USAGE;
            }
            if (projectDir != null) {
                err.println("guard-init capture: --project-dir is for --compose");
                return ExitCodes.USAGE;
            }
            b = Capture.kubernetes(namespace).selector(selector).executable(kubectl);
        }
        Capture.Result r;
        try {
            r = b.out(out).build().run();
        } catch (CaptureException e) {
            err.println("guard-init capture: " + e.getMessage());
            return ExitCodes.UNAVAILABLE;
        }
        long failed = r.steps().stream().filter(s -> s.exitCode() != 0).count();
        o.println("captured " + r.files().size() + " files into " + r.dir()
                + (failed > 0 ? " (" + failed + " commands failed, e.g. --previous with no restart: see capture.txt)"
                        : "") + "; commands and exit codes in " + r.dir().resolve("capture.txt"));
        o.println("next: " + r.diagnoseCommand());
        o.flush();
        return ExitCodes.OK;
    }
}
