package dev.guard.ready.redis;

import dev.guard.config.Redaction;
import dev.guard.endpoint.Endpoint;
import dev.guard.ready.internal.ClientBoundProbe;
import dev.guard.ready.internal.Clients;
import dev.guard.ready.internal.Urls;
import java.util.List;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * A Redis behind Sentinel, {@code redis-sentinel://[user:password@]s1:26379,s2:26379[/db]#mymaster}
 * (lettuce's form; {@code rediss-sentinel://} for TLS; the user and password are the data nodes',
 * as lettuce reads them). Ready when: the sentinels answer ({@code SENTINEL MASTER <name>}; at
 * least one, every one is listed), those that answer agree on one master and none sees it down,
 * the master they announce is not a loopback address while the sentinels were reached by another
 * ({@link dev.guard.ready.ProbeState#ANNOUNCED}: the trap where every client on another host
 * connects to itself), and that master answers PONG (not {@code -LOADING}), {@code ROLE master}
 * and, when set, {@code EXISTS key}. A disagreement, a master seen down or a master that answers
 * {@code ROLE slave} is {@link dev.guard.ready.ProbeState#TOPOLOGY}: a failover the gate waits out.
 * Every attempt's result lists each sentinel and the master ({@code ProbeResult.nodes()}).
 */
public final class RedisSentinelProbe extends ClientBoundProbe {

    static final String KIND = "redis-sentinel";
    static final String FORM = "redis-sentinel://host:26379[,host:26379][/db]#master-name";

    private final String masterName;

    RedisSentinelProbe(Builder b) {
        super(KIND, new LettuceSentinelProbe(b));
        this.masterName = b.masterName;
    }

    /** A builder for {@code redis-sentinel://...#name} or {@code rediss-sentinel://...#name}. */
    public static Builder builder(String uri) {
        return new Builder(uri);
    }

    /** The name the sentinels monitor the master by (after {@code #}). */
    public String masterName() {
        return masterName;
    }

    /** Builder; {@link #build()} checks the URI and that lettuce is on the classpath. */
    public static final class Builder {
        final String uri;
        String target;
        String masterName;
        String requiredKey;

        Builder(String uri) {
            this.uri = Objects.requireNonNull(uri, "uri").trim();
        }

        /** A key that must exist on the master ({@code EXISTS}) before the target counts as ready. */
        public Builder requireKey(String key) {
            this.requiredKey = Objects.requireNonNull(key, "key");
            return this;
        }

        /**
         * @throws IllegalArgumentException malformed URI or no master name (message names the problem, no password)
         * @throws IllegalStateException    lettuce is not on the classpath
         */
        public RedisSentinelProbe build() {
            List<Endpoint> sentinels = Urls.all(uri, "Redis Sentinel", List.of("redis-sentinel", "rediss-sentinel"), FORM);
            String path = sentinels.get(0).path();
            if (path.length() > 1 && !path.substring(1).matches("[0-9]+")) {
                throw new IllegalArgumentException("Redis Sentinel URL '" + Redaction.maskSettingValue(uri)
                        + "': database '" + path.substring(1) + "' is not a number");
            }
            int hash = uri.indexOf('#');
            String name = hash < 0 ? "" : uri.substring(hash + 1);
            if (name.isBlank()) {
                throw new IllegalArgumentException("Redis Sentinel URL '" + Redaction.maskSettingValue(uri)
                        + "' names no master: add '#' and the name the sentinels monitor it by (" + FORM + ")");
            }
            Clients.require(RedisProbe.CLIENT_CLASS, RedisProbe.ARTIFACT, "redis-sentinel://");
            this.masterName = name;
            this.target = sentinels.stream().map(Endpoint::hostPort).collect(Collectors.joining(",")) + "#" + name;
            return new RedisSentinelProbe(this);
        }
    }
}
