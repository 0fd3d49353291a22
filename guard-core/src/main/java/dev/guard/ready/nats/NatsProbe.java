package dev.guard.ready.nats;

import dev.guard.config.Redaction;
import dev.guard.ready.Probe;
import dev.guard.ready.ProbeResult;
import dev.guard.ready.ProbeState;
import dev.guard.ready.internal.Classify;
import dev.guard.ready.internal.Clients;
import dev.guard.ready.internal.HostPort;
import dev.guard.ready.internal.Timer;
import dev.guard.ready.net.TcpProbe;
import io.nats.client.Connection;
import io.nats.client.ErrorListener;
import io.nats.client.JetStreamApiException;
import io.nats.client.JetStreamOptions;
import io.nats.client.Nats;
import io.nats.client.Options;
import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * Connects (no reconnect, no connect retry), then {@code flush} for a PING/PONG round trip;
 * an optional JetStream stream must exist ({@code getStreamInfo}), else
 * {@link ProbeState#MISSING}. User/password or token and TLS ({@code tls://}) come from the
 * URL. A fresh connection per attempt, closed at once.
 */
public final class NatsProbe implements Probe {

    static final String CLIENT_CLASS = "io.nats.client.Nats";
    static final String ARTIFACT = "io.nats:jnats";

    private final String[] servers;
    private final List<HostPort> addresses;
    private final String target;
    private final String stream;

    NatsProbe(Builder b) {
        this.servers = b.servers.toArray(String[]::new);
        this.addresses = List.copyOf(b.addresses);
        this.target = b.target;
        this.stream = b.stream;
    }

    /** A builder for {@code nats://[user:password@|token@]host[:port]} (comma list allowed) or {@code tls://...}. */
    public static Builder builder(String url) {
        return new Builder(url);
    }

    @Override
    public String kind() {
        return "nats";
    }

    @Override
    public String target() {
        return target;
    }

    public String requiredStream() {
        return stream;
    }

    @Override
    public ProbeResult check(Duration attemptTimeout) {
        Timer timer = new Timer();
        Connection c = null;
        try {
            Options options = Options.builder()
                    .servers(servers)
                    .connectionName("guard-readiness")
                    .connectionTimeout(attemptTimeout)
                    .maxReconnects(0)
                    .noReconnect()
                    .noRandomize()
                    .errorListener(new ErrorListener() {})
                    .build();
            c = Nats.connect(options);
            c.flush(timer.remaining(attemptTimeout).plusMillis(1));
            if (stream != null) {
                try {
                    c.jetStreamManagement(JetStreamOptions.builder()
                            .requestTimeout(timer.remaining(attemptTimeout).plusMillis(1)).build()).getStreamInfo(stream);
                } catch (JetStreamApiException e) {
                    if (e.getErrorCode() == 404 || e.getApiErrorCode() == 10059) {
                        return ProbeResult.of(this, ProbeState.MISSING,
                                "JetStream stream '" + stream + "' does not exist yet", e, timer.elapsed());
                    }
                    if (e.getErrorCode() == 503) {
                        return ProbeResult.of(this, ProbeState.MISSING, "JetStream is not enabled on this server", e,
                                timer.elapsed());
                    }
                    throw e;
                }
            }
            return ProbeResult.of(this, ProbeState.READY,
                    stream == null ? "PING/PONG ok" : "PING/PONG ok, stream '" + stream + "' exists", null,
                    timer.elapsed());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return ProbeResult.of(this, ProbeState.TIMEOUT, "interrupted", e, timer.elapsed());
        } catch (Exception e) {
            return classify(e, timer);
        } finally {
            if (c != null) {
                try {
                    c.close();
                } catch (Exception ignored) {
                    // closing must not change the result
                } 
            }
        }
    }

    private ProbeResult classify(Exception e, Timer timer) {
        Duration took = timer.elapsed();
        String msg = String.valueOf(e.getMessage());
        if (Classify.isAuthText(msg) || e.getClass().getSimpleName().equals("AuthenticationException")) {
            return ProbeResult.of(this, ProbeState.AUTH, "the server rejected the credentials (Authorization Violation)",
                    e, took);
        }
        ProbeState s = Classify.generic(e);
        if (s == ProbeState.TLS || s == ProbeState.AUTH || s == ProbeState.DNS) {
            return ProbeResult.of(this, s, "", e, took);
        }
        if (msg.contains("Unable to connect") || s == ProbeState.REFUSED || s == ProbeState.TIMEOUT) {
            // jnats folds refused, DNS and timeout into one message: ask the socket which it was
            for (HostPort hp : addresses) {
                ProbeResult tcp = TcpProbe.connect(this, hp, Duration.ofMillis(
                        Math.max(1, Math.min(250, timer.remaining(Duration.ofSeconds(1)).toMillis()))), new Timer());
                if (tcp != null) {
                    return ProbeResult.of(this, tcp.state(), tcp.detail(), e, took);
                }
            }
            return ProbeResult.of(this, ProbeState.TIMEOUT, "connected, but no NATS handshake/PONG in time", e, took);
        }
        if (s != null) {
            return ProbeResult.of(this, s, "", e, took);
        }
        return ProbeResult.of(this, ProbeState.PROTOCOL, "unexpected answer (not NATS?)", e, took);
    }

    /** Builder; {@link #build()} checks the URL(s) and that jnats is on the classpath. */
    public static final class Builder {
        private final String url;
        private final List<String> servers = new ArrayList<>();
        private final List<HostPort> addresses = new ArrayList<>();
        private String target;
        private String stream;

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
