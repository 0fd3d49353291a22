package dev.guard.init;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.guard.ExitCodes;
import dev.guard.init.lint.Finding;
import dev.guard.init.lint.Lint;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/** {@code guard-init lint FILE...}: the seeds' pitfalls in Compose files, Kubernetes manifests and Dockerfiles. */
@Command(name = "lint", mixinStandardHelpOptions = true, sortOptions = false,
        description = {
            "Finds, before anything runs, what makes workers lose jobs or start into errors: a shell as PID 1, a sleep "
                    + "posing as a readiness wait, a Redis check that passes on LOADING, depends_on without a health "
                    + "condition, a grace period shorter than the longest job, env var drift between services, loopback "
                    + "addresses, credentials on command lines, liveness probes that ask a broker, and more.",
            "FILE is a Compose file, Kubernetes YAML (several documents, a whole 'helm template' output) or a "
                    + "Dockerfile; '-' reads standard input ('helm template ... | guard-init lint -', 'docker compose "
                    + "config | guard-init lint -'). Each finding: file:line, what goes wrong at run time, the fix."
        },
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {
            ExitCodes.OK + ":no error found (warnings may be printed)",
            ExitCodes.USAGE + ":usage error (no file, an unknown rule in --skip)",
            ExitCodes.DATA_ERROR + ":a file is neither YAML nor a Dockerfile lint can read",
            ExitCodes.NO_INPUT + ":a file does not exist or cannot be read",
            ExitCodes.CONFIG + ":at least one error found"
        })
final class LintCommand implements Callable<Integer> {

    /** The rules, for --skip and the README's table. */
    static final List<String> RULES = List.of("shell-pid1", "sleep-as-wait", "tcp-wait-redis", "wait-not-strict",
            "wait-forever", "secret-in-command", "secret-in-image", "undefined-variable", "loopback-env", "redis-ping-check",
            "liveness-asks-broker", "prestop-shell-sleep", "depends-on-started", "grace-mismatch", "grace-shorter-than-job",
            "replicas-under-autoscaler", "autoscaled-without-pdb", "env-drift", "deletion-cost-unreachable");

    @ParentCommand
    GuardInit root;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Parameters(paramLabel = "FILE", arity = "1..*", description = "Compose file, Kubernetes YAML or Dockerfile; '-' for stdin")
    List<String> files = new ArrayList<>();

    @Option(names = "--json", description = "print one JSON report on stdout")
    boolean json;

    @Option(names = "--skip", paramLabel = "RULE", split = ",",
            description = "rules not to apply (repeatable or comma-separated), where the file means it: e.g. --skip loopback-env for a host-network stack")
    List<String> skip = new ArrayList<>();

    @Override
    public Integer call() throws IOException {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        Set<String> skipped = new LinkedHashSet<>(skip);
        for (String s : skipped) {
            if (!RULES.contains(s)) {
                err.println("guard-init lint: --skip " + s + ": no such rule; the rules: " + String.join(", ", RULES));
                return ExitCodes.USAGE;
            }
        }
        Map<String, String> inputs = new LinkedHashMap<>();
        for (String f : files) {
            try {
                inputs.put(f, f.equals("-") ? new String(root.stdin.readAllBytes(), StandardCharsets.UTF_8)
                        : Files.readString(Path.of(f)));
            } catch (NoSuchFileException e) {
                err.println("guard-init lint: " + f + ": no such file");
                return ExitCodes.NO_INPUT;
            } catch (IOException e) {
                err.println("guard-init lint: " + f + ": cannot be read (" + e.getMessage() + ")");
                return ExitCodes.NO_INPUT;
            }
        }
        Lint.Result result;
        try {
            result = Lint.run(inputs);
        } catch (IllegalArgumentException e) {
            err.println("guard-init lint: " + e.getMessage());
            return ExitCodes.DATA_ERROR;
        }
        List<Finding> findings = result.findings().stream().filter(f -> !skipped.contains(f.rule())).toList();
        long errors = findings.stream().filter(f -> f.severity() == Finding.Severity.ERROR).count();
        int exit = errors > 0 ? ExitCodes.CONFIG : ExitCodes.OK;
        if (json) {
            Map<String, Object> report = new LinkedHashMap<>();
            report.put("files", files);
            report.put("findings", findings.stream().map(Finding::json).toList());
            report.put("notes", result.notes());
            report.put("errors", errors);
            report.put("warnings", findings.size() - errors);
            report.put("skipped", List.copyOf(skipped));
            report.put("exit", exit);
            out.println(new ObjectMapper().writerWithDefaultPrettyPrinter().writeValueAsString(report));
        } else {
            findings.forEach(f -> out.println(f.render()));
            result.notes().forEach(n -> out.println("note: " + n));
            out.println("guard-init lint: " + files.size() + (files.size() == 1 ? " file, " : " files, ") + errors
                    + (errors == 1 ? " error, " : " errors, ") + (findings.size() - errors)
                    + (findings.size() - errors == 1 ? " warning" : " warnings")
                    + (skipped.isEmpty() ? "" : " (skipped: " + String.join(", ", skipped) + ")"));
        }
        out.flush();
        return exit;
    }
}
