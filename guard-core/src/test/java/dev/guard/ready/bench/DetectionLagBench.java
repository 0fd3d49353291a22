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
 * Detection lag of the readiness gate against a Redis that is really loading its dataset, side by
 * side in the same run with: the same gate without the target's own estimate of the end (its plain
 * backoff), a fixed 1-second poll with the same protocol check (the interval of wait-for-it,
 * dockerize, wait4x) started at a random phase against the load, and a real TCP-level wait
 * (Debian's {@code wait-for-it}, started before the server). Then the cost of checking four ready
 * dependencies in a fresh JVM ({@link AllUpCost}).
 *
 * <p>Lag = the instant the wait returned minus the instant of Redis's own {@code DB loaded from
 * disk} log line (ms resolution). Each trial restarts the server four times, once per waiter, so
 * no waiter's attempts slow another's load. Run (from the repository root):
 *
 * <pre>
 * ./mvnw -q -o -pl guard-core -am test-compile
 * ./mvnw -q -o -pl guard-core dependency:build-classpath -Dmdep.includeScope=test -Dmdep.outputFile=target/bench.cp
 * java -cp guard-core/target/test-classes:guard-core/target/classes:$(cat guard-core/target/bench.cp) \
 *     dev.guard.ready.bench.DetectionLagBench [trials=20] [preloadKeys=40000] [--no-all-up]
 * </pre>
 */
public final class DetectionLagBench {

    private DetectionLagBench() {}

    /** Wraps a probe, records when each attempt started and what it estimated; can drop the estimate. */
    static final class Counting implements Probe {
        final Probe delegate;
        final boolean withEstimate;
        final List<Long> starts = new CopyOnWriteArrayList<>();
        /** The end each attempt predicted (nanoTime), or none. */
        final List<Long> predictedEnds = new CopyOnWriteArrayList<>();

        Counting(Probe delegate, boolean withEstimate) {
            this.delegate = delegate;
            this.withEstimate = withEstimate;
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
            ProbeResult r = delegate.check(attemptTimeout);
            if (r.expectedReadyIn() != null) {
                predictedEnds.add(System.nanoTime() + r.expectedReadyIn().toNanos());
            }
            return withEstimate ? r : r.withExpectedReadyIn(null);
        }

        @Override
        public void close() {
            delegate.close();
        }

