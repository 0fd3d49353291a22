package dev.guard.ready.amqp;

import dev.guard.endpoint.Broker;
import dev.guard.endpoint.Endpoint;
import dev.guard.ready.internal.ClientBoundProbe;
import dev.guard.ready.internal.Clients;
import dev.guard.ready.internal.Urls;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * AMQP 0-9-1 handshake and a channel; each required queue and exchange is declared passively
 * (a 404 is MISSING). Vhost, user and password come from the URI; {@code amqps://} uses TLS.
 * A fresh connection per attempt, closed at once. The amqp-client-bound half is loaded only
 * after {@link Builder#build()} checked the client is on the classpath.
 */
public final class AmqpProbe extends ClientBoundProbe {

    static final String CLIENT_CLASS = "com.rabbitmq.client.ConnectionFactory";
    static final String ARTIFACT = Broker.RABBITMQ.clientArtifact();

    private final List<String> queues;
    private final List<String> exchanges;

    AmqpProbe(Builder b) {
        super("amqp", new AmqpClientProbe(b));
        this.queues = List.copyOf(b.queues);
        this.exchanges = List.copyOf(b.exchanges);
    }

    /** A builder for {@code amqp://[user:password@]host[:port][/vhost]} or {@code amqps://...}. */
    public static Builder builder(String uri) {
        return new Builder(uri);
    }



    public List<String> requiredQueues() {
        return queues;
    }

    public List<String> requiredExchanges() {
        return exchanges;
    }




    /** Builder; {@link #build()} checks the URI and that amqp-client is on the classpath. */
    public static final class Builder {
        final String uri;
        String target;
        final List<String> queues = new ArrayList<>();
        final List<String> exchanges = new ArrayList<>();

        Builder(String uri) {
            this.uri = Objects.requireNonNull(uri, "uri");
        }

        /** Queues that must exist (passive declare). */
        public Builder requireQueues(String... names) {
            queues.addAll(List.of(names));
            return this;
        }

        /** Exchanges that must exist (passive declare). */
        public Builder requireExchanges(String... names) {
            exchanges.addAll(List.of(names));
            return this;
        }

        /**
         * @throws IllegalArgumentException malformed URI (message names the problem, no password)
         * @throws IllegalStateException    amqp-client is not on the classpath
         */
        public AmqpProbe build() {
            Endpoint e = Urls.single(uri, "AMQP", List.of("amqp", "amqps"), "amqp://[user:password@]host[:port][/vhost]");
            Clients.require(CLIENT_CLASS, ARTIFACT, "amqp:// and amqps://");
            String vhost = e.path();
            this.target = (e.scheme().equals("amqps") ? "amqps://" : "") + e.hostPort() + (vhost.length() <= 1 ? "" : vhost);
            return new AmqpProbe(this);
        }
    }
}
