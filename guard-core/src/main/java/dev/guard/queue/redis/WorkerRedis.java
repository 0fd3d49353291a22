package dev.guard.queue.redis;

import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.TimeoutOptions;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.DefaultClientResources;
import io.lettuce.core.resource.Delay;
import io.netty.resolver.DefaultAddressResolverGroup;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * A lettuce client built the way a worker in a container needs it, which lettuce's
 * {@code RedisClient.create(url)} is not:
 *
 * <ul>
 *   <li><b>the JDK resolver</b>, looked up again on every reconnect. Lettuce's default, netty's DNS
 *       client, keeps an address for the TTL the DNS server gave; a Redis container that restarts
 *       gets a new address (a Compose network, a pod without a stable IP), and the worker kept
 *       reconnecting to the dead one for over a minute while every command timed out
 *       (compose/README.md). {@link #shortDnsCache()} shortens the JDK's own cache (30 s) to 2 s;
 *   <li><b>reconnects at least every 2 s</b> (lettuce: backoff up to 30 s), so a Redis that is back
 *       is found within seconds;
 *   <li><b>commands time out</b> after {@code commandTimeout} (lettuce: 60 s), and are rejected, not
 *       queued, while disconnected: a job's write fails fast and the drain decides.
 * </ul>
 *
 * <pre>{@code
 * WorkerRedis.shortDnsCache();                       // first thing in main, before any lookup
 * try (WorkerRedis redis = WorkerRedis.create(url)) {
 *     CrashSafeListQueue jobs = CrashSafeListQueue.builder(redis.client(), "jobs").build();
 * }
 * }</pre>
 *
 * Closing it shuts the client down, then its resources (which {@code RedisClient.shutdown()}
 * alone leaves running when they were given to it).
 */
public final class WorkerRedis implements AutoCloseable {

    /** How long the JDK keeps a looked-up address, set by {@link #shortDnsCache()}. */
    public static final int DNS_TTL_SECONDS = 2;

    /** The command timeout of {@link #create(String)}. */
    public static final Duration DEFAULT_COMMAND_TIMEOUT = Duration.ofSeconds(10);

    private final ClientResources resources;
    private final RedisClient client;

    private WorkerRedis(ClientResources resources, RedisClient client) {
        this.resources = resources;
        this.client = client;
    }

    /** {@link #create(String, Duration)} with {@link #DEFAULT_COMMAND_TIMEOUT}. */
    public static WorkerRedis create(String redisUrl) {
        return create(redisUrl, DEFAULT_COMMAND_TIMEOUT);
    }

    /** A client for {@code redisUrl} (not yet connected). */
    public static WorkerRedis create(String redisUrl, Duration commandTimeout) {
        ClientResources resources = resources();
        try {
            RedisURI uri = RedisURI.create(redisUrl);
            uri.setTimeout(commandTimeout);
            RedisClient client = RedisClient.create(resources, uri);
            client.setOptions(ClientOptions.builder()
                    .disconnectedBehavior(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS)
                    .timeoutOptions(TimeoutOptions.enabled(commandTimeout))
                    .build());
            return new WorkerRedis(resources, client);
        } catch (RuntimeException e) {
            resources.shutdown(0, 1, TimeUnit.SECONDS);
            throw e;
        }
    }

    /** The resources alone (JDK resolver, reconnect delay at most 2 s), for a client you build yourself. */
    public static ClientResources resources() {
        return DefaultClientResources.builder()
                .addressResolverGroup(DefaultAddressResolverGroup.INSTANCE)
                .reconnectDelay(Delay.exponential(Duration.ofMillis(100), Duration.ofSeconds(2), 2, TimeUnit.MILLISECONDS))
                .build();
    }

    /**
     * Sets the JDK's DNS cache to {@value #DNS_TTL_SECONDS} s unless it is set already
     * ({@code networkaddress.cache.ttl}, {@code sun.net.inetaddr.ttl}). The JDK reads it once, at
     * its first lookup: call this first thing in {@code main}.
     */
    public static void shortDnsCache() {
        if (java.security.Security.getProperty("networkaddress.cache.ttl") == null
                && System.getProperty("sun.net.inetaddr.ttl") == null) {
            java.security.Security.setProperty("networkaddress.cache.ttl", Integer.toString(DNS_TTL_SECONDS));
        }
    }

    public RedisClient client() {
        return client;
    }

    @Override
    public void close() {
        client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
        resources.shutdown(0, 2, TimeUnit.SECONDS);
    }
}
