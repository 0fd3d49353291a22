package dev.guard.examples.scaledown;

import dev.guard.drain.kubernetes.DeletionCost;
import dev.guard.testing.KubeApiServer;
import io.lettuce.core.api.sync.RedisCommands;
import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;

/**
 * One run of a worker fleet on one broker, reconciled by id: queue the ids, start the workers,
 * fire the events (a scale-down, a fault) each time the sink passes another share of the jobs,
 * wait until nothing is left to run, then count every id on its own from what the sink and the
 * dead-letter place hold. The scale-down experiment and the fault matrix are both made of these.
 */
final class Trial {

    /** What happens at the k-th share of the jobs (1-based); returns how many workers it terminated. */
    interface Event {
        int fire(Trial trial, int k) throws Exception;
    }

    /** Every worker process started, for the cleanup hook of the command that runs trials. */
    static final Set<Process> SPAWNED = ConcurrentHashMap.newKeySet();

    private final ExperimentConfig config;
    private final Transport transport;
    private final Mode mode;
    private final String sinkUri;
    private final String prefix;
    private final RedisCommands<String, String> redis;
    private final PrintStream out;
    private final Event event;
    private final String name;
    private final List<Process> live = new ArrayList<>();
    private final Map<Process, String> workerIds = new HashMap<>();
    /** Job id held by a SIGKILLed worker, and when it was killed (ms since the epoch). */
    private final Map<String, Long> killedHolding = new LinkedHashMap<>();
    private volatile Duration measuredOutage;
    /** For each fault: the jobs held when it began, and when it ended (ms since the epoch). */
    private final List<Map.Entry<Set<String>, Long>> faults = new ArrayList<>();
    private final Random random = new Random(42);
    private final File log;
    private UnaryOperator<List<String>> firstWorkerWrap = UnaryOperator.identity();
    private boolean replaceExited;
    private int restarts;
    private int seq;
    /** The stand-in API server the deletion-cost workers annotate their pods through; null in other modes. */
    private KubeApiServer pods;
    private Path serviceAccount;
    private int busyStopped;
    private volatile boolean fed;

    Trial(ExperimentConfig config, Transport transport, Mode mode, String sinkUri, String prefix,
            RedisCommands<String, String> redis, PrintStream out, String name, String logStem, Event event)
            throws IOException {
        this.config = config;
        this.transport = transport;
        this.mode = mode;
        this.sinkUri = sinkUri;
        this.prefix = prefix;
        this.redis = redis;
        this.out = out;
        this.name = name;
        this.event = event;
        Path dir = Path.of(config.workDir());
        Files.createDirectories(dir);
        this.log = dir.resolve(logStem + "-workers.log").toFile();
        Files.deleteIfExists(log.toPath());
    }

    /** Runs the first worker ({@code w1}) through {@code wrap} (inside a network namespace, say). */
    Trial wrapFirstWorker(UnaryOperator<List<String>> wrap) {
        this.firstWorkerWrap = wrap;
        return this;
    }

    /**
     * Gives each worker a pod on {@code api}, through which a {@link Mode#DELETION_COST} worker keeps
     * its deletion cost, with a service account allowed to patch it.
     */
    Trial pods(KubeApiServer api) throws IOException {
        this.pods = api;
        this.serviceAccount = api.serviceAccount(NAMESPACE, "worker", true);
        return this;
    }

    /** The namespace of the workers' pods on the stand-in API server. */
    static final String NAMESPACE = "scaledown";

    /** A worker's pod deletion cost as the ReplicaSet controller would read it (0 without pods). */
    int deletionCost(Process worker) {
        return pods == null ? 0 : pods.deletionCost(NAMESPACE, workerIds.get(worker));
    }

    /** The scale-down is about to stop {@code victims}: counts those holding a job now. */
    void stopping(List<Process> victims) {
        for (Process p : victims) {
            if (holding(workerId(p)) != null) {
                busyStopped++;
            }
        }
    }

    /** Starts a new worker for each one that exits by itself, as a Deployment does; counted as restarts. */
    Trial replaceExited(boolean replace) {
        this.replaceExited = replace;
        return this;
    }

