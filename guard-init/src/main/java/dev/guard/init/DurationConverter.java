package dev.guard.init;

import java.time.Duration;
import picocli.CommandLine;

/** Parses {@code 60s}, {@code 500ms}, {@code 2m}, {@code PT10S} for duration flags; a bad value is a usage error. */
final class DurationConverter implements CommandLine.ITypeConverter<Duration> {
    @Override
    public Duration convert(String value) {
        try {
            Duration d = Settings.parseDuration(value);
            if (d.isZero()) {
                throw new CommandLine.TypeConversionException("'" + value + "' must be more than zero");
            }
            return d;
        } catch (IllegalArgumentException e) {
            throw new CommandLine.TypeConversionException(e.getMessage());
        }
    }
}
