package dev.guard.spring;

import java.time.Duration;
import java.util.Map;
import java.util.function.Function;
import org.springframework.beans.factory.BeanClassLoaderAware;
import org.springframework.beans.factory.support.AbstractBeanDefinition;
import org.springframework.beans.factory.support.BeanDefinitionRegistry;
import org.springframework.beans.factory.support.RootBeanDefinition;
import org.springframework.context.EnvironmentAware;
import org.springframework.context.annotation.ImportBeanDefinitionRegistrar;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.Environment;
import org.springframework.core.type.AnnotationMetadata;

/**
 * Registers one health contributor per broker in use ({@link SpringBrokers}), each named as
 * Spring Boot's own ({@code redisHealthContributor}, {@code rabbitHealthContributor}, ...), so
 * that Boot's back off: its Redis indicator asks {@code INFO}, which a loading Redis answers, and
 * reports it up. A bean the application declares under either of Boot's names wins over guard's.
 * What differs between Spring Boot 3 and 4 (where the health API lives) is only the indicator
 * class a subclass adapts {@link TargetHealth} to.
 */
abstract class HealthContributors implements ImportBeanDefinitionRegistrar, EnvironmentAware, BeanClassLoaderAware {

    /** guard's broker name to the prefix of Spring Boot's bean names for its health. */
    private static final Map<String, String> BOOT_NAMES = Map.of(
            "redis", "redis", "rabbitmq", "rabbit", "kafka", "kafka", "nats", "nats");

    private final Class<?> indicatorType;
    private final Function<TargetHealth, Object> adapter;
    private ConfigurableEnvironment env;
    private ClassLoader loader;

    <T> HealthContributors(Class<T> indicatorType, Function<TargetHealth, T> adapter) {
        this.indicatorType = indicatorType;
        this.adapter = adapter::apply;
    }

    @Override
    public void setEnvironment(Environment environment) {
        this.env = environment instanceof ConfigurableEnvironment c ? c : null;
    }

    @Override
    public void setBeanClassLoader(ClassLoader classLoader) {
        this.loader = classLoader;
    }

    @Override
    public void registerBeanDefinitions(AnnotationMetadata metadata, BeanDefinitionRegistry registry) {
        if (env == null) {
            return;
        }
        GuardProperties props = GuardConfigCheck.bind(env);
        if (!props.isEnabled() || !props.getHealth().isEnabled()) {
            return;
        }
        Duration timeout = props.getHealth().getTimeout();
        for (SpringBrokers.Broker broker : SpringBrokers.of(env, props, loader)) {
            String prefix = BOOT_NAMES.get(broker.broker());
            if (registry.containsBeanDefinition(prefix + "HealthIndicator") || registry.containsBeanDefinition(prefix + "HealthContributor")) {
                continue;
            }
            String url = broker.target();
            RootBeanDefinition def = new RootBeanDefinition(indicatorType);
            def.setInstanceSupplier(() -> adapter.apply(new TargetHealth(url, timeout)));
            def.setDestroyMethodName(AbstractBeanDefinition.INFER_METHOD);
            registry.registerBeanDefinition(prefix + "HealthContributor", def);
        }
    }
}
