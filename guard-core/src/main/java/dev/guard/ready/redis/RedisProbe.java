package dev.guard.ready.redis;

import dev.guard.config.Redaction;
import dev.guard.endpoint.Broker;
import dev.guard.endpoint.Endpoint;
import dev.guard.ready.internal.ClientBoundProbe;
import dev.guard.ready.internal.Clients;
import dev.guard.ready.internal.Urls;
import java.util.List;
import java.util.Objects;

/**
 * PING must answer PONG. {@code -LOADING} is {@link dev.guard.ready.ProbeState#LOADING} with the
 * progress read from {@code INFO persistence}, and so is a PONG while INFO persistence says
 * {@code async_loading:1} (a replica answering from its old dataset during a full sync with
 * {@code repl-diskless-load swapdb}), unless {@link Builder#acceptAsyncLoading()}; an optional key
 * must exist ({@code EXISTS}), else MISSING. Password/ACL user, TLS ({@code rediss://}) and DB index come from the URI. One lettuce
 * ClientResources is shared by all Redis probes in the process; each probe reuses its client and,
 * while it stays open, its connection across attempts (auto-reconnect off, connect and command
 * timeout = the attempt timeout; a failure on a reused connection is retried at once on a fresh
 * one). {@link #close()} releases them.
 *
 * <p>This class does not touch lettuce itself: the lettuce-bound half is loaded only after
 * {@link Builder#build()} checked that lettuce is on the classpath.
 */
public final class RedisProbe extends ClientBoundProbe {

    static final String CLIENT_CLASS = "io.lettuce.core.RedisClient";
    static final String ARTIFACT = Broker.REDIS.clientArtifact();

    private final String requiredKey;

    RedisProbe(Builder b) {
        super("redis", new LettuceProbe(b));
        this.requiredKey = b.requiredKey;
    }

    /** A builder for {@code redis://[user:password@]host[:port][/db]} or {@code rediss://...}. */
    public static Builder builder(String uri) {
        return new Builder(uri);
    }



    /** The key that must exist, or null. */
    public String requiredKey() {
        return requiredKey;
    }




    /** Builder; {@link #build()} checks the URI and that lettuce is on the classpath. */
    public static final class Builder {
        final String uri;
        String target;
        String requiredKey;
        boolean acceptAsyncLoading;

        Builder(String uri) {
            this.uri = Objects.requireNonNull(uri, "uri");
        }

        /**
         * Ready while the server loads a new dataset in the background ({@code async_loading:1} in
         * INFO persistence: a replica's full sync with {@code repl-diskless-load swapdb}, Redis 7.0
         * and later), answering from the old one. Off by default: the old dataset may be far behind
         * the master's. For a worker that accepts stale reads ({@code async-loading=ok} in the URL).
         */
        public Builder acceptAsyncLoading() {
            this.acceptAsyncLoading = true;
            return this;
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
            Endpoint e = Urls.single(uri, "Redis", List.of("redis", "rediss"), "redis://[user:password@]host[:port][/db]");
            String path = e.path();
            if (path.length() > 1 && !path.substring(1).matches("[0-9]+")) {
                throw new IllegalArgumentException("Redis URL '" + Redaction.maskSettingValue(uri)
                        + "': database '" + path.substring(1) + "' is not a number");
            }
            try {
                java.net.URI.create(uri); // what lettuce's RedisURI.create parses it with
            } catch (IllegalArgumentException bad) {
                String reason = bad.getCause() instanceof java.net.URISyntaxException u ? u.getReason() : "not a URI";
                throw new IllegalArgumentException("Redis URL '" + Redaction.maskSettingValue(uri) + "' is not a URI lettuce can read ("
                        + reason + "): a space, quote, '[', ']' or a '%' not followed by two hex digits in the password must be"
                        + " percent-encoded (%20, %22, %5B, %5D, %25)");
            }
            Clients.require(CLIENT_CLASS, ARTIFACT, "redis:// and rediss://");
            this.target = (e.scheme().equals("rediss") ? "rediss://" : "") + e.hostPort() + (path.length() > 1 ? path : "");
            return new RedisProbe(this);
        }
    }
}
