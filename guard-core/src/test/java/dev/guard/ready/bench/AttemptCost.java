package dev.guard.ready.bench;

import dev.guard.ready.Probe;
import dev.guard.ready.ProbeResult;
import dev.guard.ready.ProbeState;
import dev.guard.ready.Probes;
import dev.guard.testing.RedisServer;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.Locale;

/**
 * CPU cost of one Redis readiness attempt in the waiting process: against a server held in
 * LOADING (PING answered -LOADING, INFO persistence beside it) and against a ready one (PING,
 * PONG). Per attempt: this thread's CPU time and the whole process's (lettuce's event loop
 * included), and the wall time. A fleet of gates on one core can make about 1 / (process CPU
 * per attempt) attempts a second.
 *
 * <p>The LOADING attempts are measured twice: "cold" while the JIT still compiles their path (its C2
 * thread takes about half of the process's CPU then, async-profiler), "warm" after. 2026-12-02, quiet
 * 2 cores, JDK 17: a LOADING attempt 808-1304 us cold, 488-596 us warm of process CPU (114-176 us on the calling
 * thread; the rest is lettuce's event loop, context switches, and exceptions' stack traces), a READY
 * one 76-86 us (two runs). 500 gates making a few attempts each in the last 40 ms of a load need more than one
 * core for that alone (FleetBench).
 *
 * <pre>
 * java -cp guard-core/target/test-classes:guard-core/target/classes:$(cat guard-core/target/bench.cp) \
 *     dev.guard.ready.bench.AttemptCost [attempts=20000]
 * </pre>
 */
public final class AttemptCost {

    private AttemptCost() {}

    public static void main(String[] args) throws Exception {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 20_000;
        // a million keys at 20 us each: about 20 s of LOADING, and Redis answers every 1024 bytes (well under 1 ms)
        try (RedisServer redis = RedisServer.builder().preloadKeys(1_000_000).build().startLoading()) {
            try (Probe probe = Probes.redis(redis.uri())) {
                measure("loading (PING -LOADING + INFO), cold", probe, Math.min(n, 2_400), ProbeState.LOADING);
                measure("loading (PING -LOADING + INFO), warm", probe, Math.min(n, 2_400), ProbeState.LOADING);
                redis.finishLoading();
                redis.awaitLoaded(Duration.ofSeconds(120));
                measure("ready (PING PONG)", probe, n, ProbeState.READY);
            }
        }
    }

    private static void measure(String what, Probe probe, int n, ProbeState expected) {
        var threads = ManagementFactory.getThreadMXBean();
        var os = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        for (int i = 0; i < n / 4; i++) { // warm-up
            probe.check(Duration.ofSeconds(5));
        }
        long w0 = System.nanoTime();
        long t0 = threads.getCurrentThreadCpuTime();
        long p0 = os.getProcessCpuTime();
        for (int i = 0; i < n; i++) {
            ProbeResult r = probe.check(Duration.ofSeconds(5));
            if (r.state() != expected) {
                throw new IllegalStateException(what + ": attempt " + i + " found " + r.summary()
                        + " (a load that ended too soon: use fewer attempts)");
            }
        }
        long p1 = os.getProcessCpuTime();
        long t1 = threads.getCurrentThreadCpuTime();
        long w1 = System.nanoTime();
        System.out.printf(Locale.ROOT, "%-32s %d attempts: process CPU %.1f us/attempt, this thread %.1f us, wall %.1f us%n",
                what, n, (p1 - p0) / 1e3 / n, (t1 - t0) / 1e3 / n, (w1 - w0) / 1e3 / n);
    }
}
