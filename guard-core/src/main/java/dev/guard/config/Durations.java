package dev.guard.config;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigException;
import com.typesafe.config.ConfigFactory;
import com.typesafe.config.ConfigValue;
import com.typesafe.config.ConfigValueFactory;
import com.typesafe.config.ConfigValueType;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * guard's one rule for durations, used by every duration setting (guard-init's flags, the
 * {@code GUARD_*} variables, HOCON files, {@code DrainConfig}, the config guard's
 * {@link SettingType#DURATION}):
 * <ul>
 * <li>a bare number is <b>seconds</b>: {@code 5}, {@code 1.5} (as {@code wait-for-it -t 15} and
 *     Kubernetes' {@code *Seconds} fields read it; typesafe-config alone would read milliseconds);</li>
 * <li>a number with a unit is read by typesafe-config: {@code 500ms}, {@code 30s}, {@code 2m},
 *     {@code 1h}, {@code 10 seconds};</li>
 * <li>ISO-8601 works too: {@code PT10S};</li>
 * <li>anything else, and any negative duration, is refused.</li>
 * </ul>
 */
public final class Durations {

    /** The accepted forms, for messages. */
    public static final String FORMS = "seconds (30), a number with a unit (500ms, 30s, 2m, 1h) or ISO-8601 (PT30S)";

    private static final Pattern BARE_NUMBER = Pattern.compile("-?\\d+(?:\\.\\d+)?");

    private Durations() {}

    /**
     * Parses {@code text} by the rule in the class comment.
     *
     * @throws IllegalArgumentException {@code "'5 parsecs' is not a duration: write seconds (30), ..."}
     */
    public static Duration parse(String text) {
        String t = text == null ? "" : text.trim();
        if (t.isEmpty()) {
            throw new IllegalArgumentException("an empty value is not a duration: write " + FORMS);
        }
        Duration d;
        if (BARE_NUMBER.matcher(t).matches()) {
            d = ConfigFactory.parseMap(java.util.Map.of("d", t + "s")).getDuration("d");
        } else if (t.toUpperCase(Locale.ROOT).startsWith("P") || t.toUpperCase(Locale.ROOT).startsWith("-P")) {
            try {
                d = Duration.parse(t.toUpperCase(Locale.ROOT));
            } catch (DateTimeParseException e) {
                throw notADuration(t);
            }
        } else if (!Character.isLetter(t.charAt(t.length() - 1))) {
            // typesafe-config would read a unit-less "1e3" as milliseconds: guard refuses what is neither rule
            throw notADuration(t);
        } else {
            try {
                d = ConfigFactory.empty().withValue("d", ConfigValueFactory.fromAnyRef(t)).getDuration("d");
            } catch (ConfigException e) {
                throw notADuration(t);
            }
        }
        if (d.isNegative()) {
            throw new IllegalArgumentException("'" + t + "' is negative: a duration must be zero or more");
        }
        return d;
    }

    /**
     * The duration at {@code path} of a HOCON config, by the same rule: {@code timeout = 5} is five
     * seconds, {@code timeout = 500ms} half a second.
     *
     * @throws IllegalArgumentException when the value is not a duration (a list, an object, text that does not parse)
     * @throws ConfigException.Missing  when the path is not set
     */
    public static Duration fromConfig(Config config, String path) {
        ConfigValue v = config.getValue(path);
        if (v.valueType() == ConfigValueType.NUMBER || v.valueType() == ConfigValueType.STRING) {
            return parse(String.valueOf(v.unwrapped()));
        }
        throw new IllegalArgumentException("a " + v.valueType().name().toLowerCase(Locale.ROOT) + " is not a duration: write " + FORMS);
    }

    /**
     * A duration as a person reads it in a report: {@code 450 ms}, {@code 1.5 s}, {@code 30 s},
     * {@code 30 min}, {@code 1 h 30 min}, {@code 2 d}; exact where the value has a sub-unit part
     * ({@code 90 s} stays {@code 90 s}, not {@code 1.5 min}).
     */
    public static String show(Duration d) {
        long ms = d.toMillis();
        if (ms < 1000) {
            return ms + " ms";
        }
        if (ms % 1000 != 0) {
            return ms < 60_000 ? java.math.BigDecimal.valueOf(ms, 3).stripTrailingZeros().toPlainString() + " s" : ms + " ms";
        }
        long s = ms / 1000;
        if (s % 60 != 0 || s < 60) {
            return s + " s";
        }
        long min = s / 60;
        if (min % 60 != 0 || min < 60) {
            return min >= 60 ? (min / 60) + " h " + (min % 60) + " min" : min + " min";
        }
        long h = min / 60;
        return h % 24 == 0 ? (h / 24) + " d" : h + " h";
    }

    private static IllegalArgumentException notADuration(String t) {
        return new IllegalArgumentException("'" + t + "' is not a duration: write " + FORMS);
    }
}
