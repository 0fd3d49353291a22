package dev.guard.examples.scaledown;

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

    /** Runs every configured mode in turn; progress goes to {@code out}. */
    public static List<Row> run(ExperimentConfig config, PrintStream out) throws Exception {
        LocalRedis local = config.redisUri() == null ? LocalRedis.start(config.redisServer()) : null;
        String uri = local == null ? config.redisUri() : local.uri();
        // Ctrl-C or SIGTERM of the experiment: leave no worker or redis-server behind
        Thread cleanup = new Thread(() -> {
            SPAWNED.forEach(p -> p.toHandle().destroyForcibly());
            if (local != null) {
                local.kill();
            }
        }, "scaledown-cleanup");
        Runtime.getRuntime().addShutdownHook(cleanup);
        RedisClient client = RedisClient.create(uri);
        List<Row> rows = new ArrayList<>();
        try (StatefulRedisConnection<String, String> c = client.connect()) {
            String runId = Long.toString(System.currentTimeMillis(), 36);
            for (Mode mode : config.modes()) {
                Row row = new Trial(config, mode, uri, "scaledown:" + runId + ":" + mode.arg(), c.sync(), out).run();
                out.println(row.line());
                rows.add(row);
            }
        } finally {
            client.shutdown(Duration.ZERO, Duration.ofSeconds(1));
            if (local != null) {
                local.close();
            }
            Runtime.getRuntime().removeShutdownHook(cleanup);
        }
        return rows;
    }

    /** Where a mode's run records how many jobs it queued (LLEN of the queue right after the pushes). */
    static String enqueued(String prefix) {
        return prefix + ":enqueued";
    }

    /** One mode's run. */
    private static final class Trial {
        private final ExperimentConfig config;
        private final Mode mode;
        private final String uri;
        private final String prefix;
        private final RedisCommands<String, String> redis;
        private final PrintStream out;
        private final List<Process> live = new ArrayList<>();
        private final List<String> workerIds = new ArrayList<>();
        private final Random random = new Random(42);
        private final File log;
        private int seq;

        Trial(ExperimentConfig config, Mode mode, String uri, String prefix, RedisCommands<String, String> redis,
                PrintStream out) throws IOException {
            this.config = config;
            this.mode = mode;
            this.uri = uri;
            this.prefix = prefix;
            this.redis = redis;
            this.out = out;
            Path dir = Path.of(config.workDir());
            Files.createDirectories(dir);
            this.log = dir.resolve(mode.arg() + "-workers.log").toFile();
            Files.deleteIfExists(log.toPath());
        }

        Row run() throws Exception {
            String queue = Worker.queue(prefix);
            List<String> ids = new ArrayList<>(config.jobs());
            for (int i = 1; i <= config.jobs(); i++) {
                ids.add(Jobs.id(i));
            }
            for (int from = 0; from < ids.size(); from += 1000) {
                List<String> batch = ids.subList(from, Math.min(ids.size(), from + 1000));
                redis.lpush(queue, batch.toArray(new String[0]));
            }
            // Redis's own count of what was queued, before any worker runs (kept with the keys for inspection)
            redis.set(enqueued(prefix), Long.toString(redis.llen(queue)));
            out.printf("%s: %d jobs queued, starting %d workers (log: %s)%n", mode.label(), ids.size(), config.workers(), log);
            long start = System.nanoTime();
            int terminated = 0;
            try {
                for (int i = 0; i < config.workers(); i++) {
                    spawn();
                }
                awaitReady(config.workers());
                out.printf("%s: %d workers ready after %.1f s%n", mode.label(), config.workers(),
                        (System.nanoTime() - start) / 1e9);
                for (int k = 1; k <= config.events(); k++) {
                    long threshold = (long) config.jobs() * k / (config.events() + 1);
                    awaitResults(threshold);
                    terminated += scaleDown(k);
                    for (int i = 0; i < config.perEvent(); i++) {
                        spawn();
                    }
                }
                long lastChange = settle(queue);
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

        private void spawn() throws IOException {
            String id = "w" + (++seq);
            List<String> cmd = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-Xmx64m", "-Xss256k", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-XX:-UsePerfData",
                    "-XX:CICompilerCount=1", "-Dorg.slf4j.simpleLogger.showDateTime=true",
                    "-cp", System.getProperty("java.class.path"), Worker.class.getName(),
                    mode.arg(), uri, prefix, id, Long.toString(config.grace().toMillis()),
                    Long.toString(config.safety().toMillis()), Integer.toString(config.slowOneIn()));
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(log)).start();
            live.add(p);
            SPAWNED.add(p);
            p.onExit().thenRun(() -> SPAWNED.remove(p));
            workerIds.add(id);
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
                    mode.label(), n);
        }

        private void awaitResults(long threshold) throws InterruptedException {
            long until = System.nanoTime() + TimeUnit.MINUTES.toNanos(10);
            while (redis.hlen(Sink.results(prefix)) < threshold) {
                if (System.nanoTime() > until) {
                    throw new IllegalStateException(mode.label() + ": the sink did not reach " + threshold
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
                    p.toHandle().destroyForcibly();
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
                    mode.label(), event, victims.size(), mode == Mode.CRASH_SAFE ? "SIGKILLed" : "sent SIGTERM", clean, killed);
            int n = victims.size();
            live.removeAll(new ArrayList<>(victims));
            return n;
        }

        /** Waits until nothing is queued or in flight and the sink has not changed for SETTLE; returns the last change. */
        private long settle(String queue) throws InterruptedException {
            long lastCount = -1;
            long lastChange = System.nanoTime();
            long until = System.nanoTime() + TimeUnit.MINUTES.toNanos(10);
            while (System.nanoTime() < until) {
                long count = redis.hlen(Sink.results(prefix));
                long pending = redis.llen(queue) + redis.llen(queue + ":fallback");
                if (mode == Mode.CRASH_SAFE) {
                    for (String id : workerIds) {
                        pending += redis.llen(queue + ":processing:" + id);
                    }
                }
                long now = System.nanoTime();
                if (count != lastCount || pending > 0) {
                    if (count != lastCount) {
                        lastChange = now;
                    }
                    lastCount = count;
                } else if (now - lastChange > SETTLE.toNanos()) {
                    return lastChange;
                }
                Thread.sleep(50);
            }
            throw new IllegalStateException(mode.label() + ": the queue did not drain within 10 minutes; see " + log);
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

        private Row reconcile(List<String> ids, int terminated, long millis) {
            Set<String> written = new HashSet<>(redis.hkeys(Sink.results(prefix)));
            Set<String> dead = new HashSet<>(redis.lrange(Worker.queue(prefix) + ":dead", 0, -1));
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
            return new Row(mode, terminated, lost.size(), number(prefix + ":handedback"), number(prefix + ":reaped"), twice,
                    written.size(), dead.size(), millis, List.copyOf(lost), prefix);
        }

        private long number(String key) {
            String v = redis.get(key);
            return v == null ? 0 : Long.parseLong(v);
        }

        private void cleanUp() {
            if (config.keepKeys()) {
                return;
            }
            List<String> keys = redis.keys(prefix + ":*");
            if (!keys.isEmpty()) {
                redis.del(keys.toArray(new String[0]));
            }
        }
    }
}
