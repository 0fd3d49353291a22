package dev.guard.spring;

import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingClass;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;

/**
 * {@link Boot3HealthConfiguration} for Spring Boot 4, whose health API moved to
 * {@code org.springframework.boot.health.contributor}: the same beans, under the same names.
 */
@Configuration(proxyBeanMethods = false)
@Import(Boot4HealthConfiguration.Registrar.class)
@ConditionalOnClass(name = "org.springframework.boot.health.contributor.HealthIndicator")
@ConditionalOnMissingClass("org.springframework.boot.actuate.health.HealthIndicator")
class Boot4HealthConfiguration {

    /** Registers an {@link Indicator} per broker in use. */
    static final class Registrar extends HealthContributors {
        Registrar() {
            super(Indicator.class, Indicator::new);
        }
    }

    /** One broker's {@link TargetHealth} as a Boot 4 indicator. */
    static final class Indicator implements HealthIndicator, AutoCloseable {
        private final TargetHealth target;

        Indicator(TargetHealth target) {
            this.target = target;
        }

        @Override
        public Health health() {
            TargetHealth.Snapshot s = target.check();
            return (s.up() ? Health.up() : Health.down()).withDetails(s.details()).build();
        }

        @Override
        public void close() {
            target.close();
        }
    }
}
