package dev.guard.init;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;

/** Placeholder until its issue lands: fails loudly instead of pretending. */
@Command(name = "validate", description = "not built yet", mixinStandardHelpOptions = true)
final class ValidateCommand implements Callable<Integer> {
    @Override
    public Integer call() {
        throw new UnsupportedOperationException("guard-init validate is not built yet");
    }
}
