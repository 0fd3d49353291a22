package dev.guard.spring;

import dev.guard.config.PropertyLookup;
import dev.guard.config.Setting;
import dev.guard.config.internal.Names;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.springframework.boot.origin.Origin;
import org.springframework.boot.origin.OriginLookup;
import org.springframework.boot.origin.TextResourceOrigin;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.PropertySource;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;

/**
 * Spring's {@code Environment} as guard's config check sees it: each property's value as Spring
 * resolves it, the origin Spring reports ({@code class path resource [application.yml] - 3:12},
 * {@code System Environment Property "REDIS_URL"}), and the environment variables its
 * placeholders read, so that {@code ${CACHE_URL:redis://localhost:6379}} with {@code CACHE_URL}
 * unset is seen as a default, not as a value.
 */
final class SpringPropertyLookup implements PropertyLookup {

    /** Boot's view of every other source under relaxed names; looking in it would hide the real origin. */
    private static final String ATTACHED = "configurationProperties";
    /** {@code ${NAME}} or {@code ${NAME:default}}; the name is what Spring resolves. */
    private static final Pattern PLACEHOLDER = Pattern.compile("\\$\\{([^}:]+)(:[^}]*)?}");

    private final ConfigurableEnvironment env;

    SpringPropertyLookup(ConfigurableEnvironment env) {
        this.env = env;
    }

    /** The process environment Spring resolves against: its {@code systemEnvironment} source. */
    static Map<String, String> environmentVariables(ConfigurableEnvironment env) {
        PropertySource<?> source = env.getPropertySources().get(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME);
        if (source != null && source.getSource() instanceof Map<?, ?> map) {
            Map<String, String> copy = new TreeMap<>();
            map.forEach((k, v) -> {
                if (k != null && v != null) {
                    copy.put(k.toString(), v.toString());
                }
            });
            return copy;
        }
        return System.getenv();
    }

    @Override
    public Found find(String name) {
        for (PropertySource<?> source : env.getPropertySources()) {
            if (ATTACHED.equals(source.getName())) {
                continue;
            }
            Object raw;
            try {
                raw = source.getProperty(name);
            } catch (RuntimeException e) {
                continue;
            }
            if (raw != null) {
                return describe(source, name, raw.toString());
            }
        }
        return null;
    }

    private Found describe(PropertySource<?> source, String name, String raw) {
        String where = originText(source, name);
        List<String> reads = new ArrayList<>();
        List<String> unsetRefs = new ArrayList<>();
        boolean allFromEnv = true;
        Matcher m = PLACEHOLDER.matcher(raw);
        while (m.find()) {
            String ref = m.group(1).trim();
            boolean inOtherSource = setOutsideEnvironment(ref);
            if (!inOtherSource) {
                reads.add(Names.envForm(ref));
            }
            if (!env.containsProperty(ref)) {
                unsetRefs.add(ref);
            }
            if (inOtherSource || !env.containsProperty(ref)) {
                allFromEnv = false;
            }
        }
        String value;
        try {
            value = env.resolveRequiredPlaceholders(raw);
        } catch (IllegalArgumentException e) {
            return new Found(null, where, kind(source, name), reads, e.getMessage());
        }
        if (!unsetRefs.isEmpty()) {
            String names = String.join(", ", unsetRefs);
            return new Found(value, where + " (the default of ${" + unsetRefs.get(0) + ":...}: " + names
                    + (unsetRefs.size() == 1 ? " is" : " are") + " not set)", Setting.Source.DEFAULT, reads, null);
        }
        if (!reads.isEmpty() && allFromEnv) {
            PropertySource<?> envSource = env.getPropertySources().get(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME);
            String from = envSource == null ? "env " + reads.get(0) : originText(envSource, reads.get(0));
            return new Found(value, from + " (read by " + where + ")", Setting.Source.ENV, reads, null);
        }
        return new Found(value, where, kind(source, name), reads, null);
    }

    private boolean setOutsideEnvironment(String ref) {
        for (PropertySource<?> s : env.getPropertySources()) {
            if (!ATTACHED.equals(s.getName()) && !(s instanceof SystemEnvironmentPropertySource) && s.containsProperty(ref)) {
                return true;
            }
        }
        return false;
    }

    private static String originText(PropertySource<?> source, String name) {
        Origin origin = OriginLookup.getOrigin(source, name);
        return origin != null ? origin.toString() : "property source '" + source.getName() + "'";
    }

    private static Setting.Source kind(PropertySource<?> source, String name) {
        if (source instanceof SystemEnvironmentPropertySource) {
            return Setting.Source.ENV;
        }
        if (StandardEnvironment.SYSTEM_PROPERTIES_PROPERTY_SOURCE_NAME.equals(source.getName())) {
            return Setting.Source.SYSTEM_PROPERTY;
        }
        if ("defaultProperties".equals(source.getName())) {
            return Setting.Source.DEFAULT;
        }
        return OriginLookup.getOrigin(source, name) instanceof TextResourceOrigin ? Setting.Source.FILE : Setting.Source.OTHER;
    }
}
