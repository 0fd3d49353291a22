package dev.guard.ready.bench;

import dev.guard.ready.Probe;
import dev.guard.ready.ProbeResult;
import dev.guard.ready.Probes;
import dev.guard.ready.ReadinessGate;
import dev.guard.ready.ReadinessReport;
import dev.guard.testing.KafkaBroker;
import dev.guard.testing.MachineServices;
import dev.guard.testing.RedisServer;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Detection lag of the readiness gate against a Redis that is really loading its dataset,
 * side by side with a fixed 1-second poll (the default of wait-for-it / dockerize / wait4x),
 * then the cost of checking four ready dependencies (in a fresh JVM: cold, then warm).
 *
 * <p>Lag = the instant {@code await()} returned minus the instant of Redis's own
 * {@code DB loaded from disk} log line (ms resolution). Run (from the repository root):
 *
 * <pre>
 * ./mvnw -q -o -pl guard-core -am test-compile
 * ./mvnw -q -o -pl guard-core dependency:build-classpath -Dmdep.includeScope=test -Dmdep.outputFile=target/bench.cp
 * java -cp guard-core/target/test-classes:guard-core/target/classes:$(cat guard-core/target/bench.cp) \
 *     dev.guard.ready.bench.DetectionLagBench [trials=20] [preloadKeys=10000]
 * </pre>
 */
public final class DetectionLagBench {

    private DetectionLagBench() {}

    /** Wraps a probe and records when each attempt started. */
    static final class Counting implements Probe {
        final Probe delegate;
        final List<Long> starts = new CopyOnWriteArrayList<>();

        Counting(Probe delegate) {
            this.delegate = delegate;
        }

        @Override
        public String kind() {
            return delegate.kind();
        }

        @Override
        public String target() {
            return delegate.target();
        }

        @Override
        public ProbeResult check(Duration attemptTimeout) {
            starts.add(System.nanoTime());
            return delegate.check(attemptTimeout);
        }

        @Override
        public void close() {
            delegate.close();
        }

        /** Most attempts that started within any 1-second window. */
        int maxPerSecond() {
            int best = 0;
            List<Long> s = new ArrayList<>(starts);
            for (int i = 0, j = 0; i < s.size(); i++) {
                while (s.get(i) - s.get(j) >= 1_000_000_000L) {
                    j++;
                }
                best = Math.max(best, i - j + 1);
            }
            return best;
        }
    }

