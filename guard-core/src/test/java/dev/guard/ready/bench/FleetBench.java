package dev.guard.ready.bench;

import dev.guard.ready.Probe;
import dev.guard.ready.ProbeResult;
import dev.guard.ready.Probes;
import dev.guard.ready.ReadinessGate;
import dev.guard.ready.ReadinessReport;
import dev.guard.testing.FreePorts;
import dev.guard.testing.RedisServer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A fleet in its gates: what hundreds of workers waiting at once (an HPA scale-up, a Redis
 * restart under a running deployment) do to the Redis they wait for, and how soon each notices it
 * is ready. One JVM runs {@code --gates} waiters, each with its own probe and connection (lettuce's
 * event loops shared, as in one process; pods would each have their own).
 *
 * <p>The load ({@code --load}): {@code cpu} (default) as Redis loads a real file, as fast as its core
 * allows, answering clients every 2 MB (its default), 4 million keys; {@code delay} as the tests load,
 * a sleep of 20 us per key and answers every 1 KB, 40,000 keys (how long that takes depends on how
 * late the server wakes from its sleeps, so on whatever else the machine does).
 *
 * <p>Per round, on one private Redis that loads {@code --keys} keys: the load with the fleet of
 * guard gates started while the server was down (refused, then LOADING); the same with a fleet of
 * fixed 1-second pollers (PING, random phase); before, between and after them, the load with nobody
 * waiting, each fleet compared with the mean of the two beside it. Load time is Redis's own
 * {@code DB loaded from disk: N seconds}, with the server's CPU ({@code INFO cpu}) and the commands
 * it answered ({@code INFO commandstats}) beside it; a waiter's lag is the instant it returned minus
 * the instant of that log line. Then both fleets against a closed port for {@code --closed-seconds}:
 * connection attempts per second. For the gates it also prints where their lag goes: when the
 * attempt that found the server ready started and when its reply came (on one client core the
 * fleet's own attempts queue behind each other around the end), the share of a core the fleet's JVM
 * used around the end, and when one more gate, in a JVM of its own (a pod whose CPU nobody shares),
 * returned beside the fleet. {@code --warmup} rounds (1) run the guard fleet first without counting
 * it: one JVM compiles the LOADING path once for 500 gates, where each pod would compile it on its
 * own CPU. With {@code --redis-cpu N} the server runs under {@code taskset -c N}: run the JVM on the
 * other core ({@code taskset -c 1 java ...}) so the fleet's own CPU does not slow the load it
 * measures.
 *
 * <pre>
 * taskset -c 1 java -cp guard-core/target/test-classes:guard-core/target/classes:$(cat guard-core/target/bench.cp) \
 *     dev.guard.ready.bench.FleetBench [--gates 500] [--load cpu|delay] [--keys N] [--rounds 2] [--warmup 1] \
 *     [--redis-cpu 0] [--closed-seconds 5]
 * </pre>
 */
public final class FleetBench {

    private static final Pattern LOADED = Pattern.compile("DB loaded from disk: ([0-9.]+) seconds");

    private FleetBench() {}

    public static void main(String[] args) throws Exception {
        int gates = 500;
        Integer keys = null;
        String load = "cpu";
        int rounds = 2;
        String redisCpu = null;
        int closedSeconds = 5;
        int warmup = 1;
        for (int i = 0; i + 1 < args.length; i += 2) {
            switch (args[i]) {
                case "--gates" -> gates = Integer.parseInt(args[i + 1]);
                case "--keys" -> keys = Integer.parseInt(args[i + 1]);
                case "--load" -> load = args[i + 1];
                case "--rounds" -> rounds = Integer.parseInt(args[i + 1]);
                case "--redis-cpu" -> redisCpu = args[i + 1];
                case "--closed-seconds" -> closedSeconds = Integer.parseInt(args[i + 1]);
                case "--warmup" -> warmup = Integer.parseInt(args[i + 1]);
                default -> throw new IllegalArgumentException("unknown option " + args[i]
                        + "; options: --gates --keys --load --rounds --warmup --redis-cpu --closed-seconds");
            }
        }
        RedisServer.Builder b = RedisServer.builder().local();
        switch (load) {
            // as Redis loads a real file: as fast as its core allows, answering clients every 2 MB of it
            case "cpu" -> {
                keys = keys == null ? 4_000_000 : keys;
                b.keyLoadDelayMicros(0).args("--loading-process-events-interval-bytes", "2097152");
            }
            // slowed by a sleep per key (--key-load-delay) and answering every 1 KB, as the tests load
            case "delay" -> keys = keys == null ? 40_000 : keys;
            default -> throw new IllegalArgumentException("--load is cpu or delay, not " + load);
        }
        b.preloadKeys(keys);
        System.out.printf(Locale.ROOT, "# fleet: %d waiters, Redis loading %d keys (%s load), %d round(s); %d CPUs, load %s%s%n",
                gates, keys, load, rounds, Runtime.getRuntime().availableProcessors(),
                DetectionLagBench.loadAverage(), redisCpu == null ? "" : ", redis-server on CPU " + redisCpu);
        if (redisCpu != null) {
            b.launcher("taskset", "-c", redisCpu);
        }
        try (RedisServer redis = b.build().startLoading()) {
            redis.awaitLoaded(Duration.ofSeconds(120));
            List<Probe> probes = new ArrayList<>();
            for (int i = 0; i < gates; i++) {
                probes.add(Probes.redis(redis.uri()));
            }
            warm(probes); // connections open and classes loaded, as in workers that have started
            for (int round = 1; round <= warmup; round++) {
                // JIT: one JVM compiles the LOADING path once for all its gates, and its C2 thread took half
                // of the fleet's core in a first round (async-profiler); pods compile each for themselves
                Fleet w = fleet(redis, probes, true, false, null);
                System.out.printf(Locale.ROOT, "warm-up round %d (not counted): median lag %d ms%n", round,
                        DetectionLagBench.pct(w.lagMs(), 50));
            }
            List<double[]> gateExtra = new ArrayList<>();
            List<double[]> pollExtra = new ArrayList<>();
            for (int round = 1; round <= rounds; round++) {
                // each fleet's load beside the mean of the loads with nobody waiting just before and just after
                // it: the same load took up to 32 % longer than the one before it on this machine
                Load before = aloneLoad(redis);
                Fleet guard = fleet(redis, probes, true, true, redisCpu);
                Load between = aloneLoad(redis);
                Fleet poll = fleet(redis, probes, false, false, null);
                Load after = aloneLoad(redis);
                System.out.printf(Locale.ROOT, "round %d: load with nobody waiting %.3f, %.3f, %.3f s, server CPU %.3f, %.3f,"
                        + " %.3f s (before, between, after the fleets)%n", round, before.seconds(), between.seconds(),
                        after.seconds(), before.cpuSeconds(), between.cpuSeconds(), after.cpuSeconds());
                gateExtra.add(guard.print("guard gates", before.mean(between)));
                pollExtra.add(poll.print("1-s pollers", between.mean(after)));
            }
            System.out.printf(Locale.ROOT, "against nobody waiting, median of %d rounds: guard gates load time %+.1f%%, server"
                            + " CPU %+.1f%%; 1-s pollers load time %+.1f%%, server CPU %+.1f%%%n", rounds, median(gateExtra, 0),
                    median(gateExtra, 1), median(pollExtra, 0), median(pollExtra, 1));
            for (Probe p : probes) {
                p.close();
            }
        }
        closedPort(gates, closedSeconds);
    }

    /** What one fleet did to one load. */
    record Fleet(int waiters, Load load, List<Long> lagMs, long attempts, double loadingSeconds) {
        /** Prints this fleet's line; returns its load's extra wall and server CPU time against {@code alone}, in per cent. */
        double[] print(String name, Load alone) {
            List<Long> s = new ArrayList<>(lagMs);
            Collections.sort(s);
            double[] extra = {100 * (load.seconds() / alone.seconds() - 1), 100 * (load.cpuSeconds() / alone.cpuSeconds() - 1)};
            System.out.printf(Locale.ROOT, "  %d %-12s load %.3f s, server CPU %.3f s (%+.1f%%, %+.1f%% against nobody"
                            + " waiting); ready after the load's end: median %d ms, p99 %d ms, max %d ms; %d attempts,"
                            + " %.0f per second of the wait; the server answered %s%n",
                    waiters, name + ":", load.seconds(), load.cpuSeconds(), extra[0], extra[1], DetectionLagBench.pct(s, 50),
                    DetectionLagBench.pct(s, 99), s.get(s.size() - 1), attempts, attempts / loadingSeconds, load.commands());
            return extra;
        }
    }

    /**
     * One load: Redis's own figure for its length, and the CPU time the server had used when it was over
     * (INFO cpu, its process started for this load): with a load bound by the CPU, what a fleet costs it.
     */
    record Load(double seconds, double cpuSeconds, String commands) {
        Load mean(Load other) {
            return new Load((seconds + other.seconds) / 2, (cpuSeconds + other.cpuSeconds) / 2, "");
        }

        static Load of(RedisServer redis) throws Exception {
            double cpu = 0;
            for (String line : redis.command("INFO", "cpu").split("\r?\n")) {
                if (line.startsWith("used_cpu_sys:") || line.startsWith("used_cpu_user:")) {
                    cpu += Double.parseDouble(line.substring(line.indexOf(':') + 1).trim());
                }
            }
            // its own count of the commands since it started, and of its time in those it ran (INFO runs while
            // loading; a PING is refused with -LOADING, which commandstats counts but does not time)
            String stats = redis.command("INFO", "commandstats");
            long refused = RedisServer.commandStat(stats, "ping", "rejected_calls");
            String commands = String.format(Locale.ROOT, "%d INFO (%.0f ms in them, by its commandstats), %d PING (%d refused)",
                    RedisServer.commandStat(stats, "info", "calls"), RedisServer.commandStat(stats, "info", "usec") / 1e3,
                    RedisServer.commandStat(stats, "ping", "calls") + refused, refused);
            return new Load(loadSeconds(redis), cpu, commands);
        }
    }

    private static double median(List<double[]> values, int index) {
        List<Double> s = new ArrayList<>();
        for (double[] v : values) {
            s.add(v[index]);
        }
        Collections.sort(s);
        return s.get(s.size() / 2);
    }

    private static void warm(List<Probe> probes) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(16);
        List<Future<ProbeResult>> fs = new ArrayList<>();
        for (Probe p : probes) {
            fs.add(pool.submit(() -> p.check(Duration.ofSeconds(30))));
        }
        for (Future<ProbeResult> f : fs) {
            ProbeResult r = f.get();
            if (!r.ready()) {
                throw new IllegalStateException("warm-up: " + r.summary());
            }
        }
        pool.shutdown();
    }

    /** Restarts the server with nobody waiting; Redis's own figure for the load. */
    private static Load aloneLoad(RedisServer redis) throws Exception {
        redis.restart();
        redis.awaitLoaded(Duration.ofSeconds(120));
        return Load.of(redis);
    }

    /** Stops the server, starts every waiter, starts the load, waits for all of them to return. */
    private static Fleet fleet(RedisServer redis, List<Probe> probes, boolean guard, boolean withSolo, String soloCpu)
            throws Exception {
        redis.stop();
        Solo solo = withSolo ? Solo.start(redis.uri(), soloCpu) : null;
        CpuSampler cpu = new CpuSampler();
        AtomicLong attempts = new AtomicLong();
        CountDownLatch go = new CountDownLatch(1);
        ExecutorService pool = Executors.newFixedThreadPool(probes.size());
        List<Future<Instant>> fs = new ArrayList<>();
        Random random = new Random();
        List<List<long[]>> traces = new java.util.concurrent.CopyOnWriteArrayList<>();
        for (Probe p : probes) {
            int phase = random.nextInt(1000);
            List<long[]> trace = new java.util.concurrent.CopyOnWriteArrayList<>();
            traces.add(trace);
            fs.add(pool.submit(() -> {
                go.await();
                Probe counted = counting(p, attempts, trace);
                if (guard) {
                    try (ReadinessGate g = ReadinessGate.builder().probe(counted).deadline(Duration.ofSeconds(300))
                            .attemptTimeout(Duration.ofSeconds(5)).build()) {
                        ReadinessReport r = g.await();
                        if (!r.ready()) {
                            throw new IllegalStateException(r.render());
                        }
                    }
                } else {
                    Thread.sleep(phase);
                    while (!counted.check(Duration.ofSeconds(5)).ready()) {
                        Thread.sleep(1000);
                    }
                }
                return Instant.now();
            }));
        }
        long t0 = System.nanoTime();
        go.countDown();
        redis.startLoading();
        List<Instant> returned = new ArrayList<>();
        for (Future<Instant> f : fs) {
            returned.add(f.get());
        }
        double waited = (System.nanoTime() - t0) / 1e9;
        pool.shutdown();
        cpu.stop();
        Instant loaded = redis.awaitLoaded(Duration.ofSeconds(120));
        Long soloLag = solo == null ? null : Duration.between(loaded, solo.awaitReady()).toMillis();
        List<Long> lag = new ArrayList<>();
        for (Instant r : returned) {
            lag.add(Duration.between(loaded, r).toMillis());
        }
        if (guard) {
            long endMs = loaded.toEpochMilli();
            List<Long> readyStart = new ArrayList<>();
            List<Long> readyDone = new ArrayList<>();
            List<Long> lastLoadingStart = new ArrayList<>();
            List<Long> loadingDuration = new ArrayList<>();
            for (List<long[]> t : traces) {
                for (long[] a : t) {
                    if (a[2] == 1) {
                        readyStart.add(a[0] - endMs);
                        readyDone.add(a[1] - endMs);
                        break;
                    }
                    lastLoadingStart.add(a[0] - endMs);
                    if (a[0] > endMs - 500) {
                        loadingDuration.add(a[1] - a[0]);
                    }
                }
            }
            Collections.sort(readyStart);
            Collections.sort(readyDone);
            Collections.sort(loadingDuration);
            long lastReply = readyDone.get(readyDone.size() - 1);
            System.out.printf(Locale.ROOT, "  where a gate's lag goes: its READY attempt started after the end median %d ms, p99 %d;"
                    + " its reply came median %d ms, p99 %d; attempts in the last 500 ms took median %d ms, p99 %d;"
                    + " the fleet's JVM used %.0f%% of a core from 100 ms before the end to the last reply, %.0f%% over"
                    + " the whole wait; one gate in a process of its own beside the fleet: ready %s ms after the end%n",
                    DetectionLagBench.pct(readyStart, 50), DetectionLagBench.pct(readyStart, 99),
                    DetectionLagBench.pct(readyDone, 50), DetectionLagBench.pct(readyDone, 99),
                    DetectionLagBench.pct(loadingDuration, 50), DetectionLagBench.pct(loadingDuration, 99),
                    100 * cpu.busy(endMs - 100, endMs + Math.max(lastReply, 10)), 100 * cpu.busy(Long.MIN_VALUE, Long.MAX_VALUE),
                    soloLag);
        }
        return new Fleet(probes.size(), Load.of(redis), lag, attempts.get(), waited);
    }

    /** Every waiter against a port nothing listens on, for {@code seconds}: connection attempts per second. */
    private static void closedPort(int waiters, int seconds) throws Exception {
        int port = FreePorts.next(); // held by this JVM, never listening: connects are refused
        for (boolean guard : new boolean[] {true, false}) {
            AtomicLong attempts = new AtomicLong();
            ExecutorService pool = Executors.newFixedThreadPool(waiters);
            List<Future<?>> fs = new ArrayList<>();
            long until = System.nanoTime() + Duration.ofSeconds(seconds).toNanos();
            Random random = new Random();
            List<Probe> probes = new ArrayList<>();
            for (int i = 0; i < waiters; i++) {
                Probe real = Probes.redis("redis://127.0.0.1:" + port);
                probes.add(real);
                Probe p = counting(real, attempts, null);
                int phase = random.nextInt(1000);
                fs.add(pool.submit(() -> {
                    if (guard) {
                        try (ReadinessGate g = ReadinessGate.builder().probe(p).deadline(Duration.ofSeconds(seconds))
                                .build()) {
                            g.await();
                        }
                    } else {
                        Thread.sleep(phase);
                        while (System.nanoTime() < until) {
                            p.check(Duration.ofSeconds(2));
                            Thread.sleep(1000);
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> f : fs) {
                f.get();
            }
            pool.shutdown();
            for (Probe p : probes) {
                p.close();
            }
            System.out.printf(Locale.ROOT, "closed port, %d %s for %d s: %.0f connection attempts per second (%.1f per"
                    + " waiter; the gate allows at most %d per waiter in any second)%n", waiters,
                    guard ? "guard gates" : "1-s pollers", seconds, attempts.get() / (double) seconds,
                    attempts.get() / (double) seconds / waiters, ReadinessGate.MAX_ATTEMPTS_PER_SECOND);
        }
    }

    /**
     * One gate in a JVM of its own, started beside the fleet (on {@code cpu}, the server's core, when
     * given, at the lowest priority: it makes a few attempts a second): a pod whose CPU nobody shares. It connects once while the
     * server is down, says {@code waiting}, then waits with a gate and prints {@code ready <epoch ms>}.
     */
    static final class Solo {
        private final Process process;
        private final java.io.BufferedReader out;

        private Solo(Process process) {
            this.process = process;
            this.out = new java.io.BufferedReader(new java.io.InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        }

        static Solo start(String uri, String cpu) throws Exception {
            List<String> cmd = new ArrayList<>();
            if (cpu != null) {
                cmd.addAll(List.of("taskset", "-c", cpu, "nice", "-n", "19")); // the server keeps its core
            }
            cmd.addAll(List.of(java.nio.file.Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-cp", System.getProperty("java.class.path"), Solo.class.getName(), uri));
            Solo solo = new Solo(new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.INHERIT).start());
            String first = solo.out.readLine();
            if (!"waiting".equals(first)) {
                throw new IllegalStateException("the solo gate said '" + first + "' instead of 'waiting'");
            }
            return solo;
        }

        Instant awaitReady() throws Exception {
            String line = out.readLine();
            if (!process.waitFor(60, java.util.concurrent.TimeUnit.SECONDS) || line == null || !line.startsWith("ready ")) {
                process.destroyForcibly();
                throw new IllegalStateException("the solo gate said '" + line + "' instead of 'ready <ms>'");
            }
            return Instant.ofEpochMilli(Long.parseLong(line.substring("ready ".length())));
        }

        public static void main(String[] args) {
            try (Probe probe = Probes.redis(args[0])) {
                probe.check(Duration.ofSeconds(2)); // refused: classes loaded, as in a pod already in its gate
                System.out.println("waiting");
                System.out.flush();
                try (ReadinessGate g = ReadinessGate.builder().probe(probe).deadline(Duration.ofSeconds(300))
                        .attemptTimeout(Duration.ofSeconds(5)).build()) {
                    ReadinessReport r = g.await();
                    System.out.println(r.ready() ? "ready " + System.currentTimeMillis() : r.render());
                }
            }
        }
    }

    /**
     * The process's CPU time every 5 ms, for the share of a core the fleet's JVM used around the end. The
     * samples are read by {@link #busy} only after {@link #stop} has joined the sampling thread.
     */
    static final class CpuSampler {
        private final List<long[]> samples = new ArrayList<>();
        private final Thread thread;
        private volatile boolean running = true;

        CpuSampler() {
            var os = (com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory.getOperatingSystemMXBean();
            thread = new Thread(() -> {
                while (running) {
                    samples.add(new long[] {System.currentTimeMillis(), os.getProcessCpuTime()});
                    try {
                        Thread.sleep(5);
                    } catch (InterruptedException e) {
                        return;
                    }
                }
            }, "fleet-cpu-sampler");
            thread.setDaemon(true);
            thread.start();
        }

        void stop() throws InterruptedException {
            running = false;
            thread.join();
        }

        /** CPU seconds per wall second between the samples nearest {@code fromMs} and {@code toMs} (1.0: one core). */
        double busy(long fromMs, long toMs) {
            long[] a = null;
            long[] b = null;
            for (long[] x : samples) {
                if (a == null || x[0] <= fromMs) {
                    a = x;
                }
                if (b == null || x[0] <= toMs) {
                    b = x;
                }
            }
            return a == null || b[0] <= a[0] ? Double.NaN : (b[1] - a[1]) / 1e6 / (b[0] - a[0]);
        }
    }

    /** Counts every attempt in {@code attempts}; with a {@code trace}, records {start ms, end ms, ready 1/0} of each. */
    private static Probe counting(Probe p, AtomicLong attempts, List<long[]> trace) {
        return new Probe() {
            @Override
            public String kind() {
                return p.kind();
            }

            @Override
            public String target() {
                return p.target();
            }

            @Override
            public ProbeResult check(Duration attemptTimeout) {
                attempts.incrementAndGet();
                long start = System.currentTimeMillis();
                ProbeResult r = p.check(attemptTimeout);
                if (trace != null) {
                    trace.add(new long[] {start, System.currentTimeMillis(), r.ready() ? 1 : 0});
                }
                return r;
            }

            @Override
            public void close() {
                // the fleet's probes are closed by their owner
            }
        };
    }

    /** The last {@code DB loaded from disk: N seconds} in the server's log. */
    static double loadSeconds(RedisServer redis) throws Exception {
        String log = Files.readString(redis.logFile(), StandardCharsets.UTF_8);
        Matcher m = LOADED.matcher(log);
        double last = -1;
        while (m.find()) {
            last = Double.parseDouble(m.group(1));
        }
        if (last < 0) {
            throw new IllegalStateException("no 'DB loaded from disk' line in " + redis.logFile());
        }
        return last;
    }
}
