package dev.guard.queue.redis;

import io.lettuce.core.AbstractRedisClient;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulConnection;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.SlotHash;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import io.lettuce.core.cluster.api.sync.RedisClusterCommands;

/**
 * One connection of a queue, to a standalone Redis (also one a {@code redis-sentinel://} client
 * found through Sentinel) or to a Redis Cluster. The queues use only the commands both share, and
 * on a Cluster only keys of one hash slot per script ({@link ListKeys}).
 */
final class RedisLink implements AutoCloseable {

    private final StatefulConnection<String, String> connection;
    private final RedisClusterCommands<String, String> sync;
    private final RedisClusterAsyncCommands<String, String> async;
    private final boolean cluster;

    private RedisLink(StatefulConnection<String, String> connection, RedisClusterCommands<String, String> sync,
                      RedisClusterAsyncCommands<String, String> async, boolean cluster) {
        this.connection = connection;
        this.sync = sync;
        this.async = async;
        this.cluster = cluster;
    }

    /** Connects with {@code client}: a {@link RedisClient} or a {@link RedisClusterClient}. */
    static RedisLink open(AbstractRedisClient client) {
        if (client instanceof RedisClusterClient c) {
            StatefulRedisClusterConnection<String, String> conn = c.connect();
            return new RedisLink(conn, conn.sync(), conn.async(), true);
        }
        if (client instanceof RedisClient c) {
            StatefulRedisConnection<String, String> conn = c.connect();
            return new RedisLink(conn, conn.sync(), conn.async(), false);
        }
        throw new IllegalArgumentException("a queue needs a RedisClient or a RedisClusterClient, not "
                + client.getClass().getName());
    }

    /** True when {@code client} talks to a Cluster. */
    static boolean isCluster(AbstractRedisClient client) {
        return client instanceof RedisClusterClient;
    }

    /**
     * On a Cluster, that {@code other} (a dead-letter list or stream a script writes with the queue's
     * keys) hashes to the queue's slot; throws naming both slots and the fix when it does not.
     */
    static void requireSameSlot(boolean cluster, String queue, String other, String what) {
        if (!cluster || other == null) {
            return;
        }
        int q = SlotHash.getSlot(queue);
        int o = SlotHash.getSlot(other);
        if (q != o) {
            throw new IllegalArgumentException(what + " '" + other + "' is in hash slot " + o + " but queue '" + queue
                    + "' is in slot " + q + ": on a Redis Cluster one script moves jobs between them, and a script touches"
                    + " one slot only; name it with the queue's hash tag ('{" + ListKeys.tagOf(queue) + "}:dead') or leave the default");
        }
    }

    RedisClusterCommands<String, String> sync() {
        return sync;
    }

    RedisClusterAsyncCommands<String, String> async() {
        return async;
    }

    boolean cluster() {
        return cluster;
    }

    StatefulConnection<String, String> connection() {
        return connection;
    }

    /** What the server holding {@code key} keeps across a restart, asked over a connection of its own. */
    static dev.guard.drain.Durability durability(io.lettuce.core.AbstractRedisClient client, String key, String what) {
        try (RedisLink link = open(client)) {
            return RedisDurability.of(link, key, what);
        } catch (io.lettuce.core.RedisException e) {
            return dev.guard.drain.Durability.unknown("redis " + what, "could not ask: " + Redis.describe(e),
                    "check that Redis is reachable, then that it has appendonly yes");
        }
    }

    @Override
    public void close() {
        connection.close();
    }
}
