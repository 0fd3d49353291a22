package dev.guard.spring;

import dev.guard.metrics.ReadinessMetrics;
import dev.guard.ready.Probe;
import dev.guard.ready.ReadinessListener;
import io.micrometer.core.instrument.MeterRegistry;
import dev.guard.ready.Probes;
import java.util.ArrayList;
import java.util.List;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.io.ResourceLoader;

/**
 * guard for a Spring Boot application: the brokers it uses, read from Spring's own connection
 * properties; the readiness gate before its listener containers start; health contributors that
 * know a loading Redis is not up. The config check runs earlier, before the context exists
 * ({@link GuardConfigCheck}). Runs before Spring Boot's own Redis and RabbitMQ health
 * auto-configurations, which then back off.
 */
@AutoConfiguration(beforeName = {
    "org.springframework.boot.actuate.autoconfigure.data.redis.RedisHealthContributorAutoConfiguration",
    "org.springframework.boot.actuate.autoconfigure.data.redis.RedisReactiveHealthContributorAutoConfiguration",
    "org.springframework.boot.actuate.autoconfigure.amqp.RabbitHealthContributorAutoConfiguration",
    "org.springframework.boot.data.redis.autoconfigure.health.DataRedisHealthContributorAutoConfiguration",
    "org.springframework.boot.data.redis.autoconfigure.health.DataRedisReactiveHealthContributorAutoConfiguration",
    "org.springframework.boot.amqp.autoconfigure.health.RabbitHealthContributorAutoConfiguration"},
    afterName = {
    "org.springframework.boot.actuate.autoconfigure.metrics.CompositeMeterRegistryAutoConfiguration",
    "org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration"})
@ConditionalOnProperty(prefix = "guard", name = "enabled", matchIfMissing = true)
@EnableConfigurationProperties(GuardProperties.class)
@Import({Boot3HealthConfiguration.class, Boot4HealthConfiguration.class})
public class GuardAutoConfiguration {

    /** The readiness gate's meters, when Micrometer is on the class path and a registry is a bean. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = "io.micrometer.core.instrument.MeterRegistry")
    static class Metrics {
        @Bean
        @ConditionalOnBean(type = "io.micrometer.core.instrument.MeterRegistry")
        ReadinessMetrics guardReadinessMetrics(MeterRegistry registry) {
            return new ReadinessMetrics(registry);
        }
    }

    @Bean
    GuardBrokers guardBrokers(ConfigurableEnvironment env, GuardProperties props, ResourceLoader resources) {
        return new GuardBrokers(SpringBrokers.of(env, props, resources.getClassLoader()));
    }

    @Bean
    @ConditionalOnProperty(prefix = "guard.wait", name = "enabled", matchIfMissing = true)
    ReadinessGateLifecycle guardReadinessGate(GuardBrokers brokers, GuardProperties props, ApplicationEventPublisher publisher,
                                              ObjectProvider<ReadinessListener> listener) {
        List<Probe> probes = new ArrayList<>();
        for (String target : brokers.targets()) {
            probes.add(Probes.forUrl(target));
        }
        for (String target : props.getWait().getTargets()) {
            if (!target.isBlank()) {
                probes.add(Probes.forUrl(target.trim()));
            }
        }
        GuardProperties.Wait wait = props.getWait();
        return new ReadinessGateLifecycle(probes, wait.getDeadline(), wait.getAttemptTimeout(), wait.getPhase(), publisher,
                all(listener.orderedStream().toList()));
    }

    /** One listener that tells each of {@code listeners}; null for none. */
    private static ReadinessListener all(List<ReadinessListener> listeners) {
        if (listeners.isEmpty()) {
            return null;
        }
        return new ReadinessListener() {
            @Override
            public void onStateChange(dev.guard.ready.ProbeResult previous, dev.guard.ready.ProbeResult current) {
                listeners.forEach(l -> l.onStateChange(previous, current));
            }

            @Override
            public void onWaitEnded(dev.guard.ready.ReadinessReport report) {
                listeners.forEach(l -> l.onWaitEnded(report));
            }
        };
    }
}