    public static void main(String[] args) throws Exception {
        int trials = args.length > 0 ? Integer.parseInt(args[0]) : 20;
        int keys = args.length > 1 ? Integer.parseInt(args[1]) : 10_000;
        System.out.printf(Locale.ROOT, "# readiness gate benchmark: %d trials, Redis loading %d keys; %d CPUs, load %s%n",
                trials, keys, Runtime.getRuntime().availableProcessors(), loadAverage());

        List<Long> gateLag = new ArrayList<>();
        List<Long> pollLag = new ArrayList<>();
        List<Long> tcpEarly = new ArrayList<>();
        List<Double> gateRate = new ArrayList<>();
        List<Integer> gateMaxWindow = new ArrayList<>();
        List<Long> loadWindow = new ArrayList<>();
        try (RedisServer redis = RedisServer.builder().preloadKeys(keys).build().startLoading()) {
            redis.awaitLoaded(Duration.ofSeconds(120));
            Counting probe = new Counting(Probes.redis(redis.uri()));
            Probe tcp = Probes.tcp(redis.host(), redis.port());
            // warm the JVM and the probe's client once (not measured)
            probe.check(Duration.ofSeconds(30));
            try (ReadinessGate gate = ReadinessGate.builder().probe(probe).deadline(Duration.ofSeconds(120))
                    .attemptTimeout(Duration.ofSeconds(2)).build()) {
                for (int i = 0; i < trials; i++) {
                    // (a) the gate
                    redis.restart(); // returns once -LOADING was observed
                    Instant loadingSeen = redis.loadingObservedAt();
                    ProbeResult tcpNow = tcp.check(Duration.ofSeconds(1));
                    if (tcpNow.ready()) {
                        // what a TCP-level wait (wait-for-it) would conclude now: "ready", during LOADING
                        tcpEarly.add(1L);
                    }
                    probe.starts.clear();
                    long t0 = System.nanoTime();
                    ReadinessReport report = gate.await();
                    Instant returned = Instant.now();
                    long waitedNs = System.nanoTime() - t0;
                    if (!report.ready()) {
                        throw new IllegalStateException("trial " + i + ": gate not ready:\n" + report.render());
                    }
                    Instant loaded = redis.awaitLoaded(Duration.ofSeconds(120));
                    gateLag.add(Duration.between(loaded, returned).toMillis());
                    loadWindow.add(Duration.between(loadingSeen, loaded).toMillis());
                    gateRate.add(probe.starts.size() / (waitedNs / 1e9));
                    gateMaxWindow.add(probe.maxPerSecond());

                    // (b) a fixed 1-second poll with the same protocol check (wait-for-it's interval)
                    redis.restart();
                    while (!probe.delegate.check(Duration.ofSeconds(2)).ready()) {
                        Thread.sleep(1000);
                    }
                    Instant polled = Instant.now();
                    Instant loaded2 = redis.awaitLoaded(Duration.ofSeconds(120));
                    pollLag.add(Duration.between(loaded2, polled).toMillis());
                    System.out.printf(Locale.ROOT, "trial %2d: loading %5d ms | gate lag %4d ms (%d attempts, %.1f/s, max %d in 1 s) | 1-s poll lag %4d ms%n",
                            i + 1, loadWindow.get(i), gateLag.get(i), report.results().get(0).attempt(), gateRate.get(i),
                            gateMaxWindow.get(i), pollLag.get(i));
                }
            }
            tcp.close();
        }
        System.out.println();
        System.out.printf(Locale.ROOT, "detection lag (DB loaded -> await() returned), %d trials:%n", trials);
        System.out.printf(Locale.ROOT, "  readiness gate : median %4d ms, p90 %4d ms, max %4d ms; attempts/s per target: mean %.1f, max in any 1 s window %d%n",
                pct(gateLag, 50), pct(gateLag, 90), Collections.max(gateLag), gateRate.stream().mapToDouble(d -> d).average().orElse(0),
                Collections.max(gateMaxWindow));
        System.out.printf(Locale.ROOT, "  fixed 1-s poll : median %4d ms, p90 %4d ms, max %4d ms; 1 attempt/s%n",
                pct(pollLag, 50), pct(pollLag, 90), Collections.max(pollLag));
        System.out.printf(Locale.ROOT, "  TCP-level wait : would have said ready DURING loading in %d of %d trials (Redis accepts connections while loading)%n",
                tcpEarly.size(), trials);
        System.out.printf(Locale.ROOT, "  loading windows: median %d ms%n%n", pct(loadWindow, 50));

        allUpCost();
    }

    /** Starts a Kafka broker and runs {@link AllUpCost} in a fresh JVM (cold) against four ready dependencies. */
    static void allUpCost() throws Exception {
        try (KafkaBroker kafka = KafkaBroker.builder().build().start()) {
            List<String> cmd = new ArrayList<>(List.of(
                    Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-cp", System.getProperty("java.class.path"),
                    AllUpCost.class.getName(),
                    MachineServices.redisUri(), MachineServices.amqpUri(), MachineServices.natsUrl(),
                    "kafka://" + kafka.bootstrapServers()));
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
            try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = r.readLine()) != null) {
                    if (!line.contains("StatusLogger") && !line.startsWith("SLF4J")) {
                        System.out.println(line);
                    }
                }
            }
            int rc = p.waitFor();
            if (rc != 0) {
                throw new IllegalStateException("AllUpCost exited with " + rc);
            }
        }
    }

    static long pct(List<Long> values, int p) {
        List<Long> s = new ArrayList<>(values);
        Collections.sort(s);
        int idx = (int) Math.ceil(p / 100.0 * s.size()) - 1;
        return s.get(Math.max(0, Math.min(s.size() - 1, idx)));
    }

    static String loadAverage() {
        try {
            return java.nio.file.Files.readString(Path.of("/proc/loadavg")).split(" ")[0];
        } catch (Exception e) {
            return "?";
        }
    }
}
