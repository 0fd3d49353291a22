package dev.guard.queue.redis;

import dev.guard.drain.Drain;
import dev.guard.drain.DrainConfig;
import dev.guard.drain.DrainLoop;
import dev.guard.drain.JobSource;
import dev.guard.drain.ShutdownReceipt;
import io.lettuce.core.RedisClient;
import io.lettuce.core.cluster.RedisClusterClient;
import java.time.Duration;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The worker the child-process tests run: {@code DrainWorkerMain URI QUEUE fallback|crashsafe
 * GRACE_MS SAFETY_MS STEP_MS}; a URI ending in {@code ?cluster=true} runs the crash-safe queue on a
 * Redis Cluster. Each job's payload is {@code {"id":"...","steps":N}}; the job
 * sleeps N steps of STEP_MS with a checkpoint between steps, then HSETs {@code QUEUE:results}.
 */
public final class DrainWorkerMain {

    private static final Pattern ID = Pattern.compile("\"id\":\"([^\"]+)\"");
    private static final Pattern STEPS = Pattern.compile("\"steps\":(\\d+)");

    private DrainWorkerMain() {}

    static String field(Pattern p, String payload) {
        Matcher m = p.matcher(payload);
        return m.find() ? m.group(1) : payload;
    }

    public static void main(String[] args) throws Exception {
        String uri = args[0];
        String queue = args[1];
        String mode = args[2];
        DrainConfig config = DrainConfig.builder().gracePeriod(Duration.ofMillis(Long.parseLong(args[3])))
                .safetyMargin(Duration.ofMillis(Long.parseLong(args[4]))).workerId("child-" + ProcessHandle.current().pid())
                .build();
        long stepMillis = Long.parseLong(args[5]);
        Drain drain = Drain.install(config);
        Function<String, String> idOf = p -> field(ID, p);
        boolean cluster = uri.endsWith("?cluster=true");
        RedisClient client = cluster ? null : RedisClient.create(uri);
        RedisClusterClient clusterClient = cluster ? RedisClusterClient.create(uri.replace("?cluster=true", "")) : null;
        ShutdownReceipt receipt;
        JobSource<RedisJob> queueSource = cluster
                ? CrashSafeListQueue.builder(clusterClient, queue).idOf(idOf).leaseTtl(Duration.ofSeconds(1))
                        .workerId(config.workerId()).reapEvery(Duration.ZERO).pollTimeout(Duration.ofMillis(200)).build()
                : "crashsafe".equals(mode)
                ? CrashSafeListQueue.builder(client, queue).idOf(idOf).leaseTtl(Duration.ofSeconds(1)).workerId(config.workerId())
                        .reapEvery(Duration.ZERO).pollTimeout(Duration.ofMillis(200)).build()
                : FallbackListQueue.builder(client, queue).idOf(idOf).pollTimeout(Duration.ofMillis(200))
                        .handBackTimeout(config.safetyMargin()).build();
        try (JobSource<RedisJob> source = queueSource) {
            System.out.println("READY pid=" + ProcessHandle.current().pid());
            receipt = DrainLoop.builder(drain, source, (RedisJob job, Drain d) -> {
                System.out.println("FETCHED " + job.id());
                int steps = Integer.parseInt(field(STEPS, job.payload()));
                for (int i = 0; i < steps; i++) {
                    d.checkpoint();
                    Thread.sleep(stepMillis);
                }
                if (cluster) {
                    try (var c = clusterClient.connect()) {
                        c.sync().hset(queue + ":results", job.id(), "done");
                    }
                } else {
                    try (var c = client.connect()) {
                        c.sync().hset(queue + ":results", job.id(), "done");
                    }
                }
                System.out.println("DONE " + job.id());
            }).onHandBack(id -> System.out.println("HANDED_BACK " + id)).build().run();
        } finally {
            if (cluster) {
                clusterClient.shutdown(Duration.ZERO, Duration.ofSeconds(1));
            } else {
                client.shutdown(Duration.ZERO, Duration.ofSeconds(1));
            }
        }
        System.out.println(receipt.toLine());
        System.out.println(receipt.toJson());
        if (receipt.exitCode() != 0) {
            System.exit(receipt.exitCode());
        }
    }
}
