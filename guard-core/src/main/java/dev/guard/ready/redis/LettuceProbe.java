package dev.guard.ready.redis;

import dev.guard.ready.Probe;
import dev.guard.ready.ProbeResult;
import dev.guard.ready.ProbeState;
import dev.guard.ready.internal.Classify;
import dev.guard.ready.internal.Timer;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.RedisURI;
import io.lettuce.core.SocketOptions;
import io.lettuce.core.TimeoutOptions;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.DefaultClientResources;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The lettuce-bound half of {@link RedisProbe} (loaded only once lettuce is known to be on the
 * classpath). PING must answer PONG. {@code -LOADING} is {@link ProbeState#LOADING} with the progress
 * read from {@code INFO persistence}; an optional key must exist ({@code EXISTS}), else
 * {@link ProbeState#MISSING}. Password/ACL user, TLS ({@code rediss://}) and DB index come
 * from the URI. One lettuce {@link ClientResources} is shared by all Redis probes; the client
 * and its open connection are reused across attempts (auto-reconnect off, connect and command
 * timeout = the attempt timeout) and released by {@link #close()}.
 */
final class LettuceProbe implements Probe {

    private static final Pattern PERC = Pattern.compile("loading_loaded_perc:([0-9.]+)");
    private static final Pattern ETA = Pattern.compile("loading_eta_seconds:(-?[0-9]+)");

    private final String uri;
    private final String target;
    private final String requiredKey;
    private final Object lock = new Object();
    private ClientResources resources;
    private RedisClient client;
    private Duration clientTimeout;
    private StatefulRedisConnection<String, String> connection;

    LettuceProbe(RedisProbe.Builder b) {
        this.uri = b.uri;
        this.target = b.target;
        this.requiredKey = b.requiredKey;
    }


    @Override
    public String kind() {
        return "redis";
    }

    @Override
    public String target() {
        return target;
    }

    /** The key that must exist, or null. */
    public String requiredKey() {
        return requiredKey;
    }

    /**
     * One attempt. The connection of the previous attempt is reused while it stays open (a
     * PING on an open connection is one round trip, so LOADING ending is seen quickly and
     * cheaply); any failure drops it, and a failure on a reused connection is retried at once
     * on a fresh one within the same attempt, so a stale connection never decides the state.
     */
    @Override
    public ProbeResult check(Duration attemptTimeout) {
        Timer timer = new Timer();
        boolean reused = false;
        try {
            StatefulRedisConnection<String, String> c;
            synchronized (lock) {
                reused = connection != null && connection.isOpen();
            }
            c = connection(attemptTimeout);
            return exchange(c, attemptTimeout, timer);
        } catch (Exception | LinkageError e) {
            dropConnection();
            Throwable last = e;
            boolean retry = reused || handshakeRace(e);
            for (int reconnects = 0; retry && reconnects < MAX_RECONNECTS && !timer.remaining(attemptTimeout).isZero();
                    reconnects++) {
                try {
                    return exchange(connection(timer.remaining(attemptTimeout)), attemptTimeout, timer);
                } catch (Exception | LinkageError again) {
                    dropConnection();
                    last = again;
                    retry = handshakeRace(again);
                }
            }
            return classify(last, timer.elapsed());
        }
    }

    private ProbeResult exchange(StatefulRedisConnection<String, String> connection, Duration attemptTimeout,
                                 Timer timer) {
        connection.setTimeout(max(Duration.ofMillis(1), timer.remaining(attemptTimeout)));
        RedisCommands<String, String> cmd = connection.sync();
        String pong;
        try {
            pong = cmd.ping();
        } catch (RedisCommandExecutionException e) {
            if (isLoading(e)) {
                return ProbeResult.of(this, ProbeState.LOADING, loadingDetail(cmd), e, timer.elapsed());
            }
            throw e;
        }
        if (!"PONG".equals(pong)) {
            dropConnection();
            return ProbeResult.of(this, ProbeState.PROTOCOL, "PING answered '" + pong + "', not PONG", null,
                    timer.elapsed());
        }
        if (requiredKey != null && cmd.exists(requiredKey) == 0) {
            return ProbeResult.of(this, ProbeState.MISSING,
                    "key '" + requiredKey + "' does not exist yet (EXISTS returned 0)", null, timer.elapsed());
        }
        return ProbeResult.of(this, ProbeState.READY,
                requiredKey == null ? "PONG" : "PONG, key '" + requiredKey + "' exists", null, timer.elapsed());
    }

    private StatefulRedisConnection<String, String> connection(Duration timeout) {
        synchronized (lock) {
            if (connection != null && connection.isOpen()) {
                return connection;
            }
            if (connection != null) {
                connection.closeAsync();
                connection = null;
            }
            RedisClient c = client(timeout);
            RedisURI u = RedisURI.create(uri);
            u.setTimeout(timeout);
            connection = c.connect(u);
            return connection;
        }
    }

    private void dropConnection() {
        synchronized (lock) {
            if (connection != null) {
                try {
                    connection.closeAsync();
                } catch (RuntimeException ignored) {
                    // a broken connection may fail to close; it is dropped either way
                }
                connection = null;
            }
        }
    }

    /**
     * lettuce 6.8 sometimes reports a failed handshake (e.g. WRONGPASS for an ACL user) as
     * {@code IllegalStateException: RedisHandshakeHandler not registered}, losing the server's
     * reply: its connect listener runs after the failed handshake has closed the channel, which
     * a busy machine makes likelier. Another connect within the same attempt shows the real
     * answer; up to {@link #MAX_RECONNECTS} are made while the attempt has time left (seen in a
     * CI run under load: two connects in a row lost the WRONGPASS).
     */
    /** Fresh connects within one attempt after a stale connection or lettuce's handshake race. */
    static final int MAX_RECONNECTS = 4;

    private static boolean handshakeRace(Throwable e) {
        for (Throwable c = e; c != null; c = c.getCause() == c ? null : c.getCause()) {
            if (c instanceof IllegalStateException && String.valueOf(c.getMessage()).contains("HandshakeHandler")) {
                return true;
            }
        }
        return false;
    }

    private static Duration max(Duration a, Duration b) {
        return a.compareTo(b) >= 0 ? a : b;
    }

    private ProbeResult classify(Throwable e, Duration took) {
        if (isLoading(e)) {
            return ProbeResult.of(this, ProbeState.LOADING, "dataset loading (answered -LOADING)", e, took);
        }
        for (Throwable c = e; c != null; c = c.getCause() == c ? null : c.getCause()) {
            String name = c.getClass().getName();
            if (name.contains("Ssl") || name.contains("SSL")) {
                return ProbeResult.of(this, ProbeState.TLS, "TLS handshake failed", e, took);
            }
        }
        ProbeState s = Classify.generic(e);
        if (s == ProbeState.AUTH) {
            return ProbeResult.of(this, s, "the password/ACL user was rejected (NOAUTH/WRONGPASS)", e, took);
        }
        if (s == ProbeState.TIMEOUT) {
            return ProbeResult.of(this, s, "connected, but no reply within " + millis(took), e, took);
        }
        if (s != null) {
            return ProbeResult.of(this, s, "", e, took);
        }
        for (Throwable c = e; c != null; c = c.getCause() == c ? null : c.getCause()) {
            String name = c.getClass().getSimpleName();
            if (name.contains("ProtocolException") || name.contains("DecoderException")) {
                return ProbeResult.of(this, ProbeState.PROTOCOL, "the reply is not Redis protocol", e, took);
            }
        }
        if (Classify.peerClosed(e)) {
            return ProbeResult.of(this, ProbeState.REFUSED, "the server closed the connection", e, took);
        }
        return ProbeResult.of(this, ProbeState.PROTOCOL, "unexpected reply or error", e, took);
    }

    private static boolean isLoading(Throwable e) {
        for (Throwable c = e; c != null; c = c.getCause() == c ? null : c.getCause()) {
            String m = c.getMessage();
            if (c.getClass().getSimpleName().equals("RedisLoadingException")
                    || (m != null && m.startsWith("LOADING"))) {
                return true;
            }
        }
        return false;
    }

    /** {@code dataset 40% loaded, eta 3s} from INFO persistence; plain text when unreadable. */
    static String loadingDetail(RedisCommands<String, String> cmd) {
        try {
            return loadingDetail(cmd.info("persistence"));
        } catch (RuntimeException e) {
            return "dataset loading (progress unreadable)";
        }
    }

    /** Parses {@code INFO persistence} text. */
    static String loadingDetail(String info) {
        Matcher m = PERC.matcher(info == null ? "" : info);
        if (!m.find()) {
            return "dataset loading (progress unreadable)";
        }
        long perc = (long) Math.floor(Double.parseDouble(m.group(1)));
        Matcher eta = ETA.matcher(info);
        String etaText = eta.find() && Long.parseLong(eta.group(1)) >= 0 ? ", eta " + eta.group(1) + "s" : "";
        return "dataset " + perc + "% loaded" + etaText;
    }

    private RedisClient client(Duration timeout) {
        synchronized (lock) {
            if (resources == null) {
                resources = acquireShared();
            }
            if (client == null) {
                client = RedisClient.create(resources);
            }
            if (!timeout.equals(clientTimeout)) {
                client.setOptions(ClientOptions.builder()
                        .autoReconnect(false)
                        .disconnectedBehavior(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS)
                        .socketOptions(SocketOptions.builder().connectTimeout(timeout).build())
                        .timeoutOptions(TimeoutOptions.enabled(timeout))
                        .build());
                clientTimeout = timeout;
            }
            return client;
        }
    }

    /** Shuts down this probe's client at once and releases the shared resources; the next check recreates them. */
    @Override
    public void close() {
        dropConnection();
        synchronized (lock) {
            try {
                if (client != null) {
                    client.shutdown(0, 200, TimeUnit.MILLISECONDS);
                }
            } catch (RuntimeException e) {
                // closing must never throw
            } finally {
                client = null;
                clientTimeout = null;
                if (resources != null) {
                    resources = null;
                    releaseShared();
                }
            }
        }
    }

    /*
     * One ClientResources (event loops, timer) for every Redis probe in the process, created on the
     * first check and shut down when the last probe using it is closed: creating resources per
     * attempt or per probe costs tens to thousands of milliseconds.
     */
    private static final Object SHARED_LOCK = new Object();
    private static ClientResources shared;
    private static int sharedUsers;

    private static ClientResources acquireShared() {
        synchronized (SHARED_LOCK) {
            if (shared == null) {
                // the JDK resolver: starts faster than netty's DNS client and reports UnknownHostException
                shared = DefaultClientResources.builder().ioThreadPoolSize(2).computationThreadPoolSize(2)
                        .addressResolverGroup(io.netty.resolver.DefaultAddressResolverGroup.INSTANCE)
                        .commandLatencyRecorder(io.lettuce.core.metrics.CommandLatencyRecorder.disabled())
                        .commandLatencyPublisherOptions(io.lettuce.core.event.DefaultEventPublisherOptions.disabled())
                        .build();
            }
            sharedUsers++;
            return shared;
        }
    }

    private static void releaseShared() {
        synchronized (SHARED_LOCK) {
            sharedUsers--;
            if (sharedUsers <= 0 && shared != null) {
                try {
                    shared.shutdown(0, 200, TimeUnit.MILLISECONDS);
                } catch (RuntimeException e) {
                    // closing must never throw
                }
                shared = null;
                sharedUsers = 0;
            }
        }
    }

    private static String millis(Duration d) {
        return d.toMillis() + " ms";
    }

    @Override
    public String toString() {
        return "LettuceProbe[" + target + (requiredKey == null ? "" : ", key " + requiredKey) + "]";
    }
}
