package dev.guard.init.diagnose;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Redis clients' connection errors: redis-py ({@code redis/connection.py}: "Error {errno}
 * connecting to {host}:{port}. {strerror}.", "Timeout connecting to server", BusyLoadingError),
 * lettuce ({@code RedisConnectionException: Unable to connect to host/<unresolved>:port}, netty's
 * "Connection refused: host/ip:port", RedisLoadingException), Jedis
 * ({@code DefaultJedisSocketFactory}: "Failed to connect to any host resolved for DNS name.",
 * "Could not get a resource from the pool") and Spring Boot ("Unable to connect to Redis"); and what a
 * Sentinel or Cluster topology answers through any of them ({@code MOVED 9631 10.0.0.7:7001}, {@code ASK},
 * {@code READONLY You can't write against a read only replica}, {@code CLUSTERDOWN}, redis-py's
 * {@code ReadOnlyError}, {@code ClusterDownError} and {@code MasterNotFoundError: No master found for
 * 'mymaster'}, Jedis's {@code All sentinels down, cannot determine where is mymaster master is running}).
 */
final class RedisClientParser implements LineParser {
    private static final String HOST = "(\\[[0-9a-fA-F:.]+\\]|[A-Za-z0-9_.\\-]+)";
    /** redis-py writes an IPv6 address without brackets: Error 99 connecting to ::1:6379. */
    private static final String PY_HOST = "(\\[[0-9a-fA-F:.]+\\]|[A-Za-z0-9_.\\-]+|[0-9a-fA-F]*:[0-9a-fA-F:.]*)";

    /** redis-py: Error 111 connecting to redis:6379. Connection refused. */
    private static final Pattern REDIS_PY = Pattern.compile(
            "Error (-?\\d+) connecting to " + PY_HOST + ":(\\d{1,5})\\.?\\s*([^\\r\\n]*)");
    /** redis-py without an errno (older releases, some wrappers): Error connecting to redis:6379. */
    private static final Pattern REDIS_PY_PLAIN = Pattern.compile(
            "Error connecting to " + PY_HOST + ":(\\d{1,5})");
    /** asyncio / redis.asyncio: Connect call failed ('172.18.0.2', 6379). */
    private static final Pattern CONNECT_CALL_FAILED = Pattern.compile(
            "Connect call failed \\('([^']+)', (\\d{1,5})");
    /** lettuce: Unable to connect to localhost/<unresolved>:6379, or host:port. */
    private static final Pattern LETTUCE = Pattern.compile(
            "Unable to connect to " + HOST + "(?:/(?:<unresolved>|[0-9a-fA-F:.]*))?:(\\d{1,5})");
    /** netty under lettuce (and other netty clients): Connection refused: localhost/127.0.0.1:6379. */
    private static final Pattern NETTY_REFUSED = Pattern.compile(
            "Connection refused: ([A-Za-z0-9_.\\-]*)/([0-9a-fA-F:.]+):(\\d{1,5})");
    /** netty: connection timed out: redis/10.0.0.5:6379 (ConnectTimeoutException). */
    private static final Pattern NETTY_TIMEOUT = Pattern.compile(
            "(?i)connection timed out(?: after \\d+ ?ms)?: ([A-Za-z0-9_.\\-]*)/([0-9a-fA-F:.]+):(\\d{1,5})");

    /** MOVED 9631 10.0.0.7:7001 / ASK 9631 10.0.0.7:7001: the server's redirect, as every client prints it. */
    private static final Pattern REDIRECT = Pattern.compile(
            "\\b(MOVED|ASK) (\\d{1,5}) " + HOST + ":(\\d{1,5})");
    private static final long[] TOPOLOGY_WORDS = Words.mask(Word.MOVED, Word.ASK, Word.READONLY, Word.READ_ONLY_REPLICA,
            Word.CLUSTERDOWN, Word.CLUSTER_IS_DOWN, Word.CLUSTER_DOWN_ERROR, Word.NO_MASTER_FOUND, Word.MASTER_NOT_FOUND,
            Word.ALL_SENTINELS_DOWN, Word.MASTER_AT, Word.MASTER_RUNNING_AT);
    /** Jedis: Redis master running at 10.0.0.5:6379 / Created JedisSentinelPool (JedisPool) to master at 10.0.0.5:6379. */
    private static final Pattern SENTINEL_MASTER = Pattern.compile(
            "(?:Redis master running at|to master at) " + HOST + ":(\\d{1,5})");
    private static final long[] CONNECT_WORDS = Words.mask(Word.CONNECTING_TO, Word.CONNECT_CALL_FAILED,
            Word.CONNECTION_TIMED_OUT, Word.CONNECTION_REFUSED_COLON, Word.UNABLE_TO_CONNECT_TO);
    private static final long[] OTHER_WORDS = Words.mask(Word.CONNECTING_TO, Word.REDIS_LOADING,
            Word.REDIS_LOADING_EXCEPTION, Word.BUSY_LOADING, Word.JEDIS_DNS, Word.JEDIS_POOL, Word.SPRING_REDIS,
            Word.NOAUTH, Word.WRONGPASS, Word.INVALID_PAIR, Word.AUTHENTICATION_ERROR);

    @Override
    public List<Signal> parse(LogLine line, Words.Found w) {
        String t = line.text();
        List<Signal> out = new ArrayList<>(1);
        if (w.any(TOPOLOGY_WORDS)) {
            topology(line, t, out);
            if (!out.isEmpty()) {
                return out;
            }
        }
        if (w.any(CONNECT_WORDS)) {
            connectError(line, t, out);
            if (!out.isEmpty()) {
                return out;
            }
        }
        if (w.any(OTHER_WORDS)) {
            words(line, t, out);
        }
        return out;
    }

    /** What a Sentinel or Cluster topology answered: a redirect, a replica's refusal to write, slots down, no master. */
    private static void topology(LogLine line, String t, List<Signal> out) {
        Matcher d = SENTINEL_MASTER.matcher(t);
        if (d.find()) {
            out.add(Signal.at(Signal.Type.DISCOVERED, line, d.group(1), Integer.parseInt(d.group(2)), "jedis"));
            return;
        }
        Matcher m = REDIRECT.matcher(t);
        if (m.find()) {
            out.add(Signal.at(Signal.Type.REDIRECT, line, m.group(3), Integer.parseInt(m.group(4)), "redis")
                    .withDetail(m.group(1) + " " + m.group(2)));
        } else if (t.contains("READONLY") || t.contains("ReadOnlyError") || t.contains("read only replica")) {
            out.add(Signal.of(Signal.Type.READONLY, line, "redis"));
        } else if (t.contains("CLUSTERDOWN") || t.contains("ClusterDownError") || t.contains("cluster is down")) {
            out.add(Signal.of(Signal.Type.CLUSTER_DOWN, line, "redis"));
        } else if (t.contains("No master found") || t.contains("MasterNotFound") || t.contains("All sentinels down")) {
            out.add(Signal.of(Signal.Type.NO_MASTER, line, "sentinel"));
        }
    }

    /** The patterns that name a host. */
    private static void connectError(LogLine line, String t, List<Signal> out) {
        Matcher m = REDIS_PY.matcher(t);
        if (m.find()) {
            out.add(Signal.at(redisPyType(m.group(1), m.group(4)), line, m.group(2), Integer.parseInt(m.group(3)),
                    "redis-py").withDetail("errno " + m.group(1)));
            return;
        }
        m = REDIS_PY_PLAIN.matcher(t);
        if (m.find()) {
            out.add(Signal.at(redisPyType("", t), line, m.group(1), Integer.parseInt(m.group(2)), "redis-py"));
            return;
        }
        m = CONNECT_CALL_FAILED.matcher(t);
        if (m.find()) {
            out.add(Signal.at(Signal.Type.REFUSED, line, m.group(1), Integer.parseInt(m.group(2)), "asyncio"));
            return;
        }
        m = NETTY_TIMEOUT.matcher(t);
        if (m.find()) {
            String host = m.group(1).isEmpty() ? m.group(2) : m.group(1);
            out.add(Signal.at(Signal.Type.TIMEOUT, line, host, Integer.parseInt(m.group(3)), "lettuce"));
            return;
        }
        m = NETTY_REFUSED.matcher(t);
        if (m.find()) {
            String host = m.group(1).isEmpty() ? m.group(2) : m.group(1);
            out.add(Signal.at(Signal.Type.REFUSED, line, host, Integer.parseInt(m.group(3)), "lettuce"));
            return;
        }
        m = LETTUCE.matcher(t);
        if (m.find() && !t.contains("Unable to connect to NATS")) {
            out.add(Signal.at(Signal.Type.UNAVAILABLE, line, m.group(1), Integer.parseInt(m.group(2)), "lettuce"));
        }
    }

    /** The errors told by their words alone. */
    private static void words(LogLine line, String t, List<Signal> out) {
        if (t.contains("Timeout connecting to server")) {
            out.add(Signal.of(Signal.Type.TIMEOUT, line, "redis-py"));
        } else if (t.contains("Redis is loading the dataset in memory") || t.contains("RedisLoadingException")
                || t.contains("BusyLoadingError")) {
            out.add(Signal.of(Signal.Type.LOADING, line, t.contains("Redis") && t.contains("lettuce")
                    || t.contains("RedisLoadingException") ? "lettuce" : "redis-py"));
        } else if (t.contains("Failed to connect to any host resolved for DNS name")) {
            out.add(Signal.of(Signal.Type.UNAVAILABLE, line, "jedis"));
        } else if (t.contains("Could not get a resource from the pool")) {
            out.add(Signal.of(Signal.Type.UNAVAILABLE, line, "jedis"));
        } else if (t.contains("Unable to connect to Redis")) {
            out.add(Signal.of(Signal.Type.UNAVAILABLE, line, "spring-data-redis"));
        } else if (t.contains("NOAUTH") || t.contains("WRONGPASS") || t.contains("invalid username-password pair")
                || t.contains("AuthenticationError")) {
            out.add(Signal.of(Signal.Type.AUTH, line, "redis"));
        }
    }

    private static Signal.Type redisPyType(String errno, String wording) {
        String w = wording.toLowerCase(Locale.ROOT);
        if (errno.equals("111") || errno.equals("61") || w.contains("refused")) {
            return Signal.Type.REFUSED;
        }
        if (errno.equals("110") || errno.equals("60") || w.contains("timed out")) {
            return Signal.Type.TIMEOUT;
        }
        if (errno.equals("-2") || errno.equals("-3") || errno.equals("-5") || errno.equals("8")
                || w.contains("name resolution") || w.contains("not known") || w.contains("nodename")) {
            return Signal.Type.DNS;
        }
        return Signal.Type.UNAVAILABLE;
    }
}