    Row run() throws Exception {
        List<String> ids = new ArrayList<>(config.jobs());
        for (int i = 1; i <= config.jobs(); i++) {
            ids.add(JobWork.id(i));
        }
        Thread feeder = null;
        if (config.load() > 0) {
            feeder = feed(ids);
            out.printf("%s: %d jobs fed %d at a time, starting %d workers (log: %s)%n", name, ids.size(), config.inFlight(),
                    config.workers(), log);
        } else {
            // the broker's own count of what was queued, before any worker runs (kept with the keys for inspection)
            redis.set(Experiment.enqueued(prefix), Long.toString(transport.enqueue(prefix, ids)));
            fed = true;
            out.printf("%s: %d jobs queued, starting %d workers (log: %s)%n", name, ids.size(), config.workers(), log);
        }
        long start = System.nanoTime();
        int terminated = 0;
        try {
            for (int i = 0; i < config.workers(); i++) {
                spawn();
            }
            awaitReady(config.workers());
            out.printf("%s: %d workers ready after %.1f s%n", name, config.workers(), (System.nanoTime() - start) / 1e9);
            for (int k = 1; k <= config.events(); k++) {
                long threshold = (long) config.jobs() * k / (config.events() + 1);
                awaitResults(threshold);
                if (config.load() > 0) {
                    // under a fed load the next job is queued, and taken by an idle worker, the moment the
                    // threshold's job ends: a scale-down there would meet that worker in its first
                    // milliseconds every time. An autoscaler's decision has nothing to do with one job's end
                    Thread.sleep(200 + random.nextInt(800));
                }
                terminated += event.fire(this, k);
            }
            long lastChange = settle();
            long millis = TimeUnit.NANOSECONDS.toMillis(lastChange - start);
            stopAll();
            return reconcile(ids, terminated, millis);
        } finally {
            if (feeder != null) {
                feeder.interrupt();
            }
            for (Process p : live) {
                p.toHandle().destroyForcibly();
            }
            cleanUp();
        }
    }

    /**
     * Queues the jobs as they are taken: at most {@link ExperimentConfig#inFlight()} of them queued
     * or held at a time (pushed, not yet in the sink nor dead), so that the rest of the fleet is idle.
     */
    private Thread feed(List<String> ids) {
        Thread t = new Thread(() -> {
            try {
                int pushed = 0;
                while (pushed < ids.size()) {
                    // the trial's own connection: lettuce's sync commands may be shared between threads
                    long done = redis.hlen(Sink.results(prefix)) + transport.dead(prefix).size();
                    int room = (int) Math.min(ids.size() - pushed, config.inFlight() - (pushed - done));
                    if (room > 0) {
                        transport.enqueue(prefix, ids.subList(pushed, pushed + room));
                        pushed += room;
                    } else {
                        Thread.sleep(5);
                    }
                }
                redis.set(Experiment.enqueued(prefix), Integer.toString(pushed));
                fed = true;
            } catch (InterruptedException e) {
                // the trial ended
            } catch (Exception e) {
                out.printf("%s: feeding the jobs failed: %s; the run will not settle%n", name, e);
            }
        }, "scaledown-feeder");
        t.setDaemon(true);
        t.start();
        return t;
    }

    // ---- for the events

    ExperimentConfig config() {
        return config;
    }

    Mode mode() {
        return mode;
    }

    Transport transport() {
        return transport;
    }

    String name() {
        return name;
    }

    /** The key prefix of this trial's jobs (the queue, stream or topic is named after it). */
    String prefix() {
        return prefix;
    }

    PrintStream out() {
        return out;
    }

    Random random() {
        return random;
    }

    /** The live workers, in start order. */
    List<Process> alive() {
        List<Process> alive = new ArrayList<>();
        for (Process p : live) {
            if (p.isAlive()) {
                alive.add(p);
            }
        }
        return alive;
    }

    String workerId(Process p) {
        return workerIds.get(p);
    }

    /** The job {@code workerId} holds now, or null. */
    String holding(String workerId) {
        return redis.hget(prefix + ":inhand", workerId);
    }

