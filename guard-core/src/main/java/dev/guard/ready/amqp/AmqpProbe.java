package dev.guard.ready.amqp;

import dev.guard.config.Redaction;
import dev.guard.ready.internal.ClientBoundProbe;
import dev.guard.ready.internal.Clients;
import dev.guard.ready.internal.HostPort;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * AMQP 0-9-1 handshake and a channel; each required queue and exchange is declared passively
 * (a 404 is MISSING). Vhost, user and password come from the URI; {@code amqps://} uses TLS.
 * A fresh connection per attempt, closed at once. The amqp-client-bound half is loaded only
 * after {@link Builder#build()} checked the client is on the classpath.
 */
public final class AmqpProbe extends ClientBoundProbe {

    static final String CLIENT_CLASS = "com.rabbitmq.client.ConnectionFactory";
    static final String ARTIFACT = "com.rabbitmq:amqp-client";

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
            URI parsed;
            try {
                parsed = new URI(uri);
            } catch (URISyntaxException e) {
                throw new IllegalArgumentException("malformed AMQP URL '" + Redaction.maskText(uri) + "': "
                        + Redaction.maskText(e.getReason()));
            }
            String scheme = parsed.getScheme() == null ? "" : parsed.getScheme().toLowerCase(Locale.ROOT);
            if (!scheme.equals("amqp") && !scheme.equals("amqps")) {
                throw new IllegalArgumentException("AMQP URL '" + Redaction.maskText(uri)
                        + "' must start with amqp:// or amqps://");
            }
            if (parsed.getHost() == null) {
                throw new IllegalArgumentException("AMQP URL '" + Redaction.maskText(uri)
                        + "' has no host (expected amqp://[user:password@]host[:port][/vhost])");
            }
            Clients.require(CLIENT_CLASS, ARTIFACT, "amqp:// and amqps://");
            int port = parsed.getPort() >= 0 ? parsed.getPort() : scheme.equals("amqps") ? 5671 : 5672;
            String vhost = parsed.getRawPath() == null || parsed.getRawPath().length() <= 1 ? ""
                    : parsed.getRawPath();
            this.target = (scheme.equals("amqps") ? "amqps://" : "") + new HostPort(parsed.getHost(), port) + vhost;
            return new AmqpProbe(this);
        }
    }
}
