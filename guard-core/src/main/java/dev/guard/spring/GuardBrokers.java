package dev.guard.spring;

import java.util.List;
import java.util.Optional;

/** The brokers this application uses, as {@link SpringBrokers} read them from Spring's properties: one bean. */
public final class GuardBrokers {

    private final List<SpringBrokers.Broker> brokers;

    GuardBrokers(List<SpringBrokers.Broker> brokers) {
        this.brokers = List.copyOf(brokers);
    }

    /** Each broker's target URL, as guard's probes take it (passwords included: never print it unmasked). */
    public List<String> targets() {
        return brokers.stream().map(SpringBrokers.Broker::target).toList();
    }

    /** The target of one broker ({@code redis}, {@code rabbitmq}, {@code kafka}, {@code nats}), if in use. */
    public Optional<String> target(String broker) {
        return brokers.stream().filter(b -> b.broker().equals(broker)).map(SpringBrokers.Broker::target).findFirst();
    }
}