        void clear() {
            starts.clear();
            predictedEnds.clear();
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

    /** One waiter's figures over the trials. */
    static final class Row {
        final String name;
        final List<Long> lag = new ArrayList<>();
        final List<Integer> attempts = new ArrayList<>();
        final List<Integer> maxWindow = new ArrayList<>();

        Row(String name) {
            this.name = name;
        }

        String summary() {
            String a = attempts.isEmpty() ? "" : String.format(Locale.ROOT,
                    "; attempts per wait: median %d, most in any 1 s: %d", pct(attempts.stream().map(Integer::longValue)
                            .toList(), 50), Collections.max(maxWindow));
            return String.format(Locale.ROOT, "  %-28s median %4d ms, p90 %4d ms, max %4d ms%s", name + ":", pct(lag, 50),
                    pct(lag, 90), Collections.max(lag), a);
        }
    }

    public static void main(String[] args) throws Exception {
        List<String> positional = new ArrayList<>();
        boolean allUp = true;
        for (String a : args) {
            if (a.equals("--no-all-up")) {
                allUp = false;
            } else {
                positional.add(a);
            }
        }
        int trials = positional.size() > 0 ? Integer.parseInt(positional.get(0)) : 20;
        int keys = positional.size() > 1 ? Integer.parseInt(positional.get(1)) : 40_000;
        String waitForIt = waitForIt();
        System.out.printf(Locale.ROOT, "# detection lag: %d trials, Redis loading %d keys; %d CPUs, load %s%n",
                trials, keys, Runtime.getRuntime().availableProcessors(), loadAverage());

        Row gate = new Row("guard gate");
        Row plain = new Row("gate, backoff only");
        Row poll = new Row("fixed 1-s poll (PING)");
        Row tcp = new Row("wait-for-it (TCP)");
        List<Long> loadWindow = new ArrayList<>();
        List<Long> predictionError = new ArrayList<>();
        int tcpDuringLoading = 0;
        java.util.Random random = new java.util.Random();
        try (RedisServer redis = RedisServer.builder().preloadKeys(keys).build().startLoading()) {
            redis.awaitLoaded(Duration.ofSeconds(120));
            Counting withEstimate = new Counting(Probes.redis(redis.uri()), true);
            Counting backoffOnly = new Counting(Probes.redis(redis.uri()), false);
            Probe pingOnce = Probes.redis(redis.uri());
            // warm the JVM and the probes' clients once (not measured)
            withEstimate.check(Duration.ofSeconds(30));
            backoffOnly.check(Duration.ofSeconds(30));
            pingOnce.check(Duration.ofSeconds(30));
            for (int i = 0; i < trials; i++) {
                // (a) the gate, and (b) the same gate without the estimate
                for (Counting probe : List.of(withEstimate, backoffOnly)) {
                    Row row = probe.withEstimate ? gate : plain;
                    redis.restart(); // returns once -LOADING was observed
                    Instant loadingSeen = redis.loadingObservedAt();
                    probe.clear();
                    ReadinessReport report;
                    try (ReadinessGate g = ReadinessGate.builder().probe(probe).deadline(Duration.ofSeconds(120))
                            .attemptTimeout(Duration.ofSeconds(2)).build()) {
                        report = g.await();
                    }
                    Instant returned = Instant.now();
                    long returnedNanos = System.nanoTime();
                    if (!report.ready()) {
                        throw new IllegalStateException("trial " + i + ": gate not ready:\n" + report.render());
                    }
                    Instant loaded = redis.awaitLoaded(Duration.ofSeconds(120));
                    long lagMs = Duration.between(loaded, returned).toMillis();
                    row.lag.add(lagMs);
                    row.attempts.add(probe.starts.size());
                    row.maxWindow.add(probe.maxPerSecond());
                    if (probe.withEstimate) {
                        loadWindow.add(Duration.between(loadingSeen, loaded).toMillis());
                        if (!probe.predictedEnds.isEmpty()) {
                            // the last estimate before the end, against the end
                            long endNanos = returnedNanos - lagMs * 1_000_000L;
                            long last = probe.predictedEnds.get(probe.predictedEnds.size() - 1);
                            predictionError.add((last - endNanos) / 1_000_000L);
                            if (System.getenv("BENCH_DEBUG") != null) {
                                StringBuilder d = new StringBuilder("  estimates (predicted end - real end, ms, at attempt start - real end):");
                                for (int k = 0; k < probe.predictedEnds.size(); k++) {
                                    d.append(' ').append((probe.predictedEnds.get(k) - endNanos) / 1_000_000L);
                                }
                                d.append(" | starts:");
                                for (long st : probe.starts) {
                                    d.append(' ').append((st - endNanos) / 1_000_000L);
                                }
                                System.out.println(d);
                            }
                        }
                    }
                }

                // (c) a fixed 1-second poll, started at a random phase against the load
                redis.restart();
                Thread.sleep(random.nextInt(1000));
                while (!pingOnce.check(Duration.ofSeconds(2)).ready()) {
                    Thread.sleep(1000);
                }
                Instant polled = Instant.now();
                poll.lag.add(Duration.between(redis.awaitLoaded(Duration.ofSeconds(120)), polled).toMillis());

                // (d) a real TCP-level wait, started while the server is down
                redis.stop();
                Process w = new ProcessBuilder(waitForIt, "-q", "-h", redis.host(), "-p", Integer.toString(redis.port()),
                        "-t", "60").redirectErrorStream(true).start();
                redis.startLoading();
                if (!w.waitFor(60, java.util.concurrent.TimeUnit.SECONDS) || w.exitValue() != 0) {
                    throw new IllegalStateException("wait-for-it did not see port " + redis.port() + " open");
                }
                Instant tcpReturned = Instant.now();
                Instant loaded = redis.awaitLoaded(Duration.ofSeconds(120));
                long tcpLag = Duration.between(loaded, tcpReturned).toMillis();
                tcp.lag.add(tcpLag);
                if (tcpLag < 0) {
                    tcpDuringLoading++;
                }
                System.out.printf(Locale.ROOT, "trial %2d: loading %5d ms | gate %4d ms (%d attempts, max %d in 1 s)"
                        + " | backoff only %4d ms (%d attempts) | 1-s poll %4d ms | wait-for-it %5d ms%n", i + 1,
                        loadWindow.get(i), gate.lag.get(i), gate.attempts.get(i), gate.maxWindow.get(i), plain.lag.get(i),
                        plain.attempts.get(i), poll.lag.get(i), tcp.lag.get(i));
            }
            withEstimate.close();
            backoffOnly.close();
            pingOnce.close();
        }
        System.out.println();
        System.out.printf(Locale.ROOT, "detection lag (DB loaded -> wait returned), %d trials, loads of median %d ms:%n",
                trials, pct(loadWindow, 50));
        for (Row r : List.of(gate, plain, poll, tcp)) {
            System.out.println(r.summary());
        }
        if (!predictionError.isEmpty()) {
            System.out.printf(Locale.ROOT, "  the gate's last estimate of the end before it: error median %d ms,"
                    + " p90 of |error| %d ms (positive: predicted late)%n", pct(predictionError, 50),
                    pct(predictionError.stream().map(Math::abs).toList(), 90));
        }
        System.out.printf(Locale.ROOT, "  wait-for-it said ready DURING loading (negative lag) in %d of %d trials: it only"
                + " sees the port open, and Redis listens while it loads%n%n", tcpDuringLoading, trials);
        if (allUp) {
            allUpCost();
        }
    }

    static String waitForIt() {
        for (String p : List.of("/usr/bin/wait-for-it", "/usr/local/bin/wait-for-it")) {
            if (java.nio.file.Files.isExecutable(Path.of(p))) {
                return p;
            }
        }
        throw new IllegalStateException("wait-for-it is not installed; it is the TCP-level wait this benchmark compares"
                + " with: apt-get install wait-for-it");
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
        if (values.isEmpty()) {
            return -1;
        }
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
