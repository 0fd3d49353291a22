package dev.guard.examples.scaledown;

import dev.guard.testing.KafkaBroker;
import dev.guard.testing.KubeApiServer;
import dev.guard.testing.MachineServices;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The scale-down experiment of "Kubernetes Scale-Down Was Eating Our Messages", rebuilt on a
 * real Redis with real worker JVMs: push job ids, start the workers, play the autoscaler
 * (scale-down events: SIGTERM, grace period, SIGKILL; or SIGKILL alone in crash-safe mode;
 * each followed by a scale-up), wait until the queue is empty and the sink is stable, then
 * reconcile by id. One table row per mode.
 *
 * <pre>
 * java -cp "examples/target/classes:$(cat examples/target/classpath.txt)" \
 *     dev.guard.examples.scaledown.Experiment --jobs 100000 --workers 50
 * </pre>
 */
public final class Experiment {

    /** The sink must be unchanged this long (longer than the slowest job) before reconciling. */
    static final Duration SETTLE = Duration.ofSeconds(3);

    private Experiment() {}

    public static void main(String[] args) throws Exception {
        ExperimentConfig config;
        try {
            config = ExperimentConfig.parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println("usage error: " + e.getMessage());
            System.exit(64);
            return;
        }
        List<Row> rows = run(config, System.out);
        System.out.println();
        System.out.println(table(config, rows));
    }

    static String table(ExperimentConfig config, List<Row> rows) {
        StringBuilder sb = new StringBuilder(config.toString()).append('\n').append(Row.header()).append('\n');
        for (Row r : rows) {
            sb.append(r.line()).append('\n');
        }
        return sb.toString();
    }

    /** Runs every configured mode on every configured broker in turn; progress goes to {@code out}. */
    public static List<Row> run(ExperimentConfig config, PrintStream out) throws Exception {
        LocalRedis local = config.redisUri() == null ? LocalRedis.start(config.redisServer()) : null;
        String uri = local == null ? config.redisUri() : local.uri();
        List<AutoCloseable> brokers = new ArrayList<>();
        // Ctrl-C or SIGTERM of the experiment: leave no worker, redis-server or Kafka broker behind
        Thread cleanup = new Thread(() -> {
            Trial.SPAWNED.forEach(p -> p.toHandle().destroyForcibly());
            if (local != null) {
                local.kill();
            }
            brokers.forEach(b -> {
                try {
                    b.close();
                } catch (Exception ignored) {
                    // exiting anyway
                }
            });
        }, "scaledown-cleanup");
        Runtime.getRuntime().addShutdownHook(cleanup);
        RedisClient client = RedisClient.create(uri);
        List<Row> rows = new ArrayList<>();
        // the deletion-cost row's pods live on a stand-in API server (no Kubernetes here)
        KubeApiServer pods = config.modes().contains(Mode.DELETION_COST)
                ? KubeApiServer.start(Path.of(config.workDir()).resolve("kube-api")) : null;
        try (StatefulRedisConnection<String, String> c = client.connect()) {
            String runId = Long.toString(System.currentTimeMillis(), 36);
            for (Transport.Kind kind : config.brokers()) {
                for (Mode mode : config.modes()) {
                    // a transport per row: Kafka's is a fresh broker each time (a broker that had served
                    // one run's churning group of ten was seen to stop taking the next run's records)
                    try (Transport transport = transport(kind, config, uri, brokers, out)) {
                        String prefix = "scaledown:" + runId + ":" + kind.arg() + ":" + mode.arg();
                        Trial trial = new Trial(config, transport, mode, uri, prefix, c.sync(), out,
                                kind.arg() + " " + mode.label(kind), kind.arg() + "-" + mode.arg(), Experiment::scaleDown);
                        if (mode == Mode.DELETION_COST) {
                            trial.pods(pods);
                        }
                        Row row = trial.run();
                        out.println(row.line());
                        rows.add(row);
                    }
                }
            }
        } finally {
            if (pods != null) {
                pods.close();
            }
            client.shutdown(Duration.ZERO, Duration.ofSeconds(1));
            for (AutoCloseable b : brokers) {
                b.close();
            }
            if (local != null) {
                local.close();
            }
            Runtime.getRuntime().removeShutdownHook(cleanup);
        }
        return rows;
    }

