package dev.guard.ready.amqp;

import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import com.rabbitmq.client.ShutdownSignalException;
import dev.guard.ready.Probe;
import dev.guard.ready.ProbeResult;
import dev.guard.ready.ProbeState;
import dev.guard.ready.internal.Classify;
import dev.guard.ready.internal.Timer;
import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.util.List;

/**
 * The amqp-client-bound half of {@link AmqpProbe} (loaded only once amqp-client is known to be
 * on the classpath). AMQP 0-9-1 handshake and a channel; each required queue and exchange is declared
 * passively (a 404 is {@link ProbeState#MISSING}). Vhost, user and password come from the
 * URI; {@code amqps://} uses TLS. A fresh connection per attempt, closed at once.
 */
final class AmqpClientProbe implements Probe {


    private final String uri;
    private final String target;
    private final List<String> queues;
    private final List<String> exchanges;

    AmqpClientProbe(AmqpProbe.Builder b) {
        this.uri = b.uri;
        this.target = b.target;
        this.queues = List.copyOf(b.queues);
        this.exchanges = List.copyOf(b.exchanges);
    }


    @Override
    public String kind() {
        return "amqp";
    }

    @Override
    public String target() {
        return target;
    }

    public List<String> requiredQueues() {
        return queues;
    }

    public List<String> requiredExchanges() {
        return exchanges;
    }

    @Override
    public ProbeResult check(Duration attemptTimeout) {
        Timer timer = new Timer();
        int ms = (int) Math.max(1, Math.min(Integer.MAX_VALUE, attemptTimeout.toMillis()));
        try {
            ConnectionFactory f = new ConnectionFactory();
            f.setUri(uri);
            if (uri.regionMatches(true, 0, "amqps:", 0, 6)) {
                // setUri("amqps://") alone trusts every certificate: verify against the JVM's trust store
                f.useSslProtocol(javax.net.ssl.SSLContext.getDefault());
                f.enableHostnameVerification();
            }
            f.setConnectionTimeout(ms);
            f.setHandshakeTimeout(ms);
            f.setShutdownTimeout(0);
            f.setChannelRpcTimeout(ms);
            f.setAutomaticRecoveryEnabled(false);
            f.setTopologyRecoveryEnabled(false);
            f.setRequestedHeartbeat(0);
            try (Connection c = f.newConnection("guard-readiness")) {
                try (Channel ch = c.createChannel()) {
                    // a channel is usable: the broker serves this vhost
                }
                for (String q : queues) {
                    ProbeResult missing = passive(c, "queue", q, timer);
                    if (missing != null) {
                        return missing;
                    }
                }
                for (String x : exchanges) {
                    ProbeResult missing = passive(c, "exchange", x, timer);
                    if (missing != null) {
                        return missing;
                    }
                }
                String extra = queues.isEmpty() && exchanges.isEmpty() ? "" : ", required queues/exchanges exist";
                return ProbeResult.of(this, ProbeState.READY, "handshake and channel ok" + extra, null, timer.elapsed());
            }
        } catch (Exception e) {
            return classify(e, timer.elapsed());
        }
    }

    private ProbeResult passive(Connection c, String what, String name, Timer timer) throws IOException {
        Channel ch = c.createChannel();
        try {
            if (what.equals("queue")) {
                ch.queueDeclarePassive(name);
            } else {
                ch.exchangeDeclarePassive(name);
            }
            return null;
        } catch (IOException e) {
            if (isNotFound(e)) {
                return ProbeResult.of(this, ProbeState.MISSING, what + " '" + name + "' does not exist yet (404 NOT_FOUND)",
                        e, timer.elapsed());
            }
            throw e;
        } finally {
            if (ch.isOpen()) {
                try {
                    ch.close();
                } catch (Exception ignored) {
                    // closing a probe channel must not change the result
                }
            }
        }
    }

    private static boolean isNotFound(Throwable e) {
        for (Throwable c = e; c != null; c = c.getCause() == c ? null : c.getCause()) {
            if (c instanceof ShutdownSignalException s && String.valueOf(s.getMessage()).contains("NOT_FOUND")) {
                return true;
            }
            if (String.valueOf(c.getMessage()).contains("reply-code=404")) {
                return true;
            }
        }
        return false;
    }

    private ProbeResult classify(Exception e, Duration took) {
        String all = chainText(e);
        if (all.contains("ACCESS_REFUSED") || all.contains("reply-code=403")
                || e.getClass().getSimpleName().equals("AuthenticationFailureException")) {
            return ProbeResult.of(this, ProbeState.AUTH, "login refused (ACCESS_REFUSED)", e, took);
        }
        if (all.contains("NOT_ALLOWED") || all.contains("reply-code=530")) {
            return ProbeResult.of(this, ProbeState.AUTH, "vhost not allowed for this user (or does not exist)", e,
                    took);
        }
        if (e instanceof URISyntaxException || e instanceof IllegalArgumentException
                || e instanceof java.security.GeneralSecurityException && !(e instanceof java.security.cert.CertificateException)) {
            return ProbeResult.of(this, ProbeState.CONFIG, "the AMQP URI cannot be used", e, took);
        }
        ProbeState s = Classify.generic(e);
        if (s == ProbeState.TIMEOUT) {
            return ProbeResult.of(this, s, "no AMQP handshake within " + took.toMillis() + " ms", e, took);
        }
        if (s != null) {
            return ProbeResult.of(this, s, "", e, took);
        }
        if (all.contains("MalformedFrameException") || all.contains("AMQP protocol version mismatch")) {
            return ProbeResult.of(this, ProbeState.PROTOCOL, "the answer is not AMQP 0-9-1", e, took);
        }
        if (Classify.peerClosed(e) || all.contains("ShutdownSignalException")) {
            // RabbitMQ closes the socket while it boots (and on a wrong protocol header)
            return ProbeResult.of(this, ProbeState.LOADING, "the broker closed the connection during the handshake", e,
                    took);
        }
        return ProbeResult.of(this, ProbeState.PROTOCOL, "unexpected answer", e, took);
    }

    private static String chainText(Throwable e) {
        StringBuilder sb = new StringBuilder();
        for (Throwable c = e; c != null; c = c.getCause() == c ? null : c.getCause()) {
            sb.append(c.getClass().getName()).append(": ").append(c.getMessage()).append(" | ");
        }
        return sb.toString();
    }
}
