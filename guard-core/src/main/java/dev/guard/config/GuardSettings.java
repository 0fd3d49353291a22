package dev.guard.config;

import dev.guard.ExitCodes;
import com.typesafe.config.Config;
import com.typesafe.config.ConfigException;
import com.typesafe.config.ConfigFactory;
import com.typesafe.config.ConfigResolveOptions;
import com.typesafe.config.ConfigValue;
import com.typesafe.config.ConfigValueType;
import dev.guard.ExitCodes;
import java.io.File;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Where guard's settings come from (the {@code guard-init} commands, and a worker booted by
 * {@code Guard}, so one file serves the initContainer and the worker), first found wins: the
 * command-line flag (guard-init only), then the
 * environment ({@code GUARD_REQUIRE}, {@code GUARD_WAIT}, {@code GUARD_TIMEOUT},
 * {@code GUARD_ATTEMPT_TIMEOUT}, {@code GUARD_ALLOW_LOOPBACK}, {@code GUARD_SCHEMA}), then the
 * HOCON file ({@code --config FILE} or {@code GUARD_CONFIG}; keys under {@code guard}), then the
 * default. Every value knows its origin, and every bad value is reported with it.
 *
 * <pre>
 * guard {
 *   require = [REDIS_URL, "KAFKA_BOOTSTRAP:host_list"]
 *   allow-loopback = false
 *   wait = ["redis://redis:6379", "kafka://kafka:9092?topics=jobs"]
 *   timeout = 60          # seconds; or 60s, 500ms, 2m
 *   attempt-timeout = 2s
 *   schema = /etc/guard/job.schema.json
 *   signal-check = error  # a worker booted by Guard: a shell as PID 1 stops it (warn, off)
 * }
 * </pre>
 *
 * The file is resolved against the environment, so {@code wait = [${REDIS_URL}]} works.
 */
public final class GuardSettings {
    public static final String ENV_CONFIG = "GUARD_CONFIG";
    public static final String ENV_REQUIRE = "GUARD_REQUIRE";
    public static final String ENV_WAIT = "GUARD_WAIT";
    public static final String ENV_TIMEOUT = "GUARD_TIMEOUT";
    public static final String ENV_ATTEMPT_TIMEOUT = "GUARD_ATTEMPT_TIMEOUT";
    public static final String ENV_ALLOW_LOOPBACK = "GUARD_ALLOW_LOOPBACK";
    public static final String ENV_SCHEMA = "GUARD_SCHEMA";
    public static final String ENV_SCHEMA_REFS = "GUARD_SCHEMA_REFS";
    public static final String ENV_SCHEMA_NETWORK_REFS = "GUARD_SCHEMA_NETWORK_REFS";
    public static final String ENV_SCHEMA_FORMAT_ASSERTION = "GUARD_SCHEMA_FORMAT_ASSERTION";

    /** A required variable as {@code guard.require}, {@code GUARD_REQUIRE} and {@code --require} write it: {@code NAME} or {@code NAME:TYPE}. */
    public record Requirement(String name, SettingType type) {

        /**
         * {@code REDIS_URL} (type inferred from the name: {@code type} is null) or {@code REDIS_URL:url}.
         *
         * @throws IllegalArgumentException "has an unknown type 'x'. Action: use one of ..."
         */
        public static Requirement parse(String spec) {
            String s = spec.trim();
            int colon = s.indexOf(':');
            if (colon < 0) {
                return new Requirement(s, null);
            }
            String typeName = s.substring(colon + 1).trim().toUpperCase(Locale.ROOT).replace('-', '_');
            try {
                return new Requirement(s.substring(0, colon).trim(), SettingType.valueOf(typeName));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("has an unknown type '" + s.substring(colon + 1) + "'. Action: use one of "
                        + Arrays.stream(SettingType.values()).map(t -> t.name().toLowerCase(Locale.ROOT))
                                .collect(java.util.stream.Collectors.joining(", ")), e);
            }
        }

