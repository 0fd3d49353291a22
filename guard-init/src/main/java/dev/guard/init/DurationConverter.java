package dev.guard.init;

import dev.guard.config.GuardSettings;
import java.time.Duration;
import picocli.CommandLine;

/** Parses duration flags by guard's one rule ({@code 60} is sixty seconds; {@code 500ms}, {@code 2m}, {@code PT10S}); a bad value is a usage error. */
final class DurationConverter implements CommandLine.ITypeConverter<Duration> {
    @Override
    public Duration convert(String value) {
        try {
            Duration d = GuardSettings.parseDuration(value);
            if (d.isZero()) {
                throw new CommandLine.TypeConversionException("'" + value + "' must be more than zero");
            }
            return d;
        } catch (IllegalArgumentException e) {
            throw new CommandLine.TypeConversionException(e.getMessage());
        }
    }
}
