package dev.guard.examples.scaledown;

import com.rabbitmq.client.Connection;
import dev.guard.config.Durations;
import dev.guard.drain.Drain;
import dev.guard.drain.DrainConfig;
import dev.guard.drain.DrainLoop;
import dev.guard.drain.ForwardingJobSource;
import dev.guard.drain.JobHandler;
import dev.guard.drain.JobListener;
import dev.guard.drain.JobSource;
import dev.guard.drain.Once;
import dev.guard.drain.ShutdownReceipt;
import dev.guard.drain.kubernetes.DeletionCost;
import dev.guard.queue.redis.RedisCompletions;
import dev.guard.queue.redis.RedisWrites;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

/**
 * One worker process of the experiment:
 * {@code Worker BROKER ENDPOINT SINK_URI MODE PREFIX WORKER_ID GRACE_MS SAFETY_MS SLOW_ONE_IN [COMPLETION]}.
 * Takes job ids from the broker, sleeps their steps, writes them to the idempotent {@link Sink}
 * (Redis); with {@code COMPLETION = records} a guarded worker claims each job in the sink's Redis
 * ({@link RedisCompletions}, {@code <prefix>:done:<id>}) and its sink writes go with the completion
 * record in one script ({@link Once}). Each start of a job's handler is counted apart. Every fetch is recorded in the sink's Redis: {@code <prefix>:fetched} (a set: an id
 * fetched again counts as redelivered, its times in the list {@code <prefix>:refetched:<id>}) and
 * {@code <prefix>:inhand} (worker id to the job it holds), so the orchestrator can time how long
 * a killed worker's job waited for another worker.
 */
public final class Worker {

    static final Duration POLL = Duration.ofMillis(500);
    /** Where the deletion-cost worker's service account files are (the kubelet's mount, in a pod). */
    static final String ENV_SERVICE_ACCOUNT = "GUARD_EXPERIMENT_SERVICE_ACCOUNT";

    /** Set when the experiment process is gone: a worker must not outlive its orchestrator. */
    private static volatile boolean orphaned;

    private Worker() {}

    public static void main(String[] args) throws Exception {
        Transport.Kind kind = Transport.Kind.parse(args[0]);
        String endpoint = args[1];
        String sinkUri = args[2];
        Mode mode = Mode.parse(args[3]);
        String prefix = args[4];
        String workerId = args[5];
        DrainConfig config = DrainConfig.builder().gracePeriod(Duration.ofMillis(Long.parseLong(args[6])))
                .safetyMargin(Duration.ofMillis(Long.parseLong(args[7]))).workerId(workerId).build();
        int slowOneIn = Integer.parseInt(args[8]);
        boolean completions = args.length > 9 && args[9].equals("records");

        // the drain handler goes in first: a SIGTERM during start-up must not kill the JVM either
        Drain drain = mode == Mode.NONE ? null : Drain.install(config);
        ProcessHandle.current().parent().ifPresent(parent -> parent.onExit().thenRun(() -> {
            orphaned = true;
            if (drain != null) {
                drain.requestStop("orchestrator exited");
            }
        }));
        RedisClient sinkClient = RedisClient.create(sinkUri);
        AutoCloseable brokerConnection = () -> { };
        int exit = 0;
        try (StatefulRedisConnection<String, String> sinkConnection = sinkClient.connect()) {
            Sink sink = new Sink(sinkConnection, prefix);
            Transport.Sources sources;
            switch (kind) {
                case REDIS -> sources = RedisTransport.sources(
                        endpoint.equals(sinkUri) ? sinkClient : RedisClient.create(endpoint), sinkClient);
                case RABBITMQ -> {
                    Connection c = AmqpTransport.connect(AmqpTransport.factory(endpoint), endpoint, workerId);
                    brokerConnection = c::close;
                    sources = AmqpTransport.sources(c, AmqpTransport.cluster(endpoint));
                }
                case NATS -> {
                    io.nats.client.Connection c = NatsTransport.connect(endpoint);
                    brokerConnection = c::close;
                    sources = NatsTransport.sources(c);
                }
                case KAFKA -> sources = KafkaTransport.sources(endpoint);
                default -> throw new IllegalArgumentException(kind.toString());
            }
            try (JobSource<?> source = sources.open(mode, prefix, workerId, config)) {
                exit = work(mode, recording(source, sinkConnection.sync(), prefix, workerId), drain, sink, sinkConnection,
                        prefix, workerId, slowOneIn, completions ? sinkClient : null);
            }
        } finally {
            try {
                brokerConnection.close();
            } catch (Exception ignored) {
                // the broker may be gone already
            }
            sinkClient.shutdown(Duration.ZERO, Duration.ofMillis(200));
        }
        if (exit != 0) {
            System.exit(exit);
        }
    }