    private static Transport transport(Transport.Kind kind, ExperimentConfig config, String redisUri,
            List<AutoCloseable> brokers, PrintStream out) throws Exception {
        return switch (kind) {
            case REDIS -> new RedisTransport(redisUri);
            case RABBITMQ -> new AmqpTransport(config.amqpUri() != null ? config.amqpUri() : MachineServices.amqpUri());
            case NATS -> new NatsTransport(config.natsUrl() != null ? config.natsUrl() : MachineServices.natsUrl());
            case KAFKA -> {
                KafkaBroker broker = KafkaTransport.brokerSettings(KafkaBroker.builder(), config.kafkaProtocol())
                        .build().start();
                brokers.add(broker); // for the cleanup hook; the transport closes it after its row
                out.printf("kafka: KRaft broker %s started in %d ms; workers %s%n",
                        broker.bootstrapServers(), broker.lastStartTime().toMillis(), config.kafkaProtocol().says());
                yield new KafkaTransport(broker, config.kafkaProtocol());
            }
        };
    }

    /** Where a mode's run records how many jobs it queued (LLEN of the queue right after the pushes). */
    static String enqueued(String prefix) {
        return prefix + ":enqueued";
    }

    /**
     * A scale-down event: SIGTERM (or SIGKILL in crash-safe mode) to perEvent workers, SIGKILL after
     * the grace period; then as many new workers (the scale-up). The workers are picked at random, as
     * by a ReplicaSet controller that knows nothing of them; in the deletion-cost row, lowest pod
     * deletion cost first, ties at random, as the controller ranks pods that are alike in the rules
     * before the cost (assigned, running, ready: all of them here).
     */
    static int scaleDown(Trial trial, int event) throws Exception {
        ExperimentConfig config = trial.config();
        List<Process> alive = trial.alive();
        Collections.shuffle(alive, trial.random());
        if (trial.mode() == Mode.DELETION_COST) {
            Map<Process, Integer> cost = new HashMap<>();
            alive.forEach(p -> cost.put(p, trial.deletionCost(p)));
            alive.sort(Comparator.comparingInt(cost::get)); // stable: the shuffle breaks ties
        }
        List<Process> victims = alive.subList(0, Math.min(config.perEvent(), alive.size()));
        trial.stopping(victims);
        boolean crashSafe = trial.mode() == Mode.CRASH_SAFE;
        for (Process p : victims) {
            if (crashSafe) {
                String holding = trial.holding(trial.workerId(p));
                long killedAt = System.currentTimeMillis();
                p.toHandle().destroyForcibly();
                if (holding != null) {
                    trial.killedHolding(holding, killedAt);
                }
            } else {
                p.toHandle().destroy();
            }
        }
        long deadline = System.nanoTime() + config.grace().toNanos();
        int killed = 0;
        int clean = 0;
        for (Process p : victims) {
            long left = deadline - System.nanoTime();
            if (!p.waitFor(Math.max(0, left), TimeUnit.NANOSECONDS)) {
                p.toHandle().destroyForcibly();
                p.waitFor(5, TimeUnit.SECONDS);
                killed++;
            } else if (p.exitValue() == 0) {
                clean++;
            }
        }
        trial.out().printf("%s: scale-down %d: %d workers %s, %d exited 0 within the grace period, %d SIGKILLed after it%n",
                trial.name(), event, victims.size(), crashSafe ? "SIGKILLed" : "sent SIGTERM", clean, killed);
        int n = victims.size();
        trial.retire(victims);
        for (int i = 0; i < config.perEvent(); i++) {
            trial.spawn();
        }
        return n;
    }
}
