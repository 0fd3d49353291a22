package dev.guard.examples.scaledown;

import dev.guard.drain.Drain;
import dev.guard.drain.DrainConfig;
import dev.guard.drain.DrainLoop;
import dev.guard.drain.JobHandler;
import dev.guard.drain.JobSource;
import dev.guard.drain.ShutdownReceipt;
import dev.guard.queue.redis.CrashSafeListQueue;
import dev.guard.queue.redis.FallbackListQueue;
import dev.guard.queue.redis.RedisJob;
import io.lettuce.core.KeyValue;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import java.time.Duration;

/**
 * One worker process of the experiment:
 * {@code Worker MODE REDIS_URI PREFIX WORKER_ID GRACE_MS SAFETY_MS SLOW_ONE_IN}. Takes job ids
 * from {@code PREFIX:queue}, sleeps their steps, writes them to the idempotent {@link Sink}.
 */
public final class Worker {

    static final Duration POLL = Duration.ofMillis(500);
    static final Duration LEASE = Duration.ofSeconds(1);
    static final Duration REAP_EVERY = Duration.ofMillis(500);

    /** Set when the experiment process is gone: a worker must not outlive its orchestrator. */
    private static volatile boolean orphaned;

    private Worker() {}

    static String queue(String prefix) {
        return prefix + ":queue";
    }

    public static void main(String[] args) throws Exception {
        Mode mode = Mode.parse(args[0]);
        String uri = args[1];
        String prefix = args[2];
        String workerId = args[3];
        DrainConfig config = DrainConfig.builder().gracePeriod(Duration.ofMillis(Long.parseLong(args[4])))
                .safetyMargin(Duration.ofMillis(Long.parseLong(args[5]))).workerId(workerId).build();
        int slowOneIn = Integer.parseInt(args[6]);

        // the drain handler goes in first: a SIGTERM during start-up must not kill the JVM either
        Drain drain = mode == Mode.NONE ? null : Drain.install(config);
        ProcessHandle.current().parent().ifPresent(parent -> parent.onExit().thenRun(() -> {
            orphaned = true;
            if (drain != null) {
                drain.requestStop("orchestrator exited");
            }
        }));
        RedisClient client = RedisClient.create(uri);
        int exit = 0;
        try (StatefulRedisConnection<String, String> sinkConnection = client.connect()) {
            Sink sink = new Sink(sinkConnection, prefix);
            if (mode == Mode.NONE) {
                sinkConnection.sync().incr(prefix + ":ready");
                naive(client, prefix, workerId, sink, slowOneIn);
                return;
            }
            boolean checkpoints = mode != Mode.GRACEFUL;
            JobHandler<RedisJob> handler = (job, d) -> {
                for (long step : Jobs.steps(job.id(), slowOneIn)) {
                    if (checkpoints) {
                        d.checkpoint();
                    }
                    Thread.sleep(step);
                }
                sink.write(job.id(), workerId);
            };
            try (JobSource<RedisJob> source = source(mode, client, prefix, workerId, config)) {
                sinkConnection.sync().incr(prefix + ":ready");
                ShutdownReceipt receipt = DrainLoop.builder(drain, source, handler)
                        .handBack(mode != Mode.GRACEFUL)
                        .onHandBack(id -> sinkConnection.sync().incr(prefix + ":handedback"))
                        .build().run();
                exit = receipt.exitCode();
            }
        } finally {
            client.shutdown(Duration.ZERO, Duration.ofMillis(200));
        }
        if (exit != 0) {
            System.exit(exit);
        }
    }

    private static JobSource<RedisJob> source(Mode mode, RedisClient client, String prefix, String workerId, DrainConfig config) {
        if (mode == Mode.CRASH_SAFE) {
            return CrashSafeListQueue.builder(client, queue(prefix)).workerId(workerId).leaseTtl(LEASE).reapEvery(REAP_EVERY)
                    .pollTimeout(POLL).handBackTimeout(config.safetyMargin())
                    .onReap(r -> {
                        try (StatefulRedisConnection<String, String> c = client.connect()) {
                            c.sync().incrby(prefix + ":reaped", r.jobsReturned());
                        }
                    })
                    .build();
        }
        return FallbackListQueue.builder(client, queue(prefix)).pollTimeout(POLL).handBackTimeout(config.safetyMargin()).build();
    }

    /** The worker from the story: BRPOP, work, write; nothing between it and a SIGTERM. */
    private static void naive(RedisClient client, String prefix, String workerId, Sink sink, int slowOneIn) throws InterruptedException {
        try (StatefulRedisConnection<String, String> c = client.connect()) {
            while (!orphaned) {
                KeyValue<String, String> kv = c.sync().brpop(POLL.toMillis() / 1000.0, queue(prefix));
                if (kv == null || !kv.hasValue()) {
                    continue;
                }
                for (long step : Jobs.steps(kv.getValue(), slowOneIn)) {
                    Thread.sleep(step);
                }
                sink.write(kv.getValue(), workerId);
            }
        }
    }
}
