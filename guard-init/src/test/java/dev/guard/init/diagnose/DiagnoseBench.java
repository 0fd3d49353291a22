package dev.guard.init.diagnose;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Prints how fast diagnose reads a large capture (run its main; not a test): a worker log of N
 * lines mixing connection errors, per-job lines and noise, plus a Redis log.
 */
public final class DiagnoseBench {
    private DiagnoseBench() {}

    public static void main(String[] args) {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 200_000;
        StringBuilder w = new StringBuilder();
        for (int i = 0; i < n; i++) {
            String ts = String.format("2026-11-30T02:%02d:%02d.%09dZ ", (i / 60000) % 60, (i / 1000) % 60, i % 1000 * 1000);
            switch (i % 4) {
                case 0 -> w.append(ts).append("2026-11-30 02:00:01,000 ERROR worker: redis.exceptions.ConnectionError: "
                        + "Error 111 connecting to redis:6379. Connection refused.\n");
                case 1 -> w.append(ts).append("job j-").append(i).append(" received\n");
                case 2 -> w.append(ts).append("job j-").append(i - 1).append(" processed\n");
                default -> w.append(ts).append("INFO worker: heartbeat ok, queue depth 12, memory 123 MB\n");
            }
        }
        Map<String, String> texts = new LinkedHashMap<>();
        texts.put("worker.log", w.toString());
        Diagnoser d = Diagnoser.builder().endpoint("redis:6379").build();
        java.lang.management.ThreadMXBean mx = java.lang.management.ManagementFactory.getThreadMXBean();
        for (int round = 0; round < 3; round++) {
            long t0 = System.nanoTime();
            long c0 = mx.getCurrentThreadCpuTime();
            Diagnosis r = d.diagnoseTexts(texts);
            long ms = (System.nanoTime() - t0) / 1_000_000;
            long cpuMs = (mx.getCurrentThreadCpuTime() - c0) / 1_000_000;
            System.out.printf("round %d: %d lines, wall %d ms, cpu %d ms (%.0f lines per cpu-second): %s%n", round, n, ms,
                    cpuMs, n * 1000.0 / Math.max(1, cpuMs), r.causeLine());
        }
    }
}
