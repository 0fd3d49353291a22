package dev.guard.init;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;

/** Placeholder until its issue lands: fails loudly instead of pretending. */
@Command(name = "healthcheck", description = "not built yet", mixinStandardHelpOptions = true)
final class HealthcheckCommand implements Callable<Integer> {
    @Override
    public Integer call() {
        throw new UnsupportedOperationException("guard-init healthcheck is not built yet");
    }
}
