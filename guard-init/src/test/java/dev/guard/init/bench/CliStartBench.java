package dev.guard.init.bench;

import dev.guard.testing.MachineServices;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * How long {@code java -jar guard-init.jar} takes from exec to exit, beside {@code java -version}
 * on the same JVM in the same run (run its main; not a test).
 *
 * <p>Rows, interleaved round by round so that a noisy neighbour hits each alike:
 * {@code java -version}; {@code guard-init --version}; {@code guard-init wait} on four ready
 * local dependencies (the machine's Redis, RabbitMQ and NATS, and a TCP port). Each row prints
 * the median, min and max wall time, the median as a multiple of {@code java -version}'s, and the
 * largest peak RSS ({@code /usr/bin/time -f %M}, when installed).
 *
 * <pre>
 * java -cp guard-init/target/test-classes:$(cat guard-init/target/bench.cp) dev.guard.init.bench.CliStartBench \
 *     [--runs 10] [--jar guard-init/target/guard-init.jar] [--java /usr/lib/jvm/.../bin/java] [--targets URI...]
 * </pre>
 *
 * The image's entrypoint (its runtime, flags and CDS archive, as PID 1) is measured by
 * {@code ImageIT.figures}, which prints the same rows.
 */
public final class CliStartBench {
    private CliStartBench() {}

    public static void main(String[] args) throws Exception {
        int runs = 10;
        Path jar = Path.of("guard-init/target/guard-init.jar");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> targets = null;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--runs" -> runs = Integer.parseInt(args[++i]);
                case "--jar" -> jar = Path.of(args[++i]);
                case "--java" -> java = args[++i];
                case "--targets" -> targets = new ArrayList<>(Arrays.asList(args).subList(i + 1, args.length));
                default -> throw new IllegalArgumentException("unknown argument " + args[i]
                        + "; use --runs N, --jar FILE, --java PATH, --targets URI...");
            }
            if (targets != null) {
                break;
            }
        }
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException(jar + " not found: run ./mvnw -B -q -DskipTests package -pl guard-init -am first");
        }
        if (targets == null) {
            String redis = MachineServices.redisUri();
            targets = List.of(redis, MachineServices.amqpUri(), MachineServices.natsUrl(),
                    "tcp://" + MachineServices.hostPort(redis));
        }
        Map<String, List<String>> rows = new LinkedHashMap<>();
        rows.put("java -version", List.of(java, "-version"));
        rows.put("guard-init --version", List.of(java, "-jar", jar.toString(), "--version"));
        List<String> wait = new ArrayList<>(List.of(java, "-jar", jar.toString(), "wait"));
        wait.addAll(targets);
        wait.addAll(List.of("--timeout", "30s"));
        rows.put("guard-init wait (" + targets.size() + " ready targets)", wait);

        boolean time = ChildRun.timeInstalled();
        System.out.printf("CliStartBench: %d runs per row, interleaved; %s; %s; %d CPUs, load average %s%n", runs, java,
                jar, Runtime.getRuntime().availableProcessors(), Files.readString(Path.of("/proc/loadavg")).trim());
        if (!time) {
            System.out.println("(no /usr/bin/time: peak RSS not measured; apt-get install time)");
        }
        Map<String, double[]> walls = new LinkedHashMap<>();
        Map<String, Long> rss = new LinkedHashMap<>();
        for (String k : rows.keySet()) {
            walls.put(k, new double[runs]);
        }
        for (String k : rows.keySet()) {
            once(rows.get(k), time); // warm the page cache: every row starts from the same state
        }
        for (int r = 0; r < runs; r++) {
            for (Map.Entry<String, List<String>> row : rows.entrySet()) {
                long[] m = once(row.getValue(), time);
                walls.get(row.getKey())[r] = m[0] / 1e6;
                rss.merge(row.getKey(), m[1], Math::max);
            }
        }
        double reference = ChildRun.median(walls.get("java -version"));
        for (String k : rows.keySet()) {
            double[] w = walls.get(k).clone();
            Arrays.sort(w);
            System.out.printf("%-36s median %6.0f ms  min %6.0f  max %6.0f  = %5.1fx java -version  peak RSS %s%n", k,
                    ChildRun.median(w), w[0], w[w.length - 1], ChildRun.median(w) / reference,
                    time ? String.format("%.1f MB", rss.get(k) / 1024.0) : "n/a");
        }
    }

    /** One run: {wall nanoseconds, peak RSS KiB or 0}; a non-zero exit fails the bench. */
    private static long[] once(List<String> command, boolean time) throws IOException, InterruptedException {
        ChildRun.Result r = ChildRun.run(command, time);
        if (r.exit() != 0) {
            throw new IllegalStateException(String.join(" ", command) + " exited " + r.exit() + ":\n" + r.out());
        }
        return new long[] {r.wallNanos(), r.peakKib()};
    }
}
