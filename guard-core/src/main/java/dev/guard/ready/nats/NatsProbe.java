package dev.guard.ready.nats;

import dev.guard.endpoint.Broker;
import dev.guard.endpoint.Endpoint;
import dev.guard.ready.internal.ClientBoundProbe;
import dev.guard.ready.internal.Clients;
import dev.guard.ready.internal.Urls;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Connects (no reconnect, no connect retry), then {@code flush} for a PING/PONG round trip; an
 * optional JetStream stream must exist ({@code getStreamInfo}), else MISSING. User/password or
 * token and TLS ({@code tls://}) come from the URL. A fresh connection per attempt. The
 * jnats-bound half is loaded only after {@link Builder#build()} checked jnats is on the classpath.
 */
public final class NatsProbe extends ClientBoundProbe {

    static final String CLIENT_CLASS = "io.nats.client.Nats";
    static final String ARTIFACT = Broker.NATS.clientArtifact();

    private final String stream;

    NatsProbe(Builder b) {
        super("nats", new JnatsProbe(b));
        this.stream = b.stream;
    }

    /** A builder for {@code nats://[user:password@|token@]host[:port]} (comma list allowed) or {@code tls://...}. */
    public static Builder builder(String url) {
        return new Builder(url);
    }



    /** The JetStream stream that must exist, or null. */
    public String requiredStream() {
        return stream;
    }




    /** Builder; {@link #build()} checks the URL(s) and that jnats is on the classpath. */
    public static final class Builder {
        final String url;
        final List<String> servers = new ArrayList<>();
        final List<Endpoint> addresses = new ArrayList<>();
        String target;
        String stream;
        String consumer;

        Builder(String url) {
            this.url = Objects.requireNonNull(url, "url");
        }

        /** A JetStream stream that must exist. */
        public Builder requireStream(String name) {
            this.stream = Objects.requireNonNull(name, "stream");
            return this;
        }

        /**
         * A consumer of the required stream that must exist and deliver: not paused (NATS 2.11 can
         * pause a consumer until a given time; a paused consumer is a worker that gets nothing).
         */
        public Builder requireConsumer(String name) {
            this.consumer = Objects.requireNonNull(name, "consumer");
            return this;
        }

        /**
         * @throws IllegalArgumentException malformed URL (message names the problem, no secret)
         * @throws IllegalStateException    jnats is not on the classpath
         */
        public NatsProbe build() {
            servers.clear();
            addresses.clear();
            List<String> shown = new ArrayList<>();
            if (url.isBlank()) {
                throw new IllegalArgumentException("empty NATS URL (expected nats://host:4222)");
            }
            for (Endpoint e : Urls.all(url, "NATS", List.of("nats", "tls", "opentls"), "nats://[user:password@|token@]host[:port]")) {
                StringBuilder server = new StringBuilder(e.scheme()).append("://");
                if (e.user() != null) {
                    server.append(e.user()).append(e.password() == null ? "" : ":" + e.password()).append('@');
                }
                servers.add(server.append(e.hostPort()).append(e.rest()).toString());
                addresses.add(e);
                shown.add((e.scheme().equals("nats") ? "" : e.scheme() + "://") + e.hostPort());
            }
            if (servers.isEmpty()) {
                throw new IllegalArgumentException("empty NATS URL (expected nats://host:4222)");
            }
            Clients.require(CLIENT_CLASS, ARTIFACT, "nats:// and tls://");
            this.target = String.join(",", shown);
            if (consumer != null && stream == null) {
                throw new IllegalArgumentException("a JetStream consumer (consumer=" + consumer + ") needs its stream (stream=NAME)");
            }
            return new NatsProbe(this);
        }
    }
}
