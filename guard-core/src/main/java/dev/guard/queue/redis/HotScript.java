package dev.guard.queue.redis;

import io.lettuce.core.RedisFuture;
import io.lettuce.core.RedisNoScriptException;
import io.lettuce.core.ScriptOutputType;
import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;

/**
 * A Lua script on a queue's hot path, sent by its SHA1 (EVALSHA: the text travels once) without
 * waiting for the reply, so the caller's next command rides in the same round trip. When Redis
 * answers NOSCRIPT (a restart, a failover to a replica whose cache is empty, SCRIPT FLUSH) nothing
 * ran, so {@link Sent#await} runs the script again with its text (EVAL), which also caches it.
 */
final class HotScript {

    private final String text;
    private final String sha;
    private final ScriptOutputType type;

    HotScript(RedisLink link, String text, ScriptOutputType type) {
        this.text = text;
        this.sha = link.sync().digest(text);
        this.type = type;
    }

    /** Sends the script; nothing is awaited. */
    Sent send(RedisLink link, String[] keys, String... args) {
        RedisFuture<Object> f = link.async().evalsha(sha, type, keys, args);
        return new Sent(link, keys, args, f);
    }

    /** A script on its way: its reply is awaited later, once. */
    final class Sent {
        private final RedisLink link;
        private final String[] keys;
        private final String[] args;
        private final RedisFuture<Object> future;

        private Sent(RedisLink link, String[] keys, String[] args, RedisFuture<Object> future) {
            this.link = link;
            this.keys = keys;
            this.args = args;
            this.future = future;
        }

        /** The reply; on NOSCRIPT the script runs again from its text (it had not run). */
        @SuppressWarnings("unchecked")
        <T> T await(Duration max) throws TimeoutException, ExecutionException, InterruptedException {
            try {
                return (T) Redis.await(future, max);
            } catch (ExecutionException e) {
                if (!(e.getCause() instanceof RedisNoScriptException)) {
                    throw e;
                }
                return (T) Redis.await(link.async().eval(text, type, keys, args), max);
            }
        }
    }
}
