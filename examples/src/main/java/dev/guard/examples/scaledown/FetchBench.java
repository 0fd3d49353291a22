package dev.guard.examples.scaledown;

import dev.guard.queue.redis.CrashSafeListQueue;
import dev.guard.queue.redis.RedisJob;
import dev.guard.queue.redis.StreamQueue;
import io.lettuce.core.KeyValue;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Throughput of the fetch paths on the same Redis, jobs doing no work: plain BRPOP (delete on
 * read), crash-safe BLMOVE + LREM ack (plus lease heartbeat and reaper), and Streams
 * XREADGROUP + XACK/XDEL (with an XAUTOCLAIM probe per fetch). Prints jobs/s.
 *
 * <pre>java -cp ... dev.guard.examples.scaledown.FetchBench [--jobs 50000] [--consumers 1] [--rounds 3] [--redis-uri U]</pre>
 */
public final class FetchBench {

    private FetchBench() {}

    public static void main(String[] args) throws Exception {
        int jobs = 50_000;
        int consumers = 1;
        int rounds = 3;
        String uri = null;
        for (int i = 0; i + 1 < args.length; i += 2) {
            switch (args[i]) {
                case "--jobs" -> jobs = Integer.parseInt(args[i + 1]);
                case "--consumers" -> consumers = Integer.parseInt(args[i + 1]);
                case "--rounds" -> rounds = Integer.parseInt(args[i + 1]);
                case "--redis-uri" -> uri = args[i + 1];
                default -> throw new IllegalArgumentException("unknown option " + args[i]
                        + "; options: --jobs --consumers --rounds --redis-uri");
            }
        }
        LocalRedis local = uri == null ? LocalRedis.start(null) : null;
        RedisClient client = RedisClient.create(uri == null ? local.uri() : uri);
        try (StatefulRedisConnection<String, String> c = client.connect()) {
            String prefix = "guard-bench:" + Long.toString(System.nanoTime(), 36);
            System.out.printf("fetch bench: %d jobs, %d consumer(s), %d rounds, Redis %s%n", jobs, consumers, rounds,
                    uri == null ? "private redis-server" : uri);
            for (int round = 1; round <= rounds; round++) {
                double brpop = brpop(client, c, prefix + ":brpop", jobs, consumers);
                double crashSafe = crashSafe(client, c, prefix + ":blmove", jobs, consumers);
                double streams = streams(client, c, prefix + ":stream", jobs, consumers);
                System.out.printf("round %d: plain BRPOP %,.0f jobs/s | crash-safe BLMOVE+LREM %,.0f jobs/s (%.0f%%)"
                        + " | streams XREADGROUP+XACK %,.0f jobs/s (%.0f%%)%n", round, brpop, crashSafe,
                        100 * crashSafe / brpop, streams, 100 * streams / brpop);
            }
            List<String> keys = c.sync().keys(prefix + "*");
            if (!keys.isEmpty()) {
                c.sync().del(keys.toArray(new String[0]));
            }
        } finally {
            client.shutdown();
            if (local != null) {
                local.close();
            }
        }
    }

    private static void fill(StatefulRedisConnection<String, String> c, String queue, int jobs) {
        for (int from = 1; from <= jobs; from += 1000) {
            List<String> batch = new ArrayList<>();
            for (int i = from; i < Math.min(jobs + 1, from + 1000); i++) {
                batch.add(Jobs.id(i));
            }
            c.sync().lpush(queue, batch.toArray(new String[0]));
        }
    }

    private static double timed(int jobs, int consumers, Callable<Long> consumer) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(consumers);
        long t0 = System.nanoTime();
        List<Future<Long>> fs = new ArrayList<>();
        for (int i = 0; i < consumers; i++) {
            fs.add(pool.submit(consumer));
        }
        long n = 0;
        for (Future<Long> f : fs) {
            n += f.get();
        }
        double secs = (System.nanoTime() - t0) / 1e9;
        pool.shutdown();
        if (n != jobs) {
            throw new IllegalStateException("consumed " + n + " of " + jobs + " jobs");
        }
        return n / secs;
    }

    private static double brpop(RedisClient client, StatefulRedisConnection<String, String> c, String queue, int jobs,
            int consumers) throws Exception {
        fill(c, queue, jobs);
        AtomicLong left = new AtomicLong(jobs);
        return timed(jobs, consumers, () -> {
            long n = 0;
            try (StatefulRedisConnection<String, String> own = client.connect()) {
                while (left.get() > 0) {
                    KeyValue<String, String> kv = own.sync().brpop(0.05, queue);
                    if (kv != null && kv.hasValue()) {
                        n++;
                        left.decrementAndGet();
                    }
                }
            }
            return n;
        });
    }

    private static double crashSafe(RedisClient client, StatefulRedisConnection<String, String> c, String queue, int jobs,
            int consumers) throws Exception {
        fill(c, queue, jobs);
        AtomicLong left = new AtomicLong(jobs);
        AtomicLong seq = new AtomicLong();
        return timed(jobs, consumers, () -> {
            long n = 0;
            try (CrashSafeListQueue q = CrashSafeListQueue.builder(client, queue).workerId("bench-" + seq.incrementAndGet())
                    .pollTimeout(Duration.ofMillis(50)).build()) {
                while (left.get() > 0) {
                    Optional<RedisJob> job = q.fetch();
                    if (job.isPresent()) {
                        q.ack(job.get());
                        n++;
                        left.decrementAndGet();
                    }
                }
            }
            return n;
        });
    }

    private static double streams(RedisClient client, StatefulRedisConnection<String, String> c, String stream, int jobs,
            int consumers) throws Exception {
        for (int i = 1; i <= jobs; i++) {
            c.async().xadd(stream, Map.of("job", Jobs.id(i)));
        }
        c.sync().xlen(stream); // waits for the pipelined XADDs
        AtomicLong left = new AtomicLong(jobs);
        AtomicLong seq = new AtomicLong();
        return timed(jobs, consumers, () -> {
            long n = 0;
            try (StreamQueue q = StreamQueue.builder(client, stream, "bench").consumer("bench-" + seq.incrementAndGet())
                    .pollTimeout(Duration.ofMillis(50)).build()) {
                while (left.get() > 0) {
                    Optional<RedisJob> job = q.fetch();
                    if (job.isPresent()) {
                        q.ack(job.get());
                        n++;
                        left.decrementAndGet();
                    }
                }
            }
            return n;
        });
    }
}
