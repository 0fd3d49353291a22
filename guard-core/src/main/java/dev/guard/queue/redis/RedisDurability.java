package dev.guard.queue.redis;

import dev.guard.drain.Durability;
import dev.guard.ready.redis.RedisInfo;
import io.lettuce.core.RedisException;
import io.lettuce.core.cluster.SlotHash;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.cluster.api.sync.RedisClusterCommands;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a Redis keeps across a restart, read from the server that holds a queue's key: the
 * append-only file and the snapshot schedule ({@code CONFIG GET appendonly}, {@code save},
 * {@code appendfsync}), or {@code INFO persistence} where CONFIG is renamed away or not granted
 * (managed services, ACL users); and whether it evicts keys when memory runs full.
 *
 * <p>The rules follow Redis's own documentation, "Redis persistence"
 * (https://redis.io/docs/latest/operate/oss_and_stack/management/persistence/): "RDB is NOT good
 * if you need to minimize the chance of data loss in case Redis stops working ... you can lose the
 * latest minutes of data"; with AOF and {@code appendfsync everysec} "you can only lose one second
 * worth of writes" (on a crash of the machine: a killed Redis has already written them to the
 * kernel). And "Key eviction" (https://redis.io/docs/latest/develop/reference/eviction/): the
 * {@code allkeys-*} policies remove any key, a queue's list included, when {@code maxmemory} is
 * reached; job queues need {@code noeviction}, as BullMQ's "Going to production" guide says.
 */
final class RedisDurability {

    private RedisDurability() {}

    /** Asks the server that holds {@code key} (on a Cluster, the master of its slot) through a short connection of {@code link}. */
    static Durability of(RedisLink link, String key, String what) {
        RedisClusterCommands<String, String> redis = link.sync();
        String where = "";
        if (link.cluster()) {
            @SuppressWarnings("unchecked")
            StatefulRedisClusterConnection<String, String> c = (StatefulRedisClusterConnection<String, String>) link.connection();
            RedisClusterNode node = c.getPartitions().getPartitionBySlot(SlotHash.getSlot(key));
            if (node != null) {
                redis = c.getConnection(node.getNodeId()).sync();
                where = " (the master of its slot, " + node.getUri().getHost() + ":" + node.getUri().getPort() + ")";
            }
        }
        return judge(new Answers(redis), what + where);
    }

    /** The server's replies, each command asked once; a refused command leaves its reason. */
    static final class Answers {
        final Map<String, String> persistence;
        final String persistenceRefused;
        final Map<String, String> server;
        final Map<String, String> config = new LinkedHashMap<>();
        final String configRefused;

        Answers(RedisClusterCommands<String, String> redis) {
            Map<String, String> p = null;
            String pr = null;
            try {
                p = RedisInfo.fields(redis.info("persistence"));
            } catch (RedisException e) {
                pr = Redis.describe(e);
            }
            persistence = p;
            persistenceRefused = pr;
            Map<String, String> s;
            try {
                s = RedisInfo.fields(redis.info("server"));
            } catch (RedisException e) {
                s = Map.of();
            }
            server = s;
            String cr = null;
            // one parameter per CONFIG GET: Redis before 7.0 takes only one
            for (String name : List.of("appendonly", "save", "appendfsync", "maxmemory", "maxmemory-policy")) {
                try {
                    config.putAll(redis.configGet(name));
                } catch (RedisException e) {
                    cr = Redis.describe(e);
                    config.clear();
                    break;
                }
            }
            configRefused = cr;
        }

        Answers(Map<String, String> persistence, String persistenceRefused, Map<String, String> server,
                Map<String, String> config, String configRefused) {
            this.persistence = persistence;
            this.persistenceRefused = persistenceRefused;
            this.server = server;
            this.config.putAll(config);
            this.configRefused = configRefused;
        }
    }

    /** The verdict on what the server answered; {@code what} names the queue ({@code queue 'jobs'}). */
    static Durability judge(Answers a, String what) {
        String broker = "redis " + what + " on " + serverName(a.server);
        boolean haveConfig = a.configRefused == null && a.config.containsKey("appendonly");
        if (!haveConfig && a.persistence == null) {
            return Durability.unknown(broker, "CONFIG GET appendonly was refused (" + a.configRefused + ") and so was"
                    + " INFO persistence (" + a.persistenceRefused + ")", "check by hand that this Redis has appendonly yes"
                    + " (and, with maxmemory set, maxmemory-policy noeviction), or let the worker's user read them"
                    + " (ACL: +config|get +info)");
        }
        List<String> found = new ArrayList<>();
        List<String> loses = new ArrayList<>();
        List<String> actions = new ArrayList<>();
        boolean aof = haveConfig ? "yes".equalsIgnoreCase(a.config.get("appendonly"))
                : "1".equals(a.persistence.get("aof_enabled"));
        if (aof) {
            String fsync = a.config.getOrDefault("appendfsync", "");
            found.add("appendonly yes" + (fsync.isEmpty() ? "" : ", appendfsync " + fsync + switch (fsync) {
                case "always" -> "";
                case "no" -> " (a crash of the machine, not of Redis, can lose the writes of the last 30 s or so)";
                default -> " (a crash of the machine, not of Redis, can lose the last second of writes)";
            }) + (haveConfig ? "" : " (from INFO persistence: aof_enabled:1; CONFIG GET was refused: " + a.configRefused + ")"));
        } else {
            String since = sinceLastSnapshot(a.persistence);
            if (haveConfig) {
                String save = a.config.getOrDefault("save", "").trim();
                if (save.isEmpty()) {
                    found.add("appendonly no, save '' (nothing on disk)");
                    loses.add("every job waiting in the queue and every job a worker holds: a restart of Redis starts"
                            + " it empty");
                } else {
                    found.add("appendonly no, save '" + save + "' (snapshots only" + since + ")");
                    loses.add("every job pushed, taken or finished since the last snapshot: a restart brings back the"
                            + " snapshot, so newer jobs are gone and finished ones come back");
                }
            } else {
                found.add("aof_enabled:0 (from INFO persistence; CONFIG GET was refused: " + a.configRefused + ")" + since);
                loses.add("every job pushed, taken or finished since the last snapshot, or every job if this Redis takes"
                        + " no snapshots");
            }
            actions.add("turn on the append-only file: appendonly yes in redis.conf (or redis-server --appendonly yes; on"
                    + " a running Redis CONFIG SET appendonly yes, then CONFIG REWRITE to keep it); on a managed Redis, its"
                    + " AOF persistence option");
        }
        if (haveConfig) {
            String policy = a.config.getOrDefault("maxmemory-policy", "noeviction");
            String max = a.config.getOrDefault("maxmemory", "0");
            if (policy.startsWith("allkeys") && !"0".equals(max.trim())) {
                found.add("maxmemory " + max + ", maxmemory-policy " + policy);
                loses.add("any queue or processing list Redis chooses to evict when memory reaches maxmemory ("
                        + policy + " removes any key)");
                actions.add("set maxmemory-policy noeviction (a full Redis then refuses new jobs loudly instead of"
                        + " deleting queued ones)");
            }
        }
        return Durability.of(broker, found, loses, actions);
    }

    private static String sinceLastSnapshot(Map<String, String> persistence) {
        if (persistence == null) {
            return "";
        }
        String saves = persistence.get("rdb_saves");
        String changes = persistence.get("rdb_changes_since_last_save");
        String at = persistence.get("rdb_last_save_time");
        if (changes == null || at == null) {
            return "";
        }
        try {
            String last = "0".equals(saves) ? "no snapshot since it started" : "last snapshot at "
                    + Instant.ofEpochSecond(Long.parseLong(at.trim()));
            return "; " + last + ", " + changes.trim() + " changes since";
        } catch (NumberFormatException e) {
            return "";
        }
    }

    /** {@code Redis 7.0.15}, {@code Valkey 8.0.1}, or {@code Redis} when INFO server was not read. */
    static String serverName(Map<String, String> server) {
        String valkey = server.get("valkey_version");
        if (valkey != null) {
            return "Valkey " + valkey;
        }
        String version = server.get("redis_version");
        return version == null ? "Redis" : "Redis " + version;
    }
}
