package dev.guard.spring;

import org.springframework.boot.actuate.health.Health;
import org.springframework.boot.actuate.health.HealthIndicator;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;

/**
 * Health contributors for Spring Boot 3 ({@code org.springframework.boot.actuate.health}). Named
 * as Spring Boot's own redis and rabbit contributors, so that those back off: Spring Boot's Redis
 * indicator asks {@code INFO}, which a loading Redis answers, and reports it up.
 */
@Configuration(proxyBeanMethods = false)
@Import(Boot3HealthConfiguration.Registrar.class)
@ConditionalOnClass(name = "org.springframework.boot.actuate.health.HealthIndicator")
class Boot3HealthConfiguration {

    /** Registers an {@link Indicator} per broker in use. */
    static final class Registrar extends HealthContributors {
        Registrar() {
            super(Indicator.class, Indicator::new);
        }
    }

    /** One broker's {@link TargetHealth} as a Boot 3 indicator. */
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