        /** Adds this requirement to a config guard. */
        public void addTo(ConfigGuard.Builder guard) {
            if (type == null) {
                guard.requireEnv(name);
            } else {
                guard.requireEnv(name, type);
            }
        }
    }

    /** A value and where it came from ({@code --timeout}, {@code env GUARD_TIMEOUT}, {@code guard.timeout in f.conf:3}). */
    public record Sourced<T>(T value, String origin) {}

    /** A setting that cannot be used: the message names it, its origin, what was found and what to do. */
    public static final class BadSetting extends RuntimeException {
        private static final long serialVersionUID = 1L;
        private final int exitCode;

        public BadSetting(int exitCode, String message) {
            super(message);
            this.exitCode = exitCode;
        }

        /** The {@link ExitCodes} value a command or a booting worker exits with. */
        public int exitCode() {
            return exitCode;
        }
    }

    private final Map<String, String> env;
    private final Config file;
    private final String fileName;

    private GuardSettings(Map<String, String> env, Config file, String fileName) {
        this.env = env;
        this.file = file;
        this.fileName = fileName;
    }

    /** Loads the HOCON file named by {@code --config} (when given) or {@code GUARD_CONFIG}. */
    public static GuardSettings load(Map<String, String> env, File configFlag) {
        String origin;
        File f;
        if (configFlag != null) {
            f = configFlag;
            origin = "--config";
        } else if (present(env.get(ENV_CONFIG))) {
            f = new File(env.get(ENV_CONFIG).trim());
            origin = "env " + ENV_CONFIG;
        } else {
            return new GuardSettings(env, ConfigFactory.empty(), null);
        }
        if (!f.isFile()) {
            throw new BadSetting(ExitCodes.CONFIG, "config file " + f + " (from " + origin + ") does not exist or is "
                    + "not a file. Action: mount the file there, or fix " + origin);
        }
        try {
            // unresolved substitutions fail only when that setting is read: check-env reads guard.require
            // and reports each missing variable itself, even when guard.wait substitutes one of them
            Config parsed = ConfigFactory.parseFile(f).resolveWith(ConfigFactory.parseMap(envForResolution(env)),
                    ConfigResolveOptions.defaults().setAllowUnresolved(true));
            return new GuardSettings(env, parsed, f.getPath());
        } catch (ConfigException e) {
            throw new BadSetting(ExitCodes.CONFIG, "config file " + f + " (from " + origin + ") cannot be read: "
                    + Redaction.maskText(e.getMessage()) + ". Action: fix the HOCON syntax, or set the variable it "
                    + "substitutes");
        }
    }

    private static Map<String, String> envForResolution(Map<String, String> env) {
        // parseMap treats dots as path separators; environment names have none that matter here
        Map<String, String> out = new java.util.HashMap<>();
        env.forEach((k, v) -> {
            if (!k.contains(".") && !k.isEmpty()) {
                out.put(k, v);
            }
        });
        return out;
    }

    /** The file's name, or null when none was given. */
    public String fileName() {
        return fileName;
    }

    private String fileOrigin(String path) {
        ConfigValue v;
        try {
            v = file.getValue(path);
        } catch (ConfigException.NotResolved e) {
            throw unresolved(path, e);
        }
        int line = v.origin().lineNumber();
        // a value from a file the config includes is named by that file, not by the one given
        String where = v.origin().filename() != null ? v.origin().filename() : fileName;
        return path + " in " + where + (line > 0 ? ":" + line : "");
    }

    private BadSetting unresolved(String path, ConfigException e) {
        return new BadSetting(ExitCodes.CONFIG, path + " in " + fileName + " substitutes a variable that is not set ("
                + Redaction.maskText(e.getMessage()) + "). Action: set that variable in this container's environment");
    }

