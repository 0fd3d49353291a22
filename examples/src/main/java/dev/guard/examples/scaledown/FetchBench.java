package dev.guard.examples.scaledown;

import dev.guard.queue.redis.CrashSafeListQueue;
import dev.guard.queue.redis.RedisJob;
import dev.guard.queue.redis.StreamQueue;
import io.lettuce.core.KeyValue;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Throughput of the fetch paths on the same Redis, jobs doing no work: plain BRPOP (delete on
 * read, the reference), crash-safe BLMOVE with ack (lease heartbeat and reaper running), and
 * Streams XREADGROUP with XACK/XDEL. Prints jobs/s and each path's share of BRPOP in the same
 * round, then the median share over the rounds.
 *
 * <p>What is timed: from a barrier that all consumers pass once connected and set up (lease
 * taken, group created) to the last job consumed; closing is outside. A warm-up round (not
 * counted) runs first, and the order of the three paths rotates from round to round, so no path
 * always runs first on a colder JVM or a fresher Redis.
 *
 * <pre>java -cp ... dev.guard.examples.scaledown.FetchBench [--jobs 20000] [--consumers 1] [--rounds 5] [--warmup 1] [--redis-uri U]</pre>
 */
public final class FetchBench {

    private static final String[] PATHS = {"plain BRPOP", "crash-safe BLMOVE+ack", "streams XREADGROUP+XACK"};

    private FetchBench() {}

    /** One consumer of one path: set up before the barrier, timed in {@link #consume}, closed after. */
    private interface Consumer extends AutoCloseable {
        /** Takes jobs until {@code left} reaches 0; returns how many this consumer took. */
        long consume(AtomicLong left) throws Exception;

        @Override
        void close();
    }

    public static void main(String[] args) throws Exception {
        BenchOptions o = BenchOptions.parse(args, true);
        int jobs = o.jobs();
        int consumers = o.consumers();
        int rounds = o.rounds();
        int warmup = o.warmup();
        String uri = o.redisUri();
        LocalRedis local = uri == null ? LocalRedis.start(null) : null;
        RedisClient client = RedisClient.create(uri == null ? local.uri() : uri);
        try (StatefulRedisConnection<String, String> c = client.connect()) {
            String prefix = "guard-bench:" + Long.toString(System.nanoTime(), 36);
            System.out.printf("fetch bench: %d jobs, %d consumer(s), %d warm-up + %d rounds, Redis %s%n", jobs, consumers,
                    warmup, rounds, uri == null ? "private redis-server " + c.sync().info("server").lines()
                            .filter(l -> l.startsWith("redis_version:")).findFirst().orElse("") : uri);
            double[][] share = new double[2][rounds];
            for (int round = 1 - warmup; round <= rounds; round++) {
                double[] rate = new double[3];
                StringBuilder order = new StringBuilder();
                for (int k = 0; k < 3; k++) {
                    int path = Math.floorMod(round + k, 3);
                    rate[path] = run(path, client, c, prefix + ":" + path + ":" + (round + warmup), jobs, consumers);
                    order.append(k == 0 ? "" : ", ").append(path + 1);
                }
                String label = round < 1 ? "warm-up" : "round " + round;
                System.out.printf("%-8s %s %,.0f jobs/s | %s %,.0f jobs/s (%.0f%%) | %s %,.0f jobs/s (%.0f%%)   [order %s]%n",
                        label + ":", PATHS[0], rate[0], PATHS[1], rate[1], 100 * rate[1] / rate[0], PATHS[2], rate[2],
                        100 * rate[2] / rate[0], order);
                if (round >= 1) {
                    share[0][round - 1] = rate[1] / rate[0];
                    share[1][round - 1] = rate[2] / rate[0];
                }
            }
            for (int p = 1; p <= 2; p++) {
                double[] s = share[p - 1].clone();
                Arrays.sort(s);
                System.out.printf("%s vs plain BRPOP: median %.0f%% over %d rounds (%.0f to %.0f%%)%n", PATHS[p],
                        100 * median(s), rounds, 100 * s[0], 100 * s[s.length - 1]);
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

    static double median(double[] sorted) {
        int n = sorted.length;
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }

    /** Fills the queue, sets the consumers up, times them from a common start to the last job. */
    private static double run(int path, RedisClient client, StatefulRedisConnection<String, String> c, String key,
            int jobs, int consumers) throws Exception {
        if (path == 2) {
            for (int i = 1; i <= jobs; i++) {
                c.async().xadd(key, Map.of("job", JobWork.id(i)));
            }
            c.sync().xlen(key); // waits for the pipelined XADDs
        } else {
            for (int from = 1; from <= jobs; from += 1000) {
                List<String> batch = new ArrayList<>();
                for (int i = from; i < Math.min(jobs + 1, from + 1000); i++) {
                    batch.add(JobWork.id(i));
                }
                c.sync().lpush(key, batch.toArray(new String[0]));
            }
        }
        AtomicLong left = new AtomicLong(jobs);
        CyclicBarrier start = new CyclicBarrier(consumers + 1);
        AtomicLong lastDone = new AtomicLong();
        ExecutorService pool = Executors.newFixedThreadPool(consumers);
        List<Future<Long>> fs = new ArrayList<>();
        for (int i = 0; i < consumers; i++) {
            String name = "bench-" + i;
            fs.add(pool.submit(() -> {
                try (Consumer consumer = open(path, client, key, name)) {
                    start.await();
                    long n = consumer.consume(left);
                    lastDone.accumulateAndGet(System.nanoTime(), Math::max);
                    return n;
                }
            }));
        }
        start.await();
        long t0 = System.nanoTime();
        long n = 0;
        for (Future<Long> f : fs) {
            n += f.get();
        }
        pool.shutdown();
        if (n != jobs) {
            throw new IllegalStateException(PATHS[path] + ": consumed " + n + " of " + jobs + " jobs");
        }
        return n / ((lastDone.get() - t0) / 1e9);
    }

    private static Consumer open(int path, RedisClient client, String key, String name) {
        Duration poll = Duration.ofMillis(50);
        return switch (path) {
            case 0 -> {
                StatefulRedisConnection<String, String> own = client.connect();
                yield new Consumer() {
                    @Override
                    public long consume(AtomicLong left) {
                        long n = 0;
                        while (left.get() > 0) {
                            KeyValue<String, String> kv = own.sync().brpop(0.05, key);
                            if (kv != null && kv.hasValue()) {
                                n++;
                                left.decrementAndGet();
                            }
                        }
                        return n;
                    }

                    @Override
                    public void close() {
                        own.close();
                    }
                };
            }
            case 1 -> {
                CrashSafeListQueue q = CrashSafeListQueue.builder(client, key).workerId(name).pollTimeout(poll).build();
                yield queueConsumer(q, q::confirmAcks);
            }
            default -> queueConsumer(StreamQueue.builder(client, key, "bench").consumer(name).pollTimeout(poll).build(), () -> { });
        };
    }

    /** {@code confirm} waits for the acks still in flight: the last one is inside the timed region too. */
    private static Consumer queueConsumer(dev.guard.drain.JobSource<RedisJob> q, Runnable confirm) {
        return new Consumer() {
            @Override
            public long consume(AtomicLong left) {
                long n = 0;
                while (left.get() > 0) {
                    Optional<RedisJob> job = q.fetch();
                    if (job.isPresent()) {
                        q.ack(job.get());
                        n++;
                        left.decrementAndGet();
                    }
                }
                confirm.run();
                return n;
            }

            @Override
            public void close() {
                q.close();
            }
        };
    }
}
