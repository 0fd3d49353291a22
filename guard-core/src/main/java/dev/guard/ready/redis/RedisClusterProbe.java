package dev.guard.ready.redis;

import dev.guard.config.Redaction;
import dev.guard.endpoint.Endpoint;
import dev.guard.ready.internal.ClientBoundProbe;
import dev.guard.ready.internal.Clients;
import dev.guard.ready.internal.Urls;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * A Redis Cluster, {@code redis://[user:password@]host:port[,host:port]?cluster=true} (or
 * {@code rediss://}): the hosts are seeds, any one of which answering is enough. Ready when a seed
 * says {@code cluster_state:ok} with all 16384 slots ok, every node it announces in
 * {@code CLUSTER NODES} answers PONG (none {@code -LOADING}, none unreachable; a node the cluster
 * itself marks {@code fail} is listed, and blocks only while its slots have no other master), no
 * announced address is loopback while the seeds were reached by another
 * ({@link dev.guard.ready.ProbeState#ANNOUNCED}), and, when set, the key exists on the master of
 * its slot. Every attempt's result lists the nodes with their role, slots and state.
 *
 * <p>A seed that runs without cluster mode is {@link dev.guard.ready.ProbeState#CONFIG}.
 */
public final class RedisClusterProbe extends ClientBoundProbe {

    static final String KIND = "redis-cluster";
    static final String FORM = "redis://host:port[,host:port]?cluster=true";

    RedisClusterProbe(Builder b) {
        super(KIND, new LettuceClusterProbe(b));
    }

    /** A builder for {@code redis://h1:7000,h2:7001} (the {@code ?cluster=true} already taken off) or {@code rediss://...}. */
    public static Builder builder(String uri) {
        return new Builder(uri);
    }

    /** Builder; {@link #build()} checks the URI and that lettuce is on the classpath. */
    public static final class Builder {
        final String uri;
        String target;
        String requiredKey;
        /** One {@code redis://[userinfo@]host:port} per seed; lettuce reads them only in the client-bound half. */
        final List<String> seeds = new ArrayList<>();

        Builder(String uri) {
            this.uri = Objects.requireNonNull(uri, "uri").trim();
        }

        /** A key that must exist ({@code EXISTS} on the master of its slot) before the target counts as ready. */
        public Builder requireKey(String key) {
            this.requiredKey = Objects.requireNonNull(key, "key");
            return this;
        }

        /**
         * @throws IllegalArgumentException malformed URI (message names the problem, no password)
         * @throws IllegalStateException    lettuce is not on the classpath
         */
        public RedisClusterProbe build() {
            List<Endpoint> hosts = Urls.all(uri, "Redis Cluster", List.of("redis", "rediss"), FORM);
            String path = hosts.get(0).path();
            if (path.length() > 1 && !path.equals("/0")) {
                throw new IllegalArgumentException("Redis Cluster URL '" + Redaction.maskSettingValue(uri) + "' selects database '"
                        + path.substring(1) + "': a cluster has only database 0");
            }
            Clients.require(RedisProbe.CLIENT_CLASS, RedisProbe.ARTIFACT, "redis://...?cluster=true");
            int sep = uri.indexOf("://");
            String scheme = uri.substring(0, sep);
            String authority = uri.substring(sep + 3);
            int end = authority.length();
            for (char c : new char[] {'/', '?', '#'}) {
                int i = authority.indexOf(c, Math.max(0, authority.lastIndexOf('@')));
                if (i >= 0 && i < end) {
                    end = i;
                }
            }
            authority = authority.substring(0, end);
            int at = authority.lastIndexOf('@');
            String userInfo = at < 0 ? "" : authority.substring(0, at + 1);
            for (Endpoint e : hosts) {
                seeds.add(scheme + "://" + userInfo + e.hostPort());
            }
            this.target = hosts.stream().map(Endpoint::hostPort).collect(Collectors.joining(","));
            return new RedisClusterProbe(this);
        }
    }
}
