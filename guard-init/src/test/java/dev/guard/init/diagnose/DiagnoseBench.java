package dev.guard.init.diagnose;

import java.io.BufferedWriter;
import java.io.IOException;
import dev.guard.init.bench.ChildRun;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;

/**
 * Prints how fast diagnose reads a large capture, and writes such captures (run its main; not a
 * test). {@code write FILE MB} writes a {@code docker compose logs --timestamps} capture of about
 * MB megabytes: a worker that fails to reach Redis for its first attempts, then pops jobs
 * ({@code job <id> received/processed}) between heartbeat and library noise, a second worker
 * replica, and Redis's own log. {@code run FILE...} diagnoses the files three times in this JVM
 * and prints MB/s. {@code image JAR FILE [ROUNDS]} runs the CLI jar in a child JVM with the
 * image's entrypoint flags ({@link #IMAGE_JVM}) ROUNDS times (default 5), each beside the
 * runbook's {@code grep -c ' received$' FILE} as the reference of the same moment, and prints
 * each round and the medians: seconds, MB/s, peak RSS (through {@code /usr/bin/time} when the
 * machine has it) and the ratio to grep.
 */
public final class DiagnoseBench {
    /**
     * The JVM flags of the image's entrypoint ({@code guard-init/src/image/build-image.sh}, checked
     * by {@code DiagnoseMemoryTest}): C1 only with one compiler thread, serial GC, a 64 MB heap.
     */
    static final List<String> IMAGE_JVM = List.of("-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-XX:CICompilerCount=1",
            "-Xss256k", "-Xms8m", "-Xmx64m", "-XX:MaxMetaspaceSize=96m", "-XX:ReservedCodeCacheSize=32m", "-XX:-UsePerfData",
            "-XX:+ExitOnOutOfMemoryError");

    private DiagnoseBench() {}

    public static void main(String[] args) throws Exception {
        if (args.length >= 3 && args[0].equals("write")) {
            long bytes = write(Path.of(args[1]), Long.parseLong(args[2]) * 1024 * 1024);
            System.out.printf("wrote %s: %.1f MB%n", args[1], bytes / 1048576.0);
            return;
        }
        if (args.length >= 2 && args[0].equals("run")) {
            List<Path> files = java.util.Arrays.stream(args).skip(1).map(Path::of).toList();
            long size = 0;
            for (Path f : files) {
                size += Files.size(f);
            }
            Diagnoser d = Diagnoser.builder().endpoint("redis:6379").build();
            int rounds = Integer.getInteger("rounds", 3);
            for (int round = 0; round < rounds; round++) {
                long t0 = System.nanoTime();
                Diagnosis r = d.diagnose(files);
                double s = (System.nanoTime() - t0) / 1e9;
                Runtime rt = Runtime.getRuntime();
                System.out.printf("round %d: %.1f MB in %.2f s = %.0f MB/s, heap max %d MB: %s, jobs %d/%d%n", round,
                        size / 1048576.0, s, size / 1048576.0 / s, rt.maxMemory() / 1048576, r.causeLine(),
                        r.jobs().received(), r.jobs().processed());
            }
            return;
        }
        if (args.length >= 3 && args[0].equals("image")) {
            image(Path.of(args[1]), Path.of(args[2]), args.length > 3 ? Integer.parseInt(args[3]) : 5);
            return;
        }
        System.err.println("usage: DiagnoseBench write FILE MB | run FILE... | image JAR FILE [ROUNDS]");
        System.exit(64);
    }

