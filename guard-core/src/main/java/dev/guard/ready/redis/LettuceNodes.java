package dev.guard.ready.redis;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulConnection;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.async.RedisAsyncCommands;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.sentinel.api.StatefulRedisSentinelConnection;
import io.lettuce.core.sentinel.api.async.RedisSentinelAsyncCommands;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.function.BiFunction;
import java.util.function.Function;

/**
 * The connections of a probe whose target is several servers (sentinels and the master they
 * announce, a cluster's nodes): one lettuce client, one open connection per server reused across
 * attempts, every exchange asynchronous so that the servers of one attempt are asked at once and
 * one that hangs costs the attempt its timeout once, not once per server. A failed exchange drops
 * that server's connection; one that failed on a reused connection is tried once more on a fresh
 * one, so a connection left over from before a restart never decides a state.
 */
final class LettuceNodes implements AutoCloseable {

    private final Object lock = new Object();
    private final Map<String, StatefulRedisConnection<String, String>> data = new HashMap<>();
    private final Map<String, StatefulRedisSentinelConnection<String, String>> sentinels = new HashMap<>();
    private ClientResources resources;
    private RedisClient client;
    private Duration clientTimeout;

    /** Sets the connect and command timeout for the exchanges that follow (one attempt's). */
    void timeout(Duration timeout) {
        synchronized (lock) {
            if (resources == null) {
                resources = LettuceSupport.acquireShared();
                client = new AsyncOnlyRedisClient(resources);
            }
            if (!timeout.equals(clientTimeout)) {
                client.setOptions(LettuceSupport.options(timeout));
                clientTimeout = timeout;
                data.values().forEach(c -> c.setTimeout(timeout));
                sentinels.values().forEach(c -> c.setTimeout(timeout));
            }
        }
    }

    /** An exchange with a data node (master, replica, cluster node); {@code uri} carries its credentials. */
    <T> CompletableFuture<T> onData(RedisURI uri, Function<RedisAsyncCommands<String, String>, CompletionStage<T>> exchange) {
        return on(data, uri, (c, u) -> c.connectAsync(StringCodec.UTF8, u), c -> exchange.apply(c.async()));
    }

    /** An exchange with a sentinel. */
    <T> CompletableFuture<T> onSentinel(RedisURI uri,
                                        Function<RedisSentinelAsyncCommands<String, String>, CompletionStage<T>> exchange) {
        return on(sentinels, uri, (c, u) -> c.connectSentinelAsync(StringCodec.UTF8, u), c -> exchange.apply(c.async()));
    }

    private <C extends StatefulConnection<String, String>, T> CompletableFuture<T> on(
            Map<String, C> cache, RedisURI uri, BiFunction<RedisClient, RedisURI, CompletionStage<C>> connect,
            Function<C, CompletionStage<T>> exchange) {
        String key = key(uri);
        boolean reused;
        synchronized (lock) {
            C c = cache.get(key);
            reused = c != null && c.isOpen();
        }
        CompletableFuture<T> first = connection(cache, uri, connect).thenCompose(exchange);
        CompletableFuture<T> done = !reused ? first : first.exceptionallyCompose(e -> {
            drop(cache, key);
            return connection(cache, uri, connect).thenCompose(exchange);
        });
        return done.whenComplete((v, e) -> {
            if (e != null) {
                drop(cache, key);
            }
        });
    }

    private <C extends StatefulConnection<String, String>> CompletableFuture<C> connection(
            Map<String, C> cache, RedisURI uri, BiFunction<RedisClient, RedisURI, CompletionStage<C>> connect) {
        String key = key(uri);
        RedisClient c;
        synchronized (lock) {
            C open = cache.get(key);
            if (open != null && open.isOpen()) {
                return CompletableFuture.completedFuture(open);
            }
            drop(cache, key);
            c = client;
            if (clientTimeout != null) {
                uri.setTimeout(clientTimeout);
            }
        }
        return connect.apply(c, uri).toCompletableFuture().thenApply(conn -> {
            synchronized (lock) {
                C old = cache.put(key, conn);
                if (old != null && old != conn) {
                    old.closeAsync();
                }
            }
            return conn;
        });
    }

    private <C extends StatefulConnection<String, String>> void drop(Map<String, C> cache, String key) {
        synchronized (lock) {
            C c = cache.remove(key);
            if (c != null) {
                quietly(c::closeAsync);
            }
        }
    }

    /** Drops the connections to servers not in {@code keep} ({@code host:port}): a cluster's nodes come and go. */
    void retainData(java.util.Set<String> keep) {
        synchronized (lock) {
            for (String key : new ArrayList<>(data.keySet())) {
                if (!keep.contains(key)) {
                    drop(data, key);
                }
            }
        }
    }

    /** {@code host:port} of a URI: the key of its connection. */
    static String key(RedisURI uri) {
        String h = uri.getHost();
        return (h.indexOf(':') >= 0 ? "[" + h + "]" : h) + ":" + uri.getPort();
    }

    /** Waits for every future until {@code remaining} is spent; those not done are left to fail on their own. */
    static void awaitAll(List<? extends CompletableFuture<?>> futures, Duration remaining) {
        try {
            CompletableFuture.allOf(futures.toArray(CompletableFuture[]::new))
                    .get(Math.max(1, remaining.toMillis()), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Exception e) {
            // each future is read on its own; a failed or late one is classified there
        }
    }

    /** What a future of {@link #awaitAll} came to: its value, or why not (late: still running when the time was up). */
    record Reply<T>(T value, Throwable error, boolean late) {
        static <T> Reply<T> of(CompletableFuture<T> f) {
            if (!f.isDone()) {
                return new Reply<>(null, null, true);
            }
            try {
                return new Reply<>(f.getNow(null), null, false);
            } catch (java.util.concurrent.CompletionException | java.util.concurrent.CancellationException e) {
                return new Reply<>(null, e.getCause() == null ? e : e.getCause(), false);
            }
        }

        boolean ok() {
            return error == null && !late;
        }

        /** The state of a reply that is not {@link #ok()}. */
        LettuceSupport.Found found(Duration took) {
            if (late) {
                return new LettuceSupport.Found(dev.guard.ready.ProbeState.TIMEOUT, "no reply within " + took.toMillis() + " ms");
            }
            return LettuceSupport.classify(error, took);
        }
    }

    @Override
    public void close() {
        synchronized (lock) {
            new ArrayList<>(data.keySet()).forEach(k -> drop(data, k));
            new ArrayList<>(sentinels.keySet()).forEach(k -> drop(sentinels, k));
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

    private static void quietly(Runnable r) {
        try {
            r.run();
        } catch (RuntimeException ignored) {
            // a broken connection may fail to close; it is dropped either way
        }
    }
}
