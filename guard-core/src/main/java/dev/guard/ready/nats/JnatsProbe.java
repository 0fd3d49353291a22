package dev.guard.ready.nats;

import dev.guard.endpoint.Endpoint;
import dev.guard.ready.Probe;
import dev.guard.ready.ProbeResult;
import dev.guard.ready.ProbeState;
import dev.guard.ready.internal.Classify;
import dev.guard.ready.internal.Timer;
import dev.guard.ready.net.TcpProbe;
import io.nats.client.Connection;
import io.nats.client.ErrorListener;
import io.nats.client.JetStreamApiException;
import io.nats.client.JetStreamOptions;
import io.nats.client.api.ConsumerInfo;
import io.nats.client.Nats;
import io.nats.client.Options;
import java.time.Duration;
import java.util.List;

/**
 * The jnats-bound half of {@link NatsProbe} (loaded only once jnats is known to be on the
 * classpath). Connects (no reconnect, no connect retry), then {@code flush} for a PING/PONG round trip;
 * an optional JetStream stream must exist ({@code getStreamInfo}), else
 * {@link ProbeState#MISSING}. User/password or token and TLS ({@code tls://}) come from the
 * URL. A fresh connection per attempt, closed at once.
 */
final class JnatsProbe implements Probe {


    private final String[] servers;
    private final List<Endpoint> addresses;
    private final String target;
    private final String stream;
    private final String consumer;

    JnatsProbe(NatsProbe.Builder b) {
        this.servers = b.servers.toArray(String[]::new);
        this.addresses = List.copyOf(b.addresses);
        this.target = b.target;
        this.stream = b.stream;
        this.consumer = b.consumer;
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

    /**
     * Why a consumer delivers nothing now, or null when it delivers: paused (NATS 2.11 and later,
     * {@code $JS.API.CONSUMER.PAUSE}). The consumer info says {@code paused}, {@code pause_remaining}
     * (nanoseconds) and, in its configuration, {@code pause_until} (RFC 3339): the field names of the
     * JetStream API reference, https://docs.nats.io/reference/jetstream/api/consumer/pause. A server
     * before 2.11 sends none of them: never paused.
     */
    static String pausedDetail(String stream, ConsumerInfo info) {
        if (info == null || !info.getPaused()) {
            return null;
        }
        java.time.ZonedDateTime until = info.getConsumerConfiguration() == null ? null
                : info.getConsumerConfiguration().getPauseUntil();
        Duration left = info.getPauseRemaining();
        return "JetStream consumer '" + info.getName() + "' of stream '" + stream + "' is paused"
                + (until == null ? "" : " until " + until.withZoneSameInstant(java.time.ZoneOffset.UTC)
                        .format(java.time.format.DateTimeFormatter.ISO_OFFSET_DATE_TIME))
                + (left == null ? "" : " (" + Math.max(0, left.toSeconds()) + " s from now)")
                + ": a worker bound to it receives nothing until then. Resume it with `nats consumer resume "
                + stream + " " + info.getName() + "` (or JetStreamManagement.resumeConsumer)";
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
                        return ProbeResult.of(this, ProbeState.MISSING,
                                "JetStream did not answer (is it enabled on this server?)", e, timer.elapsed());
                    }
                    throw e;
                } catch (java.io.IOException e) {
                    if (String.valueOf(e.getMessage()).contains("waiting for NATS JetStream")) {
                        return ProbeResult.of(this, ProbeState.MISSING,
                                "JetStream did not answer (is it enabled on this server?)", e, timer.elapsed());
                    }
                    throw e;
                }
                if (consumer != null) {
                    ConsumerInfo info;
                    try {
                        info = c.jetStreamManagement(JetStreamOptions.builder()
                                .requestTimeout(timer.remaining(attemptTimeout).plusMillis(1)).build())
                                .getConsumerInfo(stream, consumer);
                    } catch (JetStreamApiException e) {
                        if (e.getErrorCode() == 404 || e.getApiErrorCode() == 10014) {
                            return ProbeResult.of(this, ProbeState.MISSING, "JetStream consumer '" + consumer
                                    + "' of stream '" + stream + "' does not exist yet", e, timer.elapsed());
                        }
                        throw e;
                    }
                    String paused = pausedDetail(stream, info);
                    if (paused != null) {
                        return ProbeResult.of(this, ProbeState.LOADING, paused, null, timer.elapsed())
                                .withExpectedReadyIn(info.getPauseRemaining());
                    }
                }
            }
            return ProbeResult.of(this, ProbeState.READY,
                    stream == null ? "PING/PONG ok" : "PING/PONG ok, stream '" + stream + "' exists"
                            + (consumer == null ? "" : ", consumer '" + consumer + "' delivers"), null,
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
            for (Endpoint hp : addresses) {
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
}
