package dev.guard.examples.scaledown;

import dev.guard.drain.Drain;
import dev.guard.drain.DrainConfig;
import dev.guard.drain.DrainLoop;
import dev.guard.drain.ForwardingJobSource;
import dev.guard.drain.JobHandler;
import dev.guard.drain.Once;
import dev.guard.drain.ShutdownReceipt;
import dev.guard.queue.redis.CrashSafeListQueue;
import dev.guard.queue.redis.RedisCompletions;
import dev.guard.queue.redis.RedisJob;
import dev.guard.queue.redis.RedisWrites;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * What completion records cost per job, on the same Redis, one worker, jobs doing no work: the
 * crash-safe queue through {@link DrainLoop} with the handler writing its result itself (an
 * idempotent {@code HSET results id worker}: the reference), against the same with {@link Once}
 * and {@link RedisCompletions} (a claim script before the job, the result and the record in one
 * script after it). Prints jobs/s of both and the ratio in each round, then the median ratio.
 * Rounds alternate which path runs first; a warm-up round is not counted.
 *
 * <pre>java -cp ... dev.guard.examples.scaledown.CompletionBench [--jobs 20000] [--rounds 5] [--warmup 1] [--redis-uri U]</pre>
 */
public final class CompletionBench {

    private static final String[] PATHS = {"HSET by the handler", "completion records"};

    private CompletionBench() {}

    public static void main(String[] args) throws Exception {
        BenchOptions o = BenchOptions.parse(args, false);
        int jobs = o.jobs();
        int rounds = o.rounds();
        int warmup = o.warmup();
        String uri = o.redisUri();
        LocalRedis local = uri == null ? LocalRedis.start(null) : null;
        RedisClient client = RedisClient.create(uri == null ? local.uri() : uri);
        try (StatefulRedisConnection<String, String> c = client.connect()) {
            String prefix = "guard-bench:once:" + Long.toString(System.nanoTime(), 36);
            System.out.printf("completion bench: %d jobs, 1 worker, %d warm-up + %d rounds, Redis %s%n", jobs, warmup, rounds,
                    uri == null ? "private redis-server" : uri);
            double[] ratio = new double[rounds];
            for (int round = 1 - warmup; round <= rounds; round++) {
                double[] rate = new double[2];
                for (int k = 0; k < 2; k++) {
                    int path = Math.floorMod(round + k, 2);
                    rate[path] = run(path == 1, client, c, prefix + ":" + path + ":" + (round + warmup), jobs);
                }
                System.out.printf("%-8s %s %,.0f jobs/s | %s %,.0f jobs/s (%.0f%%)   [first: %s]%n",
                        (round < 1 ? "warm-up" : "round " + round) + ":", PATHS[0], rate[0], PATHS[1], rate[1],
                        100 * rate[1] / rate[0], PATHS[Math.floorMod(round, 2)]);
                if (round >= 1) {
                    ratio[round - 1] = rate[1] / rate[0];
                }
            }
            double[] s = ratio.clone();
            Arrays.sort(s);
            System.out.printf("%s vs %s: median %.0f%% over %d rounds (%.0f to %.0f%%)%n", PATHS[1], PATHS[0],
                    100 * FetchBench.median(s), rounds, 100 * s[0], 100 * s[s.length - 1]);
            List<String> keys = c.sync().keys(prefix + "*");
            for (int i = 0; i < keys.size(); i += 1000) {
                c.sync().del(keys.subList(i, Math.min(keys.size(), i + 1000)).toArray(new String[0]));
            }
        } finally {
            client.shutdown();
            if (local != null) {
                local.close();
            }
        }
    }

    /** Fills the queue, runs one worker's loop until every job is done; jobs/s from the first fetch to the stop. */
    private static double run(boolean once, RedisClient client, StatefulRedisConnection<String, String> c, String key,
            int jobs) {
        for (int from = 1; from <= jobs; from += 1000) {
            List<String> batch = new ArrayList<>();
            for (int i = from; i < Math.min(jobs + 1, from + 1000); i++) {
                batch.add(JobWork.id(i));
            }
            c.sync().lpush(key, batch.toArray(new String[0]));
        }
        String results = key + ":results";
        Drain drain = Drain.create(DrainConfig.builder().workerId("bench").build());
        try (CrashSafeListQueue q = CrashSafeListQueue.builder(client, key).workerId("bench")
                     .pollTimeout(Duration.ofMillis(50)).build();
             StatefulRedisConnection<String, String> own = client.connect();
             RedisCompletions done = RedisCompletions.builder(client, key + ":done").worker("bench").build()) {
            long[] counted = {0};
            // stops the loop after the last job's ack, so the stop is inside the timed region
            ForwardingJobSource<RedisJob> counting = new ForwardingJobSource<>(q) {
                @Override
                public void ack(RedisJob job) {
                    super.ack(job);
                    if (++counted[0] == jobs) {
                        q.confirmAcks();
                        drain.requestStop("bench: all done");
                    }
                }
            };
            JobHandler<RedisJob> handler = once
                    ? Once.handler(done, RedisJob::id, (RedisJob job, Drain d, RedisWrites w) -> w.hset(results, job.id(), "bench"))
                    : (job, d) -> own.sync().hset(results, job.id(), "bench");
            long t0 = System.nanoTime();
            ShutdownReceipt r = DrainLoop.builder(drain, counting, handler).build().run();
            double seconds = (System.nanoTime() - t0) / 1e9;
            if (r.done() != jobs || c.sync().hlen(results) != jobs) {
                throw new IllegalStateException(PATHS[once ? 1 : 0] + ": " + r.toLine() + ", " + c.sync().hlen(results)
                        + " results");
            }
            return jobs / seconds;
        }
    }
}
