package dev.guard.examples.scaledown;

import dev.guard.testing.KafkaBroker;
import dev.guard.testing.MachineServices;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
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

    /** Every worker process started, for the cleanup hook. */
    private static final Set<Process> SPAWNED = java.util.concurrent.ConcurrentHashMap.newKeySet();

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
            SPAWNED.forEach(p -> p.toHandle().destroyForcibly());
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
        try (StatefulRedisConnection<String, String> c = client.connect()) {
            String runId = Long.toString(System.currentTimeMillis(), 36);
            for (Transport.Kind kind : config.brokers()) {
                for (Mode mode : config.modes()) {
                    // a transport per row: Kafka's is a fresh broker each time (a broker that had served
                    // one run's churning group of ten was seen to stop taking the next run's records)
                    try (Transport transport = transport(kind, config, uri, brokers, out)) {
                        String prefix = "scaledown:" + runId + ":" + kind.arg() + ":" + mode.arg();
                        Row row = new Trial(config, transport, mode, uri, prefix, c.sync(), out).run();
                        out.println(row.line());
                        rows.add(row);
                    }
                }
            }
        } finally {
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
                KafkaBroker broker = KafkaBroker.builder().build().start();
                brokers.add(broker); // for the cleanup hook; the transport closes it after its row
                out.printf("kafka: KRaft broker %s started in %d ms%n", broker.bootstrapServers(),
                        broker.lastStartTime().toMillis());
                yield new KafkaTransport(broker);
            }
        };
    }

    /** Where a mode's run records how many jobs it queued (LLEN of the queue right after the pushes). */
    static String enqueued(String prefix) {
        return prefix + ":enqueued";
    }

    /** One mode's run. */
    private static final class Trial {
        private final ExperimentConfig config;
        private final Transport transport;
        private final Mode mode;
        private final String uri;
        private final String prefix;
        private final RedisCommands<String, String> redis;
        private final PrintStream out;
        private final List<Process> live = new ArrayList<>();
        private final java.util.Map<Process, String> workerIds = new java.util.HashMap<>();
        /** Job id held by a SIGKILLed worker, and when it was killed (ms since the epoch). */
        private final java.util.Map<String, Long> killedHolding = new java.util.LinkedHashMap<>();
        private final Random random = new Random(42);
        private final File log;
        private int seq;

        Trial(ExperimentConfig config, Transport transport, Mode mode, String uri, String prefix,
                RedisCommands<String, String> redis, PrintStream out) throws IOException {
            this.config = config;
            this.transport = transport;
            this.mode = mode;
            this.uri = uri;
            this.prefix = prefix;
            this.redis = redis;
            this.out = out;
            Path dir = Path.of(config.workDir());
            Files.createDirectories(dir);
            this.log = dir.resolve(transport.kind().arg() + "-" + mode.arg() + "-workers.log").toFile();
            Files.deleteIfExists(log.toPath());
        }

        Row run() throws Exception {
            List<String> ids = new ArrayList<>(config.jobs());
            for (int i = 1; i <= config.jobs(); i++) {
                ids.add(JobWork.id(i));
            }
            // the broker's own count of what was queued, before any worker runs (kept with the keys for inspection)
            redis.set(enqueued(prefix), Long.toString(transport.enqueue(prefix, ids)));
            out.printf("%s: %d jobs queued, starting %d workers (log: %s)%n", label(), ids.size(), config.workers(), log);
            long start = System.nanoTime();
            int terminated = 0;
            try {
                for (int i = 0; i < config.workers(); i++) {
                    spawn();
                }
                awaitReady(config.workers());
                out.printf("%s: %d workers ready after %.1f s%n", label(), config.workers(),
                        (System.nanoTime() - start) / 1e9);
                for (int k = 1; k <= config.events(); k++) {
                    long threshold = (long) config.jobs() * k / (config.events() + 1);
                    awaitResults(threshold);
                    terminated += scaleDown(k);
                    for (int i = 0; i < config.perEvent(); i++) {
                        spawn();
                    }
                }
                long lastChange = settle();
                long millis = TimeUnit.NANOSECONDS.toMillis(lastChange - start);
                stopAll();
                return reconcile(ids, terminated, millis);
            } finally {
                for (Process p : live) {
                    p.toHandle().destroyForcibly();
                }
                cleanUp();
            }
        }

        private String label() {
            return transport.kind().arg() + " " + mode.label(transport.kind());
        }

        private void spawn() throws IOException {
            String id = "w" + (++seq);
            List<String> cmd = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-Xmx64m", "-Xss256k", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-XX:-UsePerfData",
                    "-XX:CICompilerCount=1", "-Dorg.slf4j.simpleLogger.showDateTime=true",
                    "-cp", System.getProperty("java.class.path"), Worker.class.getName(),
                    transport.kind().arg(), transport.endpoint(), uri, mode.arg(), prefix, id,
                    Long.toString(config.grace().toMillis()),
                    Long.toString(config.safety().toMillis()), Integer.toString(config.slowOneIn()));
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(log)).start();
            live.add(p);
            SPAWNED.add(p);
            p.onExit().thenRun(() -> SPAWNED.remove(p));
            workerIds.put(p, id);
        }

        private void awaitReady(int n) throws InterruptedException {
            // only for the progress line: the scale-down events are triggered by the sink's progress
            long until = System.nanoTime() + TimeUnit.MINUTES.toNanos(15);
            while (System.nanoTime() < until) {
                String ready = redis.get(prefix + ":ready");
                if (ready != null && Long.parseLong(ready) >= n) {
                    return;
                }
                Thread.sleep(50);
            }
            out.printf("%s: warning: not all %d workers reported ready within 15 minutes (overloaded machine?); going on%n",
                    label(), n);
        }

        private void awaitResults(long threshold) throws InterruptedException {
            long until = System.nanoTime() + TimeUnit.MINUTES.toNanos(10);
            while (redis.hlen(Sink.results(prefix)) < threshold) {
                if (System.nanoTime() > until) {
                    throw new IllegalStateException(label() + ": the sink did not reach " + threshold
                            + " results within 10 minutes; see " + log);
                }
                Thread.sleep(20);
            }
        }

        /** SIGTERM (or SIGKILL in crash-safe mode) to perEvent random workers; SIGKILL after the grace period. */
        private int scaleDown(int event) throws InterruptedException {
            List<Process> alive = new ArrayList<>();
            for (Process p : live) {
                if (p.isAlive()) {
                    alive.add(p);
                }
            }
            Collections.shuffle(alive, random);
            List<Process> victims = alive.subList(0, Math.min(config.perEvent(), alive.size()));
            for (Process p : victims) {
                if (mode == Mode.CRASH_SAFE) {
                    String holding = redis.hget(prefix + ":inhand", workerIds.get(p));
                    long killedAt = System.currentTimeMillis();
                    p.toHandle().destroyForcibly();
                    if (holding != null) {
                        killedHolding.put(holding, killedAt);
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
            out.printf("%s: scale-down %d: %d workers %s, %d exited 0 within the grace period, %d SIGKILLed after it%n",
                    label(), event, victims.size(), mode == Mode.CRASH_SAFE ? "SIGKILLed" : "sent SIGTERM", clean, killed);
            int n = victims.size();
            live.removeAll(new ArrayList<>(victims));
            return n;
        }

        /**
         * Waits until nothing is queued or in flight and the sink has not changed for SETTLE, or, where
         * the transport counts held jobs as pending, until every id is in the sink and nothing is
         * pending (no job is left to run, again or at all); returns the last change.
         */
        private long settle() throws Exception {
            long lastCount = -1;
            long lastChange = System.nanoTime();
            long until = System.nanoTime() + TimeUnit.MINUTES.toNanos(10);
            while (System.nanoTime() < until) {
                long count = redis.hlen(Sink.results(prefix));
                long pending = transport.pending(prefix);
                long now = System.nanoTime();
                if (count != lastCount || pending > 0) {
                    if (count != lastCount) {
                        lastChange = now;
                    }
                    lastCount = count;
                } else if (now - lastChange > SETTLE.toNanos()
                        || (count >= config.jobs() && transport.pendingCountsHeld())) {
                    return lastChange;
                }
                Thread.sleep(50);
            }
            throw new IllegalStateException(label() + ": the queue did not drain within 10 minutes (pending "
                    + transport.pending(prefix) + "); see " + log);
        }

        private void stopAll() throws InterruptedException {
            for (Process p : live) {
                p.toHandle().destroy();
            }
            for (Process p : live) {
                if (!p.waitFor(10, TimeUnit.SECONDS)) {
                    p.toHandle().destroyForcibly();
                    p.waitFor(5, TimeUnit.SECONDS);
                }
            }
        }

        private Row reconcile(List<String> ids, int terminated, long millis) throws Exception {
            Set<String> written = new HashSet<>(redis.hkeys(Sink.results(prefix)));
            Set<String> dead = transport.dead(prefix);
            List<String> lost = new ArrayList<>();
            for (String id : ids) {
                if (!written.contains(id) && !dead.contains(id)) {
                    lost.add(id);
                }
            }
            int twice = 0;
            for (String runs : redis.hvals(Sink.runs(prefix))) {
                if (Long.parseLong(runs) > 1) {
                    twice++;
                }
            }
            List<Long> pickups = new ArrayList<>();
            killedHolding.forEach((id, killedAt) -> {
                // the first fetch of that job after the kill (an earlier kill may have moved it before)
                redis.lrange(prefix + ":refetched:" + id, 0, -1).stream().mapToLong(Long::parseLong)
                        .filter(at -> at >= killedAt).min().ifPresent(at -> pickups.add(at - killedAt));
            });
            return new Row(transport.kind(), mode, terminated, lost.size(), number(prefix + ":handedback"),
                    number(prefix + ":reaped"), number(prefix + ":redelivered"), twice, written.size(), dead.size(), millis,
                    List.copyOf(lost), prefix, List.copyOf(pickups));
        }

        private long number(String key) {
            String v = redis.get(key);
            return v == null ? 0 : Long.parseLong(v);
        }

        private void cleanUp() {
            if (config.keepKeys()) {
                return;
            }
            transport.cleanUp(prefix);
            List<String> keys = redis.keys(prefix + ":*");
            if (!keys.isEmpty()) {
                redis.del(keys.toArray(new String[0]));
            }
        }
    }
}
