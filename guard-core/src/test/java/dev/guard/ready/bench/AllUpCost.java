package dev.guard.ready.bench;

import dev.guard.ready.Probe;
import dev.guard.ready.Probes;
import dev.guard.ready.ReadinessGate;
import dev.guard.ready.ReadinessReport;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Locale;

/**
 * Cost of checking ready dependencies in-process, run in a fresh JVM by
 * {@link DetectionLagBench}: the first {@code await()} (cold: class loading and client
 * set-up included), then warm rounds with the same probes, then warm rounds with new probes.
 * Arguments: the target URLs.
 */
public final class AllUpCost {

    private AllUpCost() {}

    public static void main(String[] urls) {
        long jvmStart = java.lang.management.ManagementFactory.getRuntimeMXBean().getStartTime();
        List<Probe> probes = Probes.forUrls(Arrays.asList(urls));
        long t0 = System.nanoTime();
        ReadinessReport cold;
        try (ReadinessGate gate = ReadinessGate.builder().probes(probes).deadline(Duration.ofSeconds(60)).build()) {
            cold = gate.await();
            long coldMs = (System.nanoTime() - t0) / 1_000_000;
            if (!cold.ready()) {
                System.out.println(cold.render());
                System.exit(1);
            }
            System.out.printf(Locale.ROOT, "cost of checking %d ready dependencies (%s) in-process:%n", urls.length,
                    String.join(", ", probes.stream().map(Probe::kind).toList()));
            System.out.printf(Locale.ROOT, "  cold (first await in a fresh JVM, %d ms after JVM start): %d ms; per target: %s%n",
                    System.currentTimeMillis() - jvmStart - coldMs, coldMs, perTarget(cold));
            List<Long> warm = new ArrayList<>();
            java.util.Map<String, List<Long>> perKind = new java.util.LinkedHashMap<>();
            for (int i = 0; i < 20; i++) {
                long s = System.nanoTime();
                ReadinessReport r = gate.await();
                warm.add((System.nanoTime() - s) / 1_000);
                r.results().forEach(x -> perKind.computeIfAbsent(x.kind(), k -> new ArrayList<>()).add(x.elapsed().toMillis()));
                if (!r.ready()) {
                    System.out.println(r.render());
                    System.exit(1);
                }
            }
            System.out.printf(Locale.ROOT, "  warm (same gate, 20 rounds): median %.1f ms, max %.1f ms%n",
                    DetectionLagBench.pct(warm, 50) / 1000.0, Collections.max(warm) / 1000.0);
            System.out.printf(Locale.ROOT, "    per target, median time to READY within a warm round: %s%n",
                    String.join(", ", perKind.entrySet().stream()
                            .map(e -> e.getKey() + " " + DetectionLagBench.pct(e.getValue(), 50) + " ms").toList()));
        }
        List<Long> fresh = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            long s = System.nanoTime();
            try (ReadinessGate gate = ReadinessGate.builder().probes(Probes.forUrls(Arrays.asList(urls))).build()) {
                ReadinessReport r = gate.await();
                if (!r.ready()) {
                    System.out.println(r.render());
                    System.exit(1);
                }
            }
            fresh.add((System.nanoTime() - s) / 1_000);
        }
        System.out.printf(Locale.ROOT, "  warm JVM, new gate + probes each time (10 rounds, incl. close): median %.1f ms, max %.1f ms%n",
                DetectionLagBench.pct(fresh, 50) / 1000.0, Collections.max(fresh) / 1000.0);
        System.exit(0);
    }

    private static String perTarget(ReadinessReport r) {
        return String.join(", ", r.results().stream()
                .map(x -> x.kind() + " " + x.elapsed().toMillis() + " ms").toList());
    }
}
