package dev.guard.ready.redis;

import dev.guard.ready.Probe;
import dev.guard.ready.ProbeResult;
import dev.guard.ready.ProbeState;
import dev.guard.ready.internal.Timer;
import io.lettuce.core.LettuceFutures;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.RedisCommandInterruptedException;
import io.lettuce.core.RedisCommandTimeoutException;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.async.RedisAsyncCommands;
import io.lettuce.core.resource.ClientResources;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;

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

    private final String uri;
    private final String target;
    private final String requiredKey;
    private final boolean acceptAsyncLoading;
    private final Object lock = new Object();
    private ClientResources resources;
    private RedisClient client;
    private Duration clientTimeout;
    private StatefulRedisConnection<String, String> connection;
    private final LoadEta loadEta = new LoadEta();

    LettuceProbe(RedisProbe.Builder b) {
        this.uri = b.uri;
        this.target = b.target;
        this.requiredKey = b.requiredKey;
        this.acceptAsyncLoading = b.acceptAsyncLoading;
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
        RedisAsyncCommands<String, String> cmd = connection.async();
        PingReply reply = ping(connection);
        String pong = reply.pong();
        if (reply.loading() != null) {
            ProbeResult loading = loading(reply.info(), reply.seenNanos(), reply.loading(), timer);
            if (loading != null) {
                return loading;
            }
            pong = await(connection, cmd.ping()); // the load ended between PING and INFO: ask again rather than wait an attempt
        }
        if ("PONG".equals(pong) && !acceptAsyncLoading) {
            ProbeResult stale = asyncLoading(connection, reply.info(), reply.seenNanos(), timer);
            if (stale != null) {
                return stale;
            }
        }
        synchronized (lock) {
            loadEta.reset();
        }
        if (!"PONG".equals(pong)) {
            dropConnection();
            return ProbeResult.of(this, ProbeState.PROTOCOL, "PING answered '" + pong + "', not PONG", null,
                    timer.elapsed());
        }
        if (requiredKey != null && await(connection, cmd.exists(requiredKey)) == 0) {
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
        LettuceSupport.Found f = LettuceSupport.classify(e, took);
        return ProbeResult.of(this, f.state(), f.detail(), e, took);
    }

    private static boolean isLoading(Throwable e) {
        return LettuceSupport.isLoading(e);
    }

    /**
     * PING's reply, or its -LOADING ({@code loading}) with the INFO persistence read after or beside
     * it ({@code info}, null when unreadable) and about when Redis answered that ({@code seenNanos}).
     */
    private record PingReply(String pong, RedisCommandExecutionException loading, String info, long seenNanos) {
    }

    /**
     * PING and INFO persistence, in the same round trip: a PONG may come from a replica loading in
     * the background, and a -LOADING needs the progress (a fleet of gates around the end of a load
     * would make half the exchanges if INFO followed a -LOADING). Any error of PING other than
     * -LOADING is thrown.
     */
    private static PingReply ping(StatefulRedisConnection<String, String> connection) {
        RedisAsyncCommands<String, String> cmd = connection.async();
        long sent = System.nanoTime();
        RedisFuture<String> ping = cmd.ping();
        RedisFuture<String> info = cmd.info("persistence");
        try {
            String pong = await(connection, ping);
            String text = null;
            try {
                text = await(connection, info);
            } catch (RuntimeException unreadable) {
                // an INFO that fails (renamed or ACL-denied) leaves the PONG as the answer
            }
            return new PingReply(pong, null, text, sent + (System.nanoTime() - sent) / 2);
        } catch (RedisCommandExecutionException e) {
            if (!isLoading(e)) {
                throw e;
            }
            String text;
            try {
                text = await(connection, info);
            } catch (RuntimeException unreadable) {
                text = null;
            }
            return new PingReply(null, e, text, sent + (System.nanoTime() - sent) / 2);
        }
    }

    /**
     * A command's reply within the connection's timeout, with the exceptions lettuce's synchronous
     * API throws: {@link RedisCommandExecutionException} for an error reply,
     * {@link RedisCommandTimeoutException}, {@link RedisCommandInterruptedException} (the probe's
     * connections have no synchronous API: {@link AsyncOnlyRedisClient}).
     */
    private static <T> T await(StatefulRedisConnection<String, String> connection, RedisFuture<T> reply) {
        return LettuceFutures.awaitOrCancel(reply, connection.getTimeout().toNanos(), TimeUnit.NANOSECONDS);
    }

    /**
     * LOADING with the progress ({@code dataset 40% loaded, eta 3s}) and the estimate of when the
     * load ends, both from INFO persistence ({@link LoadEta}) as Redis answered it about
     * {@code seen}; plain text when unreadable. Null when INFO says the load is over ({@code loading:0}).
     */
    private ProbeResult loading(String info, long seen, Exception e, Timer timer) {
        Map<String, String> fields = RedisInfo.fields(info);
        if ("0".equals(fields.get("loading"))) {
            return null;
        }
        Duration readyIn;
        synchronized (lock) {
            readyIn = info == null ? null : loadEta.update(fields, seen);
        }
        String detail = LettuceSupport.loadingDetail(fields);
        return ProbeResult.of(this, ProbeState.LOADING, detail, e, timer.elapsed()).withExpectedReadyIn(readyIn);
    }

    /** Parses {@code INFO persistence} text. */
    static String loadingDetail(String info) {
        return LettuceSupport.loadingDetail(info);
    }

    /**
     * LOADING when INFO persistence says {@code async_loading:1}: the server answers PING (and reads)
     * from its old dataset while it loads the new one in the background, a replica's full sync with
     * {@code repl-diskless-load swapdb} (Redis 7.0 and later, Valkey). Its {@code loading} is 0, so the
     * -LOADING rule never sees it; the data it serves may be far behind the master's. Null otherwise.
     */
    private ProbeResult asyncLoading(StatefulRedisConnection<String, String> connection, String info, long seen,
                                     Timer timer) {
        Map<String, String> fields = RedisInfo.fields(info);
        if (!"1".equals(fields.get("async_loading"))) {
            return null;
        }
        String server;
        try {
            server = RedisInfo.serverName(RedisInfo.fields(await(connection, connection.async().info("server"))));
        } catch (RuntimeException unreadable) {
            server = "Redis";
        }
        Duration readyIn;
        synchronized (lock) {
            readyIn = loadEta.update(fields, seen);
        }
        return ProbeResult.of(this, ProbeState.LOADING, server + " answers from its old dataset while it loads a new"
                + " one in the background (async_loading:1, a replica's full sync with repl-diskless-load swapdb):"
                + " what it serves may be far behind its master; " + LettuceSupport.loadingDetail(fields)
                + ". A worker that accepts stale reads: async-loading=ok in the target", null, timer.elapsed())
                .withExpectedReadyIn(readyIn);
    }

    private RedisClient client(Duration timeout) {
        synchronized (lock) {
            if (resources == null) {
                resources = LettuceSupport.acquireShared();
            }
            if (client == null) {
                client = new AsyncOnlyRedisClient(resources);
            }
            if (!timeout.equals(clientTimeout)) {
                client.setOptions(LettuceSupport.options(timeout));
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
                    LettuceSupport.releaseShared();
                }
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
