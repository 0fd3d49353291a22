package dev.guard.ready.nats;

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
 * Connects (no reconnect, no connect retry), then {@code flush} for a PING/PONG round trip; an
 * optional JetStream stream must exist ({@code getStreamInfo}), else MISSING. User/password or
 * token and TLS ({@code tls://}) come from the URL. A fresh connection per attempt. The
 * jnats-bound half is loaded only after {@link Builder#build()} checked jnats is on the classpath.
 */
public final class NatsProbe extends ClientBoundProbe {

    static final String CLIENT_CLASS = "io.nats.client.Nats";
    static final String ARTIFACT = "io.nats:jnats";

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
        final List<HostPort> addresses = new ArrayList<>();
        String target;
        String stream;

        Builder(String url) {
            this.url = Objects.requireNonNull(url, "url");
        }

        /** A JetStream stream that must exist. */
        public Builder requireStream(String name) {
            this.stream = Objects.requireNonNull(name, "stream");
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
            for (String part : url.split(",")) {
                String s = part.trim();
                if (s.isEmpty()) {
                    continue;
                }
                URI u;
                try {
                    u = new URI(s);
                } catch (URISyntaxException e) {
                    throw new IllegalArgumentException("malformed NATS URL '" + Redaction.maskText(s) + "': "
                            + Redaction.maskText(e.getReason()));
                }
                String scheme = u.getScheme() == null ? "" : u.getScheme().toLowerCase(Locale.ROOT);
                if (!List.of("nats", "tls", "opentls").contains(scheme)) {
                    throw new IllegalArgumentException("NATS URL '" + Redaction.maskText(s)
                            + "' must start with nats:// or tls://");
                }
                if (u.getHost() == null) {
                    throw new IllegalArgumentException("NATS URL '" + Redaction.maskText(s) + "' has no host");
                }
                HostPort hp = new HostPort(u.getHost(), u.getPort() < 0 ? 4222 : u.getPort());
                servers.add(s);
                addresses.add(hp);
                shown.add((scheme.equals("nats") ? "" : scheme + "://") + hp);
            }
            if (servers.isEmpty()) {
                throw new IllegalArgumentException("empty NATS URL (expected nats://host:4222)");
            }
            Clients.require(CLIENT_CLASS, ARTIFACT, "nats:// and tls://");
            this.target = String.join(",", shown);
            return new NatsProbe(this);
        }
    }
}
