package dev.guard.queue.redis;

import io.lettuce.core.RedisFuture;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/** Small helpers shared by the queues. */
final class Redis {

    private Redis() {}

    /** Waits at most {@code max} for a command, whatever the client's own timeout. */
    static <T> T await(RedisFuture<T> future, Duration max) throws TimeoutException, ExecutionException, InterruptedException {
        return future.get(max.toNanos(), TimeUnit.NANOSECONDS);
    }

    /** BRPOP/BLMOVE timeouts are seconds as a double; at least 1 ms. */
    static double seconds(Duration d) {
        return Math.max(0.001, d.toNanos() / 1e9);
    }

    static String defaultWorkerId() {
        String host = System.getenv("HOSTNAME");
        if (host == null || host.isBlank()) {
            String jvm = ManagementFactory.getRuntimeMXBean().getName(); // pid@host
            host = jvm.contains("@") ? jvm.substring(jvm.indexOf('@') + 1) : "host";
        }
        return host + "-" + ProcessHandle.current().pid();
    }

    static String describe(Throwable e) {
        Throwable t = e instanceof ExecutionException && e.getCause() != null ? e.getCause() : e;
        String msg = t.getMessage();
        return dev.guard.config.Redaction.maskText(t.getClass().getSimpleName() + (msg == null ? "" : ": " + msg));
    }
}