    /** A list: flag values, else the env variable split by {@code splitter}, else the file's list. */
    public List<Sourced<String>> list(List<String> flag, String flagName, String envName, String path,
            java.util.function.Function<String, List<String>> splitter) {
        List<Sourced<String>> out = new ArrayList<>();
        if (flag != null && !flag.isEmpty()) {
            flag.forEach(v -> out.add(new Sourced<>(v, flagName)));
            return out;
        }
        if (present(env.get(envName))) {
            splitter.apply(env.get(envName)).forEach(v -> out.add(new Sourced<>(v, "env " + envName)));
            return out;
        }
        String full = "guard." + path;
        if (file.hasPath(full)) {
            String origin = fileOrigin(full);
            try {
                if (file.getValue(full).valueType() == ConfigValueType.LIST) {
                    file.getStringList(full).forEach(v -> out.add(new Sourced<>(v, origin)));
                } else {
                    splitter.apply(file.getString(full)).forEach(v -> out.add(new Sourced<>(v, origin)));
                }
            } catch (ConfigException.NotResolved e) {
                throw unresolved(full, e);
            } catch (ConfigException.WrongType e) {
                throw new BadSetting(ExitCodes.CONFIG, origin + " is not a list of strings: " + e.getMessage()
                        + ". Action: write it as " + path + " = [\"...\", \"...\"]");
            }
        }
        return out;
    }

    /** A duration: the flag, else env, else the file, else {@code fallback}. */
    public Sourced<Duration> duration(Duration flag, String flagName, String envName, String path, Duration fallback) {
        if (flag != null) {
            return new Sourced<>(flag, flagName);
        }
        if (present(env.get(envName))) {
            String raw = env.get(envName).trim();
            try {
                return new Sourced<>(parseDuration(raw), "env " + envName);
            } catch (IllegalArgumentException e) {
                throw new BadSetting(ExitCodes.CONFIG, envName + "='" + Redaction.maskValue(envName, raw)
                        + "' (from env " + envName + ") is not a duration. Action: set it to " + Durations.FORMS);
            }
        }
        String full = "guard." + path;
        if (file.hasPath(full)) {
            String origin = fileOrigin(full);
            try {
                return new Sourced<>(Durations.fromConfig(file, full), origin);
            } catch (ConfigException.NotResolved e) {
                throw unresolved(full, e);
            } catch (IllegalArgumentException | ConfigException e) {
                throw new BadSetting(ExitCodes.CONFIG, origin + " is not a duration ("
                        + Redaction.maskText(String.valueOf(file.getValue(full).unwrapped())) + "). Action: write "
                        + Durations.FORMS + ", e.g. " + path + " = 60");
            }
        }
        return new Sourced<>(fallback, "default");
    }

    /** A boolean switch: set when the flag is, else env ({@code true/false/1/0/yes/no}), else the file. */
    public Sourced<Boolean> flag(boolean flag, String flagName, String envName, String path) {
        if (flag) {
            return new Sourced<>(true, flagName);
        }
        if (present(env.get(envName))) {
            String raw = env.get(envName).trim().toLowerCase(Locale.ROOT);
            switch (raw) {
                case "true", "1", "yes", "on" -> {
                    return new Sourced<>(true, "env " + envName);
                }
                case "false", "0", "no", "off" -> {
                    return new Sourced<>(false, "env " + envName);
                }
                default -> throw new BadSetting(ExitCodes.CONFIG, envName + "='" + env.get(envName).trim()
                        + "' (from env " + envName + ") is not a boolean. Action: set it to true or false");
            }
        }
        String full = "guard." + path;
        if (file.hasPath(full)) {
            try {
                return new Sourced<>(file.getBoolean(full), fileOrigin(full));
            } catch (ConfigException e) {
                throw new BadSetting(ExitCodes.CONFIG, fileOrigin(full) + " is not a boolean. Action: write "
                        + path + " = true or false");
            }
        }
        return new Sourced<>(false, "default");
    }

