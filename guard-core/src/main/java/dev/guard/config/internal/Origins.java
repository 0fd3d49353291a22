package dev.guard.config.internal;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigException;
import com.typesafe.config.ConfigList;
import com.typesafe.config.ConfigObject;
import com.typesafe.config.ConfigOrigin;
import com.typesafe.config.ConfigRenderOptions;
import com.typesafe.config.ConfigUtil;
import com.typesafe.config.ConfigValue;
import com.typesafe.config.ConfigValueType;
import dev.guard.config.Setting;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Where a config path's value came from: the environment variable behind its {@code ${?VAR}}, a
 * system property, a config file and line, or reference.conf's default. One instance per check:
 * it remembers how each substitution is written ({@code ${?REDIS_URL}} or {@code ${REDIS_URL}}).
 */
public final class Origins {

    private static final Pattern SUBSTITUTION = Pattern.compile("\\$\\{(\\??)\\s*\"?([^}\"]+?)\"?\\s*}");

    /**
     * A value's origin.
     *
     * @param text    as the report prints it: {@code env REDIS_URL}, {@code application.conf:3}, {@code default (reference.conf:1)}
     * @param source  the kind of origin
     * @param envName the variable it came from, when known
     */
    public record Origin(String text, Setting.Source source, String envName) {}

    private final Map<String, String> env;
    private final Map<String, String> envHints;
    private final Map<String, String> substitutions = new LinkedHashMap<>();

    /** @param envHints config path to the variable declared to feed it ({@code mustComeFromEnv(path, VAR)}) */
    public Origins(Map<String, String> env, Map<String, String> envHints) {
        this.env = env;
        this.envHints = envHints;
    }

    /** How the config writes the substitution of {@code envName}: {@code ${?REDIS_URL}} unless seen otherwise. */
    public String written(String envName) {
        return substitutions.getOrDefault(envName, "${?" + envName + "}");
    }

    /** Environment variable names the unresolved config substitutes at {@code path}, the declared hint first. */
    public List<String> hints(String path, ConfigLoading.Loaded loaded) {
        Set<String> out = new LinkedHashSet<>();
        String declared = envHints.get(path);
        if (declared != null) {
            out.add(declared);
        }
        if (loaded.raw() != null) {
            try {
                ConfigValue raw = navigate(loaded.raw().root(), ConfigUtil.splitPath(path));
                if (raw != null) {
                    Matcher m = SUBSTITUTION.matcher(raw.render(ConfigRenderOptions.concise()));
                    while (m.find()) {
                        String name = m.group(2).trim();
                        if (!isConfigPath(loaded.resolved(), name)) {
                            out.add(name);
                            substitutions.putIfAbsent(name, "${" + m.group(1) + name + "}");
                        }
                    }
                }
            } catch (ConfigException | ClassCastException e) {
                // no hint: the origin is still reported, only the variable name is unknown
            }
        }
        return List.copyOf(out);
    }

    private static boolean isConfigPath(Config resolved, String name) {
        try {
            return resolved.hasPathOrNull(name);
        } catch (ConfigException e) {
            return false;
        }
    }

    private static ConfigValue navigate(ConfigObject root, List<String> keys) {
        ConfigObject o = root;
        for (int i = 0; i < keys.size() - 1; i++) {
            ConfigValue v = o.get(keys.get(i));
            if (!(v instanceof ConfigObject)) {
                return null;
            }
            o = (ConfigObject) v;
        }
        return o.get(keys.get(keys.size() - 1));
    }

    /** The value as text: scalars as written, lists joined with commas; {@code null} for an object. */
    public static String text(ConfigValue value) {
        if (value.valueType() == ConfigValueType.OBJECT) {
            return null;
        }
        if (value.valueType() == ConfigValueType.LIST) {
            return ((ConfigList) value).stream().map(v -> String.valueOf(v.unwrapped())).collect(Collectors.joining(","));
        }
        return String.valueOf(value.unwrapped());
    }

    /** Where the value at {@code path} (as {@code text}) came from. */
    public Origin describe(ConfigOrigin o, List<String> hints, String text, String path) {
        String desc = o.description() == null ? "" : o.description();
        if (desc.contains(ConfigLoading.ENV_ORIGIN)) {
            List<String> names = hints.stream().filter(h -> text != null && text.equals(env.get(h))).toList();
            if (names.isEmpty() && text != null) {
                names = new ArrayList<>(new TreeSet<>(env.entrySet().stream()
                        .filter(e -> text.equals(e.getValue())).map(Map.Entry::getKey).toList()));
            }
            if (names.size() == 1) {
                return new Origin("env " + names.get(0), Setting.Source.ENV, names.get(0));
            }
            if (!names.isEmpty() && names.size() <= 3) {
                return new Origin("env " + String.join(" or ", names), Setting.Source.ENV, names.get(0));
            }
            return new Origin("env (variable not identified)", Setting.Source.ENV, null);
        }
        if (desc.contains("system properties")) {
            return new Origin("system property " + path, Setting.Source.SYSTEM_PROPERTY, null);
        }
        String loc = ConfigLoading.location(o);
        String file = o.resource() != null ? o.resource() : o.filename() != null ? o.filename()
                : o.url() != null ? o.url().getPath() : ConfigLoading.descriptionFile(desc);
        if (file != null && (file.equals("reference.conf") || file.endsWith("/reference.conf"))) {
            return new Origin("default (" + loc + ")", Setting.Source.DEFAULT, null);
        }
        boolean isFile = o.resource() != null || o.filename() != null || o.url() != null
                || file.matches(".*\\.(conf|json|properties)");
        return new Origin(loc, isFile ? Setting.Source.FILE : Setting.Source.OTHER, null);
    }
}
