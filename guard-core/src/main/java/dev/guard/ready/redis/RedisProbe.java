package dev.guard.ready.redis;

import dev.guard.ready.Probe;
import dev.guard.ready.ProbeResult;
import dev.guard.ready.ProbeState;
import dev.guard.ready.internal.Classify;
import dev.guard.ready.internal.Clients;
import dev.guard.ready.internal.HostPort;
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
import java.util.Locale;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * PING must answer PONG. {@code -LOADING} is {@link ProbeState#LOADING} with the progress
 * read from {@code INFO persistence}; an optional key must exist ({@code EXISTS}), else
 * {@link ProbeState#MISSING}. Password/ACL user, TLS ({@code rediss://}) and DB index come
 * from the URI. One lettuce {@link ClientResources} and client are reused across attempts
 * (auto-reconnect off, connect and command timeout = the attempt timeout) and released by
 * {@link #close()}.
 */
public final class RedisProbe implements Probe {

    static final String CLIENT_CLASS = "io.lettuce.core.RedisClient";
    static final String ARTIFACT = "io.lettuce:lettuce-core";
    private static final Pattern PERC = Pattern.compile("loading_loaded_perc:([0-9.]+)");
    private static final Pattern ETA = Pattern.compile("loading_eta_seconds:(-?[0-9]+)");

    private final String uri;
    private final String target;
    private final String requiredKey;
    private final Object lock = new Object();
    private ClientResources resources;
    private RedisClient client;
    private Duration clientTimeout;

    RedisProbe(Builder b) {
        this.uri = b.uri;
        this.target = b.target;
        this.requiredKey = b.requiredKey;
    }

    /** A builder for {@code redis://[user:password@]host[:port][/db]} or {@code rediss://...}. */
    public static Builder builder(String uri) {
        return new Builder(uri);
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

    @Override
    public ProbeResult check(Duration attemptTimeout) {
        Timer timer = new Timer();
        try {
            RedisClient c = client(attemptTimeout);
            RedisURI u = RedisURI.create(uri);
            u.setTimeout(attemptTimeout);
            try (StatefulRedisConnection<String, String> connection = c.connect(u)) {
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
        } catch (Exception | LinkageError e) {
            return classify(e, timer.elapsed());
        }
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
                resources = DefaultClientResources.builder().ioThreadPoolSize(2).computationThreadPoolSize(1).build();
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

    /** Shuts down the reused client and its resources at once; the next check recreates them. */
    @Override
    public void close() {
        synchronized (lock) {
            try {
                if (client != null) {
                    client.shutdown(0, 200, TimeUnit.MILLISECONDS);
                }
                if (resources != null) {
                    resources.shutdown(0, 200, TimeUnit.MILLISECONDS);
                }
            } catch (RuntimeException e) {
                // closing must never throw
            } finally {
                client = null;
                resources = null;
                clientTimeout = null;
            }
        }
    }

    private static String millis(Duration d) {
        return d.toMillis() + " ms";
    }

    @Override
    public String toString() {
        return "RedisProbe[" + target + (requiredKey == null ? "" : ", key " + requiredKey) + "]";
    }

    /** Builder; {@link #build()} checks the URI and that lettuce is on the classpath. */
    public static final class Builder {
        private final String uri;
        private String target;
        private String requiredKey;

        Builder(String uri) {
            this.uri = Objects.requireNonNull(uri, "uri");
        }

        /** A key that must exist ({@code EXISTS}) before the target counts as ready. */
        public Builder requireKey(String key) {
            this.requiredKey = Objects.requireNonNull(key, "key");
            return this;
        }

        /**
         * @throws IllegalArgumentException malformed URI (message names the problem, no password)
         * @throws IllegalStateException    lettuce is not on the classpath
         */
        public RedisProbe build() {
            java.net.URI parsed;
            try {
                parsed = new java.net.URI(uri);
            } catch (java.net.URISyntaxException e) {
                throw new IllegalArgumentException("malformed Redis URL '" + dev.guard.config.Redaction.maskText(uri)
                        + "': " + dev.guard.config.Redaction.maskText(e.getReason()));
            }
            String scheme = parsed.getScheme() == null ? "" : parsed.getScheme().toLowerCase(Locale.ROOT);
            if (!scheme.equals("redis") && !scheme.equals("rediss")) {
                throw new IllegalArgumentException("Redis URL '" + dev.guard.config.Redaction.maskText(uri)
                        + "' must start with redis:// or rediss://");
            }
            if (parsed.getHost() == null) {
                throw new IllegalArgumentException("Redis URL '" + dev.guard.config.Redaction.maskText(uri)
                        + "' has no host (expected redis://[user:password@]host[:port][/db])");
            }
            String path = parsed.getPath();
            if (path != null && path.length() > 1 && !path.substring(1).matches("[0-9]+")) {
                throw new IllegalArgumentException("Redis URL '" + dev.guard.config.Redaction.maskText(uri)
                        + "': database '" + path.substring(1) + "' is not a number");
            }
            Clients.require(CLIENT_CLASS, ARTIFACT, "redis:// and rediss://");
            HostPort hp = new HostPort(parsed.getHost(), parsed.getPort() < 0 ? 6379 : parsed.getPort());
            String db = path != null && path.length() > 1 ? "/" + path.substring(1) : "";
            this.target = (scheme.equals("rediss") ? "rediss://" : "") + hp + db;
            return new RedisProbe(this);
        }
    }
}