    private static void image(Path jar, Path file, int rounds) throws IOException, InterruptedException {
        double mb = Files.size(file) / 1048576.0;
        boolean time = ChildRun.timeInstalled();
        List<String> cli = new java.util.ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
        cli.addAll(IMAGE_JVM);
        cli.addAll(List.of("-jar", jar.toString(), "diagnose", "--endpoint", "redis:6379", file.toString()));
        List<String> grep = List.of("grep", "-c", " received$", file.toString());
        double[] diagnose = new double[rounds];
        double[] reference = new double[rounds];
        long[] peak = new long[rounds];
        System.out.printf("%s: %.1f MB; the image's JVM flags %s%n", file, mb, String.join(" ", IMAGE_JVM));
        for (int i = 0; i < rounds; i++) {
            ChildRun.Result d = ChildRun.run(cli, time);
            ChildRun.Result g = ChildRun.run(grep, false);
            if (d.exit() != 0 || !d.out().startsWith("cause: ")) {
                throw new IllegalStateException("diagnose exited " + d.exit() + " and printed no cause:\n" + d.out());
            }
            if (g.exit() > 1) {
                throw new IllegalStateException(String.join(" ", grep) + " exited " + g.exit() + ":\n" + g.out());
            }
            diagnose[i] = d.wallNanos() / 1e9;
            reference[i] = g.wallNanos() / 1e9;
            peak[i] = d.peakKib();
            System.out.printf("round %d: diagnose %.2f s = %.0f MB/s, peak RSS %s; grep -c %.2f s; ratio %.1f%n", i,
                    diagnose[i], mb / diagnose[i], time ? d.peakKib() / 1024 + " MB" : "not measured",
                    reference[i], diagnose[i] / reference[i]);
        }
        double[] ratio = new double[rounds];
        for (int i = 0; i < rounds; i++) {
            ratio[i] = diagnose[i] / reference[i];
        }
        double median = ChildRun.median(diagnose);
        System.out.printf("median of %d: diagnose %.2f s = %.0f MB/s (min %.2f, max %.2f), peak RSS %s, "
                        + "%.1f times grep -c's time (%.2f s)%n", rounds, median, mb / median,
                java.util.Arrays.stream(diagnose).min().orElse(0), java.util.Arrays.stream(diagnose).max().orElse(0),
                time ? java.util.Arrays.stream(peak).max().orElse(0) / 1024 + " MB at most" : "not measured (no /usr/bin/time)",
                ChildRun.median(ratio), ChildRun.median(reference));
    }

    /** Writes a compose capture of about {@code target} bytes; returns its size. */
    static long write(Path file, long target) throws IOException {
        Instant t = Instant.parse("2026-11-30T02:00:00.000000123Z");
        long written = 0;
        try (BufferedWriter w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            written += line(w, "redis-1   | ", t, "1:C 30 Nov 2026 02:00:00.000 * oO0OoO0OoO0Oo Redis is starting oO0OoO0OoO0Oo");
            written += line(w, "worker-1  | ", t.plusMillis(100), "2026-11-30 02:00:00,100 INFO worker: worker starting, "
                    + "redis url redis://redis:6379/0");
            for (int i = 0; i < 5; i++) {
                t = t.plusMillis(500);
                written += line(w, "worker-1  | ", t, "2026-11-30 02:00:00,600 ERROR worker: redis.exceptions.ConnectionError: "
                        + "Error 111 connecting to redis:6379. Connection refused.");
                written += line(w, "worker-1  | ", t, "Traceback (most recent call last):");
                written += line(w, "worker-1  | ", t, "ConnectionRefusedError: [Errno 111] Connection refused");
            }
            written += line(w, "redis-1   | ", t, "1:M 30 Nov 2026 02:00:03.000 * Ready to accept connections tcp");
            long job = 0;
            while (written < target) {
                t = t.plusMillis(7);
                String worker = job % 2 == 0 ? "worker-1  | " : "worker-2  | ";
                written += line(w, worker, t, "job j-" + job + " received");
                written += line(w, worker, t, "2026-11-30 02:00:03,017 DEBUG urllib3.connectionpool: Starting new HTTPS "
                        + "connection (1): api.internal:443 for job j-" + job);
                written += line(w, worker, t, "job j-" + job + " processed");
                if (job % 50 == 0) {
                    written += line(w, worker, t, "2026-11-30 02:00:03,017 INFO worker: heartbeat ok, queue depth 12, "
                            + "memory 123 MB, uptime 1234 s");
                }
                job++;
            }
        }
        return Files.size(file);
    }

    private static int line(BufferedWriter w, String prefix, Instant t, String text) throws IOException {
        String l = prefix + t + " " + text + "\n";
        w.write(l);
        return l.length();
    }
}
