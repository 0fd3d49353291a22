package dev.guard.ready.redis;

import io.lettuce.core.RedisChannelWriter;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.StatefulRedisConnectionImpl;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.codec.RedisCodec;
import io.lettuce.core.protocol.PushHandler;
import io.lettuce.core.resource.ClientResources;
import java.time.Duration;

/**
 * A lettuce client whose connections have no synchronous API: {@code connection.sync()} returns
 * null, and the probes use {@code async()} only.
 *
 * <p>Why: every lettuce connection builds its synchronous facade in its constructor, a dynamic
 * proxy over the ~450 methods of {@link RedisCommands} and a reflective map of them. The first
 * one in a process costs about 0.1 s of CPU (measured with async-profiler on guard-init's
 * {@code wait}: two thirds of the first Redis attempt), which a one-shot CLI or an initContainer
 * pays on every start, for an API a probe never calls.
 *
 * <p>It overrides lettuce's protected factory method and uses the four-argument connection
 * constructor (public in lettuce 6.x). With a lettuce where either is missing, the first connect
 * falls back to lettuce's own connection, with its synchronous API, and stays there.
 */
final class AsyncOnlyRedisClient extends RedisClient {

    private volatile boolean fallback;

    AsyncOnlyRedisClient(ClientResources resources) {
        super(resources, new RedisURI());
    }

    @Override
    protected <K, V> StatefulRedisConnectionImpl<K, V> newStatefulRedisConnection(RedisChannelWriter writer,
            PushHandler pushHandler, RedisCodec<K, V> codec, Duration timeout) {
        if (!fallback) {
            try {
                return new AsyncOnly<>(writer, pushHandler, codec, timeout);
            } catch (LinkageError otherLettuce) {
                fallback = true;
            }
        }
        return super.newStatefulRedisConnection(writer, pushHandler, codec, timeout);
    }

    private static final class AsyncOnly<K, V> extends StatefulRedisConnectionImpl<K, V> {

        AsyncOnly(RedisChannelWriter writer, PushHandler pushHandler, RedisCodec<K, V> codec, Duration timeout) {
            super(writer, pushHandler, codec, timeout);
        }

        @Override
        protected RedisCommands<K, V> newRedisSyncCommandsImpl() {
            return null;
        }
    }
}
