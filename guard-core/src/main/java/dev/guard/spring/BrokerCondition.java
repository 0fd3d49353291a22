package dev.guard.spring;

import org.springframework.context.annotation.Condition;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.type.AnnotatedTypeMetadata;

/** Matches when guard's health contributors are on and its broker is in use ({@link SpringBrokers}). */
abstract class BrokerCondition implements Condition {

    private final String broker;

    BrokerCondition(String broker) {
        this.broker = broker;
    }

    @Override
    public boolean matches(ConditionContext context, AnnotatedTypeMetadata metadata) {
        if (!(context.getEnvironment() instanceof ConfigurableEnvironment env)) {
            return false;
        }
        GuardProperties props = GuardConfigCheck.bind(env);
        if (!props.isEnabled() || !props.getHealth().isEnabled()) {
            return false;
        }
        try {
            return SpringBrokers.of(env, props, context.getClassLoader()).stream().anyMatch(b -> b.broker().equals(broker));
        } catch (IllegalArgumentException e) {
            return false; // a bad guard.brokers fails the start in GuardBrokers, with its message
        }
    }

    static final class Redis extends BrokerCondition {
        Redis() {
            super("redis");
        }
    }

    static final class Rabbit extends BrokerCondition {
        Rabbit() {
            super("rabbitmq");
        }
    }

    static final class Kafka extends BrokerCondition {
        Kafka() {
            super("kafka");
        }
    }

    static final class Nats extends BrokerCondition {
        Nats() {
            super("nats");
        }
    }
}
