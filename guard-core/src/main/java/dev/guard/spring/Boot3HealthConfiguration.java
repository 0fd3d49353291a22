package dev.guard.spring;

import java.time.Duration;
import org.springframework.boot.actuate.health.Health;
import org.springframework.boot.actuate.health.HealthIndicator;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;

/**
 * Health contributors for Spring Boot 3 ({@code org.springframework.boot.actuate.health}). Named
 * as Spring Boot's own redis and rabbit contributors, so that those back off: Spring Boot's Redis
 * indicator asks {@code INFO}, which a loading Redis answers, and reports it up.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnClass(name = "org.springframework.boot.actuate.health.HealthIndicator")
class Boot3HealthConfiguration {

    @Bean
    @Conditional(BrokerCondition.Redis.class)
    @ConditionalOnMissingBean(name = {"redisHealthIndicator", "redisHealthContributor"})
    Indicator redisHealthContributor(GuardBrokers brokers, GuardProperties props) {
        return new Indicator(brokers.target("redis").orElseThrow(), props.getHealth().getTimeout());
    }

    @Bean
    @Conditional(BrokerCondition.Rabbit.class)
    @ConditionalOnMissingBean(name = {"rabbitHealthIndicator", "rabbitHealthContributor"})
    Indicator rabbitHealthContributor(GuardBrokers brokers, GuardProperties props) {
        return new Indicator(brokers.target("rabbitmq").orElseThrow(), props.getHealth().getTimeout());
    }

    @Bean
    @Conditional(BrokerCondition.Kafka.class)
    @ConditionalOnMissingBean(name = {"kafkaHealthIndicator", "kafkaHealthContributor"})
    Indicator kafkaHealthContributor(GuardBrokers brokers, GuardProperties props) {
        return new Indicator(brokers.target("kafka").orElseThrow(), props.getHealth().getTimeout());
    }

    @Bean
    @Conditional(BrokerCondition.Nats.class)
    @ConditionalOnMissingBean(name = {"natsHealthIndicator", "natsHealthContributor"})
    Indicator natsHealthContributor(GuardBrokers brokers, GuardProperties props) {
        return new Indicator(brokers.target("nats").orElseThrow(), props.getHealth().getTimeout());
    }

    /** One broker's {@link TargetHealth} as a Boot 3 indicator. */
    static final class Indicator implements HealthIndicator, AutoCloseable {
        private final TargetHealth target;

        Indicator(String url, Duration timeout) {
            this.target = new TargetHealth(url, timeout);
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
