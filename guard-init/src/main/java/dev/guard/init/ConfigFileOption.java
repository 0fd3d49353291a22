package dev.guard.init;

import java.io.File;
import picocli.CommandLine.Option;

/** The {@code --config FILE} option every command shares (HOCON, keys under {@code guard}). */
final class ConfigFileOption {
    @Option(names = "--config", paramLabel = "FILE",
            description = "HOCON settings file (keys under guard: require, allow-loopback, wait, timeout, "
                    + "attempt-timeout, schema); default: $GUARD_CONFIG. Flags win over env, env over the file.")
    File file;
}
