package dev.guard.spring;

import dev.guard.GuardLog;
import dev.guard.config.ConfigGuard;
import dev.guard.config.ConfigReport;
import dev.guard.config.GuardSettings;
import dev.guard.config.PropertyLookup;
import dev.guard.config.Setting;
import dev.guard.config.Severity;
import dev.guard.config.Violation;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.slf4j.Logger;
import org.springframework.boot.context.event.ApplicationEnvironmentPreparedEvent;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.ApplicationListener;
import org.springframework.core.Ordered;
import org.springframework.core.env.ConfigurableEnvironment;

/**
 * guard's config check over Spring's {@code Environment}, run once the environment is prepared
 * (every property source loaded) and before the application context, or any bean, exists. It
 * checks the settings named by {@code guard.config.require} and the connection settings of every
 * broker in use ({@link SpringBrokers}), each with the origin Spring reports, and stops the start
 * with a {@link GuardStartupException} when one is wrong. Registered in {@code spring.factories};
 * {@code guard.enabled=false} or {@code guard.config.enabled=false} turns it off.
 */
public final class GuardConfigCheck implements ApplicationListener<ApplicationEnvironmentPreparedEvent>, Ordered {

    private static final Logger LOG = GuardLog.logger(GuardConfigCheck.class);

    @Override
    public void onApplicationEvent(ApplicationEnvironmentPreparedEvent event) {
        ConfigurableEnvironment env = event.getEnvironment();
        GuardProperties props = bind(env);
        if (!props.isEnabled() || !props.getConfig().isEnabled()) {
            return;
        }
        ClassLoader loader = event.getSpringApplication().getClassLoader();
        ConfigReport report = check(env, props, loader);
        for (Setting s : report.settings()) {
            LOG.info("guard config: {} = {} (from {})", s.name(), s.redactedValue() == null ? "(unset)" : s.redactedValue(), s.origin());
        }
        for (Violation v : report.violations()) {
            if (v.severity() == Severity.WARNING) {
                LOG.warn("guard config: {} {}", v.rule(), v.message());
            }
        }
        if (!report.ok()) {
            throw GuardStartupException.config(report);
        }
    }

    /** How a Spring Boot app allows loopback, for the config guard's messages. */
    static final String LOOPBACK_ALLOWANCE = "guard.config.allow-loopback={name} (GUARD_CONFIG_ALLOW_LOOPBACK={name} in the"
            + " environment; true allows every setting)";

    /** The check itself: what {@link #onApplicationEvent} runs, for an environment already prepared. */
    static ConfigReport check(ConfigurableEnvironment env, GuardProperties props, ClassLoader loader) {
        Map<String, String> variables = SpringPropertyLookup.environmentVariables(env);
        SpringPropertyLookup springLookup = new SpringPropertyLookup(env);
        List<SpringBrokers.Broker> brokers = SpringBrokers.of(env, props, loader);
        Map<String, PropertyLookup.Found> derived = new java.util.LinkedHashMap<>();
        for (SpringBrokers.Broker b : brokers) {
            derived.put(b.setting(), b.found());
        }
        PropertyLookup lookup = name -> derived.containsKey(name) ? derived.get(name) : springLookup.find(name);
        Boolean declared = props.getConfig().getInContainer();
        boolean container = declared != null ? declared : ConfigGuard.detectContainer(variables);
        List<String> allow = props.getConfig().getAllowLoopback();
        ConfigGuard.Builder guard = ConfigGuard.builder()
                .environment(variables)
                .inContainer(declared)
                // unset: every setting outside a container, none inside one
                .allowLoopback(allow == null ? (container ? new String[0] : new String[] {"*"})
                        : allow.stream().filter(n -> !n.isBlank()).map(GuardSettings::loopbackAllowance)
                                .filter(Objects::nonNull).toArray(String[]::new))
                .loopbackAllowance(LOOPBACK_ALLOWANCE)
                .properties(lookup);
        for (String name : props.getConfig().getRequire()) {
            String n = name.trim();
            if (n.isEmpty()) {
                continue;
            }
            if (n.matches("[A-Z][A-Z0-9_]*")) {
                guard.requireEnv(n);
            } else {
                guard.requireProperty(n);
            }
        }
        for (SpringBrokers.Broker b : brokers) {
            guard.requireProperty(b.setting(), b.type());
        }
        for (String name : props.getConfig().getFromEnv()) {
            if (!name.isBlank()) {
                guard.propertyFromEnv(name.trim());
            }
        }
        return guard.build().check();
    }

    static GuardProperties bind(ConfigurableEnvironment env) {
        return Binder.get(env).bind("guard", Bindable.of(GuardProperties.class)).orElseGet(GuardProperties::new);
    }

    /** After Spring Boot's own listeners have loaded the config files and set up logging. */
    @Override
    public int getOrder() {
        return Ordered.LOWEST_PRECEDENCE;
    }
}
