package dev.guard.config.internal;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigException;
import com.typesafe.config.ConfigFactory;
import com.typesafe.config.ConfigOrigin;
import com.typesafe.config.ConfigResolveOptions;
import com.typesafe.config.ConfigResolver;
import com.typesafe.config.ConfigValue;
import com.typesafe.config.ConfigValueFactory;
import dev.guard.config.Redaction;
import dev.guard.config.Severity;
import dev.guard.config.Violation;
import java.util.Map;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Loads the config the guard checks: as {@code ConfigFactory.load()} would (system properties over
 * application.conf over reference.conf) or the one given, resolved against the real or injected
 * environment, keeping the unresolved tree so {@link Origins} can name the variable behind each
 * {@code ${?VAR}}.
 */
public final class ConfigLoading {

    /** The origin description typesafe-config gives values from the environment (and {@link EnvResolver} copies). */
    public static final String ENV_ORIGIN = "env variables";

    private static final Pattern DESCRIPTION_LINE = Pattern.compile("^(.*?)(?:: (\\d+))?$");

    /**
     * A loaded config.
     *
     * @param resolved          the values
     * @param raw               the unresolved tree, {@code null} when the config came resolved
     * @param unresolvedProblem a substitution that stayed unresolved (masked), or {@code null}
     * @param unresolvedOrigin  where it is written
     */
    public record Loaded(Config resolved, Config raw, String unresolvedProblem, String unresolvedOrigin) {}

    private ConfigLoading() {}

    /**
     * Loads {@code given} (or the default stack when {@code null}), resolved against {@code env}
     * when {@code injectedEnv}, else against the process environment.
     *
     * @return the loaded config, or {@code null} after reporting a config that does not load
     */
    public static Loaded load(Config given, boolean injectedEnv, Map<String, String> env, Consumer<Violation> out) {
        Config raw;
        try {
            raw = given != null ? given
                    : ConfigFactory.defaultOverrides().withFallback(ConfigFactory.defaultApplication())
                    .withFallback(ConfigFactory.defaultReferenceUnresolved());
        } catch (ConfigException e) {
            out.accept(broken(e));
            return null;
        }
        if (raw.isResolved()) {
            return new Loaded(raw, null, null, null);
        }
        ConfigResolveOptions options = !injectedEnv ? ConfigResolveOptions.defaults()
                : ConfigResolveOptions.noSystem().appendResolver(new EnvResolver(env, null));
        try {
            return new Loaded(raw.resolve(options), raw, null, null);
        } catch (ConfigException.UnresolvedSubstitution e) {
            try {
                return new Loaded(raw.resolve(options.setAllowUnresolved(true)), raw,
                        Redaction.maskText(e.getMessage()), e.origin() == null ? "config" : location(e.origin()));
            } catch (ConfigException again) {
                out.accept(broken(again));
                return null;
            }
        } catch (ConfigException e) {
            out.accept(broken(e));
            return null;
        }
    }

    private static Violation broken(ConfigException e) {
        String origin = e.origin() == null ? "config" : location(e.origin());
        return new Violation("config", Violation.Rule.MALFORMED, Severity.ERROR, origin, "a config that does not load",
                "the config does not load: " + Wording.withoutQuotedText(e.getMessage()),
                "fix the config file at " + origin + "; no config path can be checked until it loads");
    }

    /** {@code application.conf:3}, {@code my.conf}: a config origin as messages print it. */
    public static String location(ConfigOrigin o) {
        String loc = o.resource() != null ? o.resource() : o.filename();
        int line = o.lineNumber();
        if (loc == null) {
            String desc = o.description() == null ? "config" : o.description();
            int at = desc.indexOf(" @ ");
            Matcher m = DESCRIPTION_LINE.matcher(desc);
            if (m.matches()) {
                loc = at >= 0 ? desc.substring(0, at) : m.group(1);
                if (line <= 0 && m.group(2) != null) {
                    line = Integer.parseInt(m.group(2));
                }
            } else {
                loc = desc;
            }
        }
        return line > 0 ? loc + ":" + line : loc;
    }

    /** The file part of an origin's description ({@code reference.conf}), for telling defaults from files. */
    static String descriptionFile(String description) {
        return DESCRIPTION_LINE.matcher(description).replaceFirst("$1");
    }

    /** Resolves {@code ${?VAR}} against an injected environment, with the origin a real one has. */
    private static final class EnvResolver implements ConfigResolver {
        private final Map<String, String> env;
        private final ConfigResolver fallback;

        EnvResolver(Map<String, String> env, ConfigResolver fallback) {
            this.env = env;
            this.fallback = fallback;
        }

        @Override
        public ConfigValue lookup(String path) {
            String v = env.get(path);
            if (v != null) {
                return ConfigValueFactory.fromAnyRef(v, ENV_ORIGIN);
            }
            return fallback == null ? null : fallback.lookup(path);
        }

        @Override
        public ConfigResolver withFallback(ConfigResolver next) {
            return next == null ? this : new EnvResolver(env, fallback == null ? next : fallback.withFallback(next));
        }
    }
}
