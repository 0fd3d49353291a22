package dev.guard.examples.scaledown;

import dev.guard.drain.DrainConfig;
import dev.guard.drain.JobSource;
import dev.guard.queue.redis.CrashSafeListQueue;
import dev.guard.queue.redis.FallbackListQueue;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Redis lists: BRPOP (delete-on-read; hand-back to a fallback list) and crash-safe BLMOVE into
 * leased processing lists with a reaper.
 */
final class RedisTransport implements Transport {

    static final Duration LEASE = Duration.ofSeconds(1);
    static final Duration REAP_EVERY = Duration.ofMillis(500);

    private final String uri;
    private final RedisClient client;
    private final StatefulRedisConnection<String, String> connection;

    RedisTransport(String uri) {
        this.uri = uri;
        this.client = RedisClient.create(uri);
        this.connection = client.connect();
    }

    static String queue(String prefix) {
        return prefix + ":queue";
    }

    @Override
    public Kind kind() {
        return Kind.REDIS;
    }

    @Override
    public String endpoint() {
        return uri;
    }

    @Override
    public long enqueue(String prefix, List<String> ids) {
        RedisCommands<String, String> redis = connection.sync();
        for (int from = 0; from < ids.size(); from += 1000) {
            redis.lpush(queue(prefix), ids.subList(from, Math.min(ids.size(), from + 1000)).toArray(new String[0]));
        }
        return redis.llen(queue(prefix));
    }

    @Override
    public long pending(String prefix) {
        RedisCommands<String, String> redis = connection.sync();
        long n = redis.llen(queue(prefix)) + redis.llen(queue(prefix) + ":fallback");
        for (String processing : redis.keys(queue(prefix) + ":processing:*")) {
            n += redis.llen(processing);
        }
        return n;
    }

    @Override
    public Set<String> dead(String prefix) {
        return new HashSet<>(connection.sync().lrange(queue(prefix) + ":dead", 0, -1));
    }

    @Override
    public void cleanUp(String prefix) {
        // the run's keys share the prefix with the sink's: the experiment deletes them together
    }

    @Override
    public void close() {
        connection.close();
        client.shutdown(Duration.ZERO, Duration.ofSeconds(1));
    }

    /** A worker's sources on {@code client}; the reaper's counts go to the sink's Redis ({@code sink}). */
    static Sources sources(RedisClient client, RedisClient sink) {
        return (mode, prefix, workerId, config) -> open(client, sink, mode, prefix, workerId, config);
    }

    private static JobSource<?> open(RedisClient client, RedisClient sink, Mode mode, String prefix, String workerId,
            DrainConfig config) {
        if (mode == Mode.CRASH_SAFE) {
            return CrashSafeListQueue.builder(client, queue(prefix)).workerId(workerId).leaseTtl(LEASE).reapEvery(REAP_EVERY)
                    .pollTimeout(Worker.POLL).handBackTimeout(config.safetyMargin())
                    .onReap(r -> {
                        try (StatefulRedisConnection<String, String> c = sink.connect()) {
                            c.sync().incrby(prefix + ":reaped", r.jobsReturned());
                        }
                    })
                    .build();
        }
        // BRPOP deletes on read: the first two rows; the fallback list makes the hand-back row
        return FallbackListQueue.builder(client, queue(prefix)).pollTimeout(Worker.POLL)
                .handBackTimeout(config.safetyMargin()).build();
    }
}
