package dev.guard.spring;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.guard.testing.Patience;
import dev.guard.testing.RedisServer;
import java.time.Duration;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What an operator sees: a Spring Boot worker started as a process with a real environment in
 * which the backend's {@code REDIS_URL} is set and the worker reads {@code CACHE_URL}. Spring
 * Boot's own failure report carries guard's Description and Action, no stack trace, and the
 * process exits 78 (EX_CONFIG), as guard-init does.
 */
class SpringFailureReportTest {

    @Test
    void aDriftedRedisUrlPrintsDescriptionAndActionAndExits78(@TempDir Path dir) throws Exception {
        Path yaml = dir.resolve("application.yml");
        Files.writeString(yaml, """
                spring:
                  data:
                    redis:
                      url: ${CACHE_URL:redis://localhost:6379}
                guard:
                  brokers: redis
                """);
        Path out = dir.resolve("out.txt");
        ProcessBuilder pb = SpringApps.process(SpringWorkerMain.class, out, "--spring.config.location=file:" + yaml);
        pb.environment().remove("CACHE_URL");
        pb.environment().put("REDIS_URL", "redis://:s3cret-pass@redis:6379");
        pb.environment().put("KUBERNETES_SERVICE_HOST", "10.96.0.1");
        Process p = pb.start();
        assertTrue(p.waitFor(Patience.PROCESS.toSeconds(), TimeUnit.SECONDS), "the worker did not exit");
        String text = Files.readString(out, StandardCharsets.UTF_8);
        System.out.println(text);
        assertEquals(78, p.exitValue(), text);
        List<String> lines = text.lines().toList();
        assertTrue(lines.stream().anyMatch(l -> l.strip().equals("APPLICATION FAILED TO START")), text);
        int description = lines.indexOf("Description:");
        int action = lines.indexOf("Action:");
        assertTrue(description >= 0 && action > description, text);
        String d = String.join("\n", lines.subList(description, action));
        assertTrue(d.contains("NAME_DRIFT CACHE_URL: CACHE_URL is not set (read by spring.data.redis.url); REDIS_URL is set"
                + " (redis://:****@redis:6379)"), d);
        assertTrue(d.contains("LOOPBACK spring.data.redis.url"), d);
        assertTrue(d.contains("application.yml] - 4:"), d);
        assertTrue(String.join("\n", lines.subList(action, lines.size())).contains("- CACHE_URL: set CACHE_URL"), text);
        assertFalse(text.contains("s3cret-pass"), "a password was printed:\n" + text);
        assertFalse(text.contains("\tat dev.guard"), "a stack trace was printed:\n" + text);
        assertFalse(text.contains("worker started"), text);
    }

    @Test
    void sigtermWhileTheGateWaitsEndsTheStartAtOnce(@TempDir Path dir) throws Exception {
        try (RedisServer redis = RedisServer.builder().preloadKeys(40_000).heldLoading().build().startLoading()) {
            Path yaml = dir.resolve("application.yml");
            Files.writeString(yaml, "spring.data.redis.url: redis://127.0.0.1:" + redis.port()
                    + "\nguard.brokers: redis\nguard.wait.deadline: 5m\nguard.config.in-container: false\n");
            Path out = dir.resolve("out.txt");
            // the test waits for guard's own line, whatever logging config the class path brings
            Process p = SpringApps.process(SpringWorkerMain.class, out,
                    "--spring.config.location=file:" + yaml, "--logging.level.dev.guard=INFO").start();
            try {
                long until = System.nanoTime() + Patience.PROCESS.toNanos();
                while (!Files.readString(out).contains("guard: waiting up to 300s") && p.isAlive() && System.nanoTime() < until) {
                    Thread.sleep(20);
                }
                assertTrue(Files.readString(out).contains("guard: waiting up to 300s"), Files.readString(out));
                long sent = System.nanoTime();
                p.destroy(); // SIGTERM
                assertTrue(p.waitFor(Patience.PROCESS.toSeconds(), TimeUnit.SECONDS), "the worker did not exit on SIGTERM");
                Duration took = Duration.ofNanos(System.nanoTime() - sent);
                String text = Files.readString(out);
                System.out.println("exit " + p.exitValue() + " " + took.toMillis() + " ms after SIGTERM\n" + text);
                assertEquals(143, p.exitValue(), text);
                assertTrue(redis.isLoading(), "the load ended on its own: the test proves nothing");
                assertTrue(took.compareTo(Duration.ofSeconds(30)) < 0, "SIGTERM took " + took + " to end the wait:\n" + text);
            } finally {
                p.destroyForcibly();
            }
        }
    }
}