    private static <J> int work(Mode mode, JobSource<J> source, Drain drain, Sink sink,
            StatefulRedisConnection<String, String> sinkConnection, String prefix, String workerId, int slowOneIn,
            RedisClient completionsOn) throws Exception {
        sinkConnection.sync().incr(prefix + ":ready");
        if (mode == Mode.NONE) {
            naive(source, sink, workerId, slowOneIn);
            return 0;
        }
        boolean checkpoints = mode != Mode.GRACEFUL;
        JobHandler<J> handler = (job, d) -> {
            run(source.idOf(job), d, checkpoints, sink, slowOneIn);
            sink.write(source.idOf(job), workerId);
        };
        RedisCompletions completions = completionsOn == null ? null
                : RedisCompletions.builder(completionsOn, prefix + ":done").worker(workerId).build();
        // the deletion-cost row: the pod's annotation kept as Guard.run keeps it with GUARD_DELETION_COST=on
        DeletionCost cost = mode != Mode.DELETION_COST ? null
                : DeletionCost.startInPod(System.getenv(), Path.of(System.getenv(ENV_SERVICE_ACCOUNT)),
                        Durations.parse(System.getenv(DeletionCost.ENV_AFTER)));
        try {
            if (completions != null) {
                handler = Once.handler(completions, source::idOf, (J job, Drain d, RedisWrites writes) -> {
                    run(source.idOf(job), d, checkpoints, sink, slowOneIn);
                    sink.write(writes, source.idOf(job), workerId);
                });
            }
            ShutdownReceipt receipt = DrainLoop.builder(drain, source, handler)
                    .handBack(mode != Mode.GRACEFUL)
                    .onHandBack(id -> sinkConnection.sync().incr(prefix + ":handedback"))
                    .jobListener(cost != null ? cost : JobListener.NONE)
                    .build().run();
            return receipt.exitCode();
        } finally {
            if (cost != null) {
                cost.close();
            }
            if (completions != null) {
                completions.close();
            }
        }
    }

    /** The job's steps, the drain's deadline checked between them when {@code checkpoints}. */
    private static void run(String id, Drain d, boolean checkpoints, Sink sink, int slowOneIn) throws InterruptedException {
        sink.started(id);
        for (long step : JobWork.steps(id, slowOneIn)) {
            if (checkpoints) {
                d.checkpoint();
            }
            Thread.sleep(step);
        }
    }

    /** The worker from the story: take, work, write; nothing between it and a SIGTERM. */
    private static <J> void naive(JobSource<J> source, Sink sink, String workerId, int slowOneIn) throws InterruptedException {
        while (!orphaned) {
            Optional<J> job = source.fetch();
            if (job.isEmpty()) {
                continue;
            }
            String id = source.idOf(job.get());
            sink.started(id);
            for (long step : JobWork.steps(id, slowOneIn)) {
                Thread.sleep(step);
            }
            sink.write(id, workerId);
            source.ack(job.get());
        }
    }

    /** Records each fetch in the sink's Redis (redeliveries, the job in hand), and its end. */
    private static <J> JobSource<J> recording(JobSource<J> source, RedisCommands<String, String> redis, String prefix,
            String workerId) {
        return new ForwardingJobSource<>(source) {
            @Override
            public Optional<J> fetch() {
                Optional<J> job = super.fetch();
                job.ifPresent(j -> {
                    String id = idOf(j);
                    redis.hset(prefix + ":inhand", workerId, id);
                    if (redis.sadd(prefix + ":fetched", id) == 0) {
                        redis.incr(prefix + ":redelivered");
                        redis.rpush(prefix + ":refetched:" + id, Long.toString(System.currentTimeMillis()));
                    }
                });
                return job;
            }

            @Override
            public void ack(J job) {
                super.ack(job);
                redis.hdel(prefix + ":inhand", workerId);
            }

            @Override
            public void handBack(J job) throws dev.guard.drain.HandBackFailedException {
                super.handBack(job);
                redis.hdel(prefix + ":inhand", workerId);
            }
        };
    }
}