    /** Every job some worker holds now. */
    Set<String> held() {
        return new HashSet<>(redis.hvals(prefix + ":inhand"));
    }

    /** A job held by a SIGKILLed worker, for the death-to-pick-up figures. */
    /** A fault whose length is measured, not set (a failover): how long it lasted. */
    void outage(Duration measured) {
        this.measuredOutage = measured;
    }

    /** What {@link #outage(Duration)} recorded; null when the fault's length was set. */
    Duration measuredOutage() {
        return measuredOutage;
    }

    void killedHolding(String jobId, long killedAtMillis) {
        killedHolding.put(jobId, killedAtMillis);
    }

    /** A fault that began while {@code held} were in hand and ended at {@code endMillis}: the settle time's start. */
    void fault(Collection<String> held, long endMillis) {
        faults.add(Map.entry(Set.copyOf(held), endMillis));
    }

    /** Takes workers out of the fleet: they are not replaced when they exit (the scale-down's victims). */
    void retire(Collection<Process> workers) {
        live.removeAll(new ArrayList<>(workers));
        if (pods != null) {
            workers.forEach(p -> pods.deletePod(NAMESPACE, workerIds.get(p)));
        }
    }

    void spawn() throws IOException {
        String id = "w" + (++seq);
        List<String> cmd = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx64m", "-Xss256k", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-XX:-UsePerfData",
                "-XX:CICompilerCount=1", "-Dorg.slf4j.simpleLogger.showDateTime=true",
                "-cp", System.getProperty("java.class.path"), Worker.class.getName(),
                transport.kind().arg(), transport.endpoint(), sinkUri, mode.arg(), prefix, id,
                Long.toString(config.grace().toMillis()),
                Long.toString(config.safety().toMillis()), Integer.toString(config.slowOneIn()),
                config.completions() ? "records" : "none");
        ProcessBuilder pb = new ProcessBuilder(cmd);
        if (mode == Mode.DELETION_COST) {
            // the pod's environment: the API server (kubelet), POD_NAME (downward API), guard's switch
            pods.pod(NAMESPACE, id);
            pb.environment().putAll(pods.env(id));
            pb.environment().put(DeletionCost.ENV, "on");
            pb.environment().put(DeletionCost.ENV_AFTER, config.costAfter().toMillis() + "ms");
            pb.environment().put(Worker.ENV_SERVICE_ACCOUNT, serviceAccount.toString());
        }
        if (seq == 1) {
            pb.command(firstWorkerWrap.apply(cmd));
        }
        Process p = pb.redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(log)).start();
        live.add(p);
        SPAWNED.add(p);
        p.onExit().thenRun(() -> SPAWNED.remove(p));
        workerIds.put(p, id);
    }

    /** Waits (bounded) until the sink holds {@code threshold} results. */
    void awaitResults(long threshold) throws InterruptedException, IOException {
        long until = System.nanoTime() + TimeUnit.MINUTES.toNanos(10);
        while (redis.hlen(Sink.results(prefix)) < threshold) {
            if (System.nanoTime() > until) {
                throw new IllegalStateException(name + ": the sink did not reach " + threshold
                        + " results within 10 minutes; see " + log);
            }
            replaceExitedWorkers();
            Thread.sleep(20);
        }
    }

    // ---- the run

    private void replaceExitedWorkers() throws IOException {
        if (!replaceExited) {
            return;
        }
        for (Process p : List.copyOf(live)) {
            if (!p.isAlive()) {
                live.remove(p);
                restarts++;
                out.printf("%s: worker %s exited with code %d; a new one replaces it (as a Deployment would)%n", name,
                        workerIds.get(p), p.exitValue());
                spawn();
            }
        }
    }

    private void awaitReady(int n) throws InterruptedException {
        // only for the progress line: the events are triggered by the sink's progress
        long until = System.nanoTime() + TimeUnit.MINUTES.toNanos(15);
        while (System.nanoTime() < until) {
            String ready = redis.get(prefix + ":ready");
            if (ready != null && Long.parseLong(ready) >= n) {
                return;
            }
            Thread.sleep(50);
        }
        out.printf("%s: warning: not all %d workers reported ready within 15 minutes (overloaded machine?); going on%n",
                name, n);
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
        String lastError = null;
        while (System.nanoTime() < until) {
            replaceExitedWorkers();
            long count = redis.hlen(Sink.results(prefix));
            long pending;
            try {
                pending = transport.pending(prefix);
                lastError = null;
            } catch (Exception e) {
                // the broker may still be coming back from a fault: not settled while it cannot say
                pending = 1;
                lastError = e.toString();
            }
            long now = System.nanoTime();
            if (count != lastCount || pending > 0) {
                if (count != lastCount) {
                    lastChange = now;
                }
                lastCount = count;
            } else if (fed && (now - lastChange > Experiment.SETTLE.toNanos()
                    || (count >= config.jobs() && transport.pendingCountsHeld()))) {
                return lastChange;
            }
            Thread.sleep(50);
        }
        throw new IllegalStateException(name + ": the queue did not drain within 10 minutes (pending "
                + (lastError != null ? "unknown: " + lastError : transport.pending(prefix)) + "); see " + log);
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
        Map<String, String> at = redis.hgetall(Sink.at(prefix));
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
        int ranAgain = 0;
        for (String runs : redis.hvals(Sink.executions(prefix))) {
            if (Long.parseLong(runs) > 1) {
                ranAgain++;
            }
        }
        List<Long> pickups = new ArrayList<>();
        killedHolding.forEach((id, killedAt) -> {
            // the first fetch of that job after the kill (an earlier kill may have moved it before)
            redis.lrange(prefix + ":refetched:" + id, 0, -1).stream().mapToLong(Long::parseLong)
                    .filter(t -> t >= killedAt).min().ifPresent(t -> pickups.add(t - killedAt));
        });
        return new Row(transport.kind(), mode, terminated, lost.size(), number(prefix + ":handedback"),
                number(prefix + ":reaped"), number(prefix + ":redelivered"), twice, written.size(), dead.size(), millis,
                List.copyOf(lost), prefix, List.copyOf(pickups), restarts, settleMillis(faults, at, dead),
                resumeMillis(faults, at, ids.size(), dead), ranAgain, busyStopped);
    }

    /**
     * From the end of each fault until every job held when it began had its outcome (the first write
     * to the sink; a dead letter counts at the fault's end), the longest over the faults; 0 when every
     * such job had it before the fault ended; -1 when one never had it; {@link Row#NO_FAULT} without faults.
     */
    private static long settleMillis(List<Map.Entry<Set<String>, Long>> faults, Map<String, String> at, Set<String> dead) {
        long settle = faults.isEmpty() ? Row.NO_FAULT : 0;
        for (Map.Entry<Set<String>, Long> f : faults) {
            for (String id : f.getKey()) {
                String done = at.get(id);
                if (done == null && !dead.contains(id)) {
                    return -1;
                }
                settle = Math.max(settle, (done == null ? f.getValue() : Long.parseLong(done)) - f.getValue());
            }
        }
        return settle;
    }

    /**
     * From the end of each fault until the fleet's next outcome (the first job written to the sink
     * after it), the longest over the faults: how long the fleet stood still; {@link Row#NO_FAULT}
     * without faults, {@link Row#NOTHING_LEFT} when every job had its outcome before a fault ended, -1
     * when jobs were left and nothing was written after it.
     */
    private static long resumeMillis(List<Map.Entry<Set<String>, Long>> faults, Map<String, String> at, int jobs,
            Set<String> dead) {
        long resume = faults.isEmpty() ? Row.NO_FAULT : 0;
        for (Map.Entry<Set<String>, Long> f : faults) {
            long end = f.getValue();
            long next = at.values().stream().mapToLong(Long::parseLong).filter(t -> t >= end).min().orElse(-1);
            if (next < 0) {
                return at.size() + dead.size() >= jobs ? Row.NOTHING_LEFT : -1;
            }
            resume = Math.max(resume, next - end);
        }
        return resume;
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