    /**
     * Which settings may point at loopback: the flag's values, else {@value #ENV_ALLOW_LOOPBACK},
     * else {@code guard.allow-loopback}; each value {@code true} (every setting, returned as
     * {@code "*"}), {@code false} (none), or setting names separated by commas ({@code REDIS_URL}
     * because a sidecar in the pod serves it).
     */
    public Sourced<List<String>> loopbackAllowed(List<String> flag, String flagName) {
        List<Sourced<String>> raw = list(flag, flagName, ENV_ALLOW_LOOPBACK, "allow-loopback", GuardSettings::splitNames);
        List<String> names = new ArrayList<>();
        for (Sourced<String> r : raw) {
            String v = loopbackAllowance(r.value());
            if (v != null && !v.equals("*") && !v.matches("[A-Za-z_][A-Za-z0-9_.\\-\\[\\]]*")) {
                throw new BadSetting(ExitCodes.CONFIG, "'" + v + "' (from " + r.origin() + ") is neither true, false nor"
                        + " a setting name. Action: give true (every setting may be loopback), false, or the names"
                        + " that may, e.g. REDIS_URL");
            }
            if (v != null) {
                names.add(v);
            }
        }
        return new Sourced<>(List.copyOf(names), raw.isEmpty() ? "default" : raw.get(0).origin());
    }

    /**
     * One value of a loopback allowance, wherever it was written: {@code "*"} for true, 1, yes,
     * on or {@code *} (every setting); {@code null} for false, 0, no, off (none); else the setting
     * name, trimmed.
     */
    public static String loopbackAllowance(String value) {
        String v = value.trim();
        return switch (v.toLowerCase(Locale.ROOT)) {
            case "true", "1", "yes", "on", "*" -> "*";
            case "false", "0", "no", "off" -> null;
            default -> v;
        };
    }

    /** How the CLI's users allow loopback, for {@code ConfigGuard.Builder.loopbackAllowance}. */
    public static final String CLI_LOOPBACK_ALLOWANCE = "--allow-loopback={name} (or " + ENV_ALLOW_LOOPBACK
            + "={name}, or guard.allow-loopback = [{name}] in the GUARD_CONFIG file; true allows every setting)";

    /** A single string: the flag, else env, else the file. */
    public Optional<Sourced<String>> string(String flag, String flagName, String envName, String path) {
        if (flag != null) {
            return Optional.of(new Sourced<>(flag, flagName));
        }
        if (present(env.get(envName))) {
            return Optional.of(new Sourced<>(env.get(envName).trim(), "env " + envName));
        }
        String full = "guard." + path;
        if (file.hasPath(full)) {
            String origin = fileOrigin(full);
            try {
                return Optional.of(new Sourced<>(file.getString(full), origin));
            } catch (ConfigException.NotResolved e) {
                throw unresolved(full, e);
            }
        }
        return Optional.empty();
    }

    /** guard's one duration rule ({@link Durations#parse}): {@code 60} is sixty seconds; {@code 500ms}, {@code 2m}, {@code PT10S}. */
    public static Duration parseDuration(String text) {
        return Durations.parse(text);
    }

    /** GUARD_REQUIRE: names separated by commas and/or white space. */
    public static List<String> splitNames(String raw) {
        return Arrays.stream(raw.split("[,\\s]+")).map(String::trim).filter(s -> !s.isEmpty()).toList();
    }

    /**
     * GUARD_WAIT: targets separated by white space, or by commas that start a new URL (a comma
     * inside {@code kafka://a:9092,b:9092} stays: it is not followed by {@code scheme://}).
     */
    public static List<String> splitTargets(String raw) {
        return Arrays.stream(raw.split("\\s+|,\\s*(?=[A-Za-z][A-Za-z0-9+.\\-]*://)"))
                .map(String::trim).filter(s -> !s.isEmpty()).toList();
    }

    private static boolean present(String v) {
        return v != null && !v.isBlank();
    }
}
