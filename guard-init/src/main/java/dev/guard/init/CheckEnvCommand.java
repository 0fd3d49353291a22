package dev.guard.init;

import dev.guard.config.GuardSettings;
import dev.guard.ExitCodes;
import dev.guard.config.ConfigGuard;
import dev.guard.config.ConfigReport;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/** {@code guard-init check-env --require NAME...}: the config guard over the environment. */
@Command(name = "check-env", mixinStandardHelpOptions = true, sortOptions = false,
        description = {
            "Checks that each required environment variable is set, not blank, not a placeholder (changeme, None, ${X}, "
                    + "also as a URL's password), parses as what it is, and does not point at this container itself "
                    + "(localhost), and reports drifted names (the worker reads CACHE_URL, the backend sets REDIS_URL). "
                    + "Every violation is listed, with where the value came from and what to do. Values are printed masked.",
            "Without a type, NAME is checked as what its name says: *_URL, *_URI, *_DSN a URL (any scheme); *_BROKERS, "
                    + "*_SERVERS, *_HOSTS, *_NODES, *_ADDR(S), *BOOTSTRAP* a host list; *_HOST a host; *_PORT a port; "
                    + "else by its value (scheme://... a URL, host:port a host list, else a string). The report says "
                    + "what was inferred and why. A type declares it instead: REDIS_URL:url, KAFKA_BOOTSTRAP:host_list, "
                    + "REDIS_HOST:host, WORKERS:int, JOB_TIMEOUT:duration (a bare number is seconds), METRICS_PORT:port, "
                    + "NOTE:string.",
            "Names also come from $GUARD_REQUIRE (comma/space separated) or guard.require in the --config file; "
                    + "--allow-loopback from $GUARD_ALLOW_LOOPBACK / guard.allow-loopback."
        },
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {
            ExitCodes.OK + ":every required variable is usable (warnings may be printed)",
            ExitCodes.USAGE + ":usage error (no name given, unknown type on the command line)",
            ExitCodes.CONFIG + ":at least one violation (all are listed on stderr)"
        })
final class CheckEnvCommand implements Callable<Integer> {

    @ParentCommand
    GuardInit root;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Option(names = "--require", paramLabel = "NAME[:TYPE]", split = ",",
            description = "a variable that must be set (repeatable; default: $GUARD_REQUIRE, guard.require)")
    List<String> require = new ArrayList<>();

    @Option(names = "--allow-loopback", paramLabel = "NAME", arity = "0..1", fallbackValue = "true", split = ",",
            description = "loopback is meant for these settings (a sidecar in the pod, host networking, local"
                    + " development); without NAME for every setting (default: $GUARD_ALLOW_LOOPBACK, guard.allow-loopback)")
    List<String> allowLoopback = new ArrayList<>();

    @Option(names = "--json", description = "print the JSON report on stdout")
    boolean json;

    @Mixin
    ConfigFileOption config;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        // a bad setting (here or below) ends the command through GuardInit's one path for them
        GuardSettings settings = GuardSettings.load(root.env, config.file);
        List<GuardSettings.Sourced<String>> names =
                settings.list(require, "--require", GuardSettings.ENV_REQUIRE, "require", GuardSettings::splitNames);
        GuardSettings.Sourced<List<String>> loopback = settings.loopbackAllowed(allowLoopback, "--allow-loopback");
        if (names.isEmpty()) {
            err.println("guard-init check-env: no variable to check. Action: give --require NAME (e.g. --require REDIS_URL:url), "
                    + "or set " + GuardSettings.ENV_REQUIRE + ", or guard.require in the --config file");
            return ExitCodes.USAGE;
        }
        ConfigGuard.Builder b = ConfigGuard.builder().environment(root.env).allowLoopback(loopback.value().toArray(String[]::new))
                .loopbackAllowance(GuardSettings.CLI_LOOPBACK_ALLOWANCE);
        for (GuardSettings.Sourced<String> n : names) {
            try {
                GuardSettings.Requirement.parse(n.value()).addTo(b);
            } catch (IllegalArgumentException e) {
                throw new GuardSettings.BadSetting(n.origin().startsWith("--") ? ExitCodes.USAGE : ExitCodes.CONFIG,
                        "'" + n.value().trim() + "' (from " + n.origin() + ") " + e.getMessage());
            }
        }
        ConfigReport report = b.build().check();
        if (json) {
            out.println(report.toJson());
        } else if (report.ok()) {
            out.print(report.render());
        } else {
            err.print(report.render());
            err.println("guard-init check-env: " + report.errors().size()
                    + (report.errors().size() == 1 ? " violation" : " violations") + "; the worker must not start like this");
        }
        return report.ok() ? ExitCodes.OK : ExitCodes.CONFIG;
    }
}
