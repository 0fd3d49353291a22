package dev.guard.init.diagnose;

import dev.guard.testing.MachineServices;
import dev.guard.testing.RedisServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Builds the diagnose scenarios whose client texts come from the real Java clients (lettuce,
 * amqp-client, jnats, kafka-clients) run against a closed port, an unknown host, a wrong password
 * on the machine's RabbitMQ and a really loading Redis, plus the real redis-server's own log of a
 * mid-load kill. {@link #main} writes them under {@code src/test/resources/diagnose/}
 * ({@code *-captured}); {@link RealClientTextsTest} rebuilds them live and checks the stored
 * files still hold what the clients say.
 *
 * <p>The ephemeral port of the closed port is written as the service's usual port (6379, 5672,
 * 4222, 9092); where a scenario needs the service's own name, {@code localhost} in the real text
 * is replaced by it (the rest of the text is the client's).
 */
final class CapturedScenarios {
    static final Instant T0 = Instant.parse("2026-11-30T02:00:00.000000123Z");
    static final String SUFFIX = "-captured";
    /** Hang guard for the rest of the load after the release (under a second unloaded). */
    static final Duration LOADED_BOUND = Duration.ofSeconds(120);

    /** A scenario: files (name to lines), the expected cause line, extra CLI args. */
    record Scenario(String name, Map<String, List<String>> files, String expected, List<String> args, String source) {}

    private CapturedScenarios() {}

    /** Runs every client and builds every scenario; the loading Redis is started and closed here. */
    static List<Scenario> build() {
        List<Scenario> out = new ArrayList<>();
        int closed = RealClientTexts.closedPort();

        List<String> lettuceLocal = normalise(RealClientTexts.lettuce("localhost", closed), closed, 6379);
        out.add(scenario("compose-lettuce-localhost-drift", Map.of("worker.log", attempts(lettuceLocal, 12, 2.0, List.of())),
                "env-drift", List.of("--endpoint", "redis:6379"), "lettuce-core RedisClient.connect() to localhost:<closed port>"));
        List<String> lettuceDns = RealClientTexts.lettuce(RealClientTexts.UNKNOWN_HOST, 6379);
        out.add(scenario("k8s-lettuce-unknown-host-drift", Map.of("worker.log", attempts(lettuceDns, 8, 3.0, List.of())),
                "env-drift", List.of("--endpoint", "redis:6379"), "lettuce-core RedisClient.connect() to " + RealClientTexts.UNKNOWN_HOST));
        List<String> lettuceSvc = service(lettuceLocal, "redis");
        out.add(scenario("compose-lettuce-race", Map.of("worker.log", attempts(lettuceSvc, 4, 0.5, jobs(12))),
                "startup-race", List.of("--endpoint", "redis:6379"), "lettuce-core, localhost replaced by the service name redis"));
        out.add(scenario("k8s-lettuce-down", Map.of("worker.log", attempts(lettuceSvc, 20, 3.0, List.of())),
                "dependency-down", List.of("--endpoint", "redis:6379"), "lettuce-core, localhost replaced by the service name redis"));

        List<String> amqpRefused = normalise(RealClientTexts.amqp("localhost", closed, "guest", "guest"), closed, 5672);
        List<String> bootLocal = List.of("INFO worker - connecting to amqp://guest:guest@localhost:5672/%2F");
        List<String> bootSvc = List.of("INFO worker - connecting to amqp://guest:guest@rabbitmq:5672/%2F");
        out.add(scenario("compose-amqp-client-refused-boot-localhost", Map.of("worker.log", boot(bootLocal, attempts(amqpRefused, 10, 2.0, List.of()))),
                "env-drift", List.of("--endpoint", "rabbitmq:5672"), "amqp-client ConnectionFactory.newConnection() to localhost:<closed port>"));
        out.add(scenario("k8s-amqp-client-refused-race", Map.of("worker.log", boot(bootSvc, attempts(amqpRefused, 3, 1.0, jobs(10)))),
                "startup-race", List.of("--endpoint", "rabbitmq:5672"), "amqp-client ConnectionFactory.newConnection() to a closed port"));
        URI rabbit = URI.create(MachineServices.amqpUri());
        List<String> access = RealClientTexts.amqp(rabbit.getHost(), rabbit.getPort() < 0 ? 5672 : rabbit.getPort(), "guest",
                "wrongpw");
        out.add(scenario("compose-amqp-client-access-refused", Map.of("worker.log", boot(bootSvc, attempts(access, 5, 5.0, List.of()))),
                "env-drift", List.of("--endpoint", "rabbitmq:5672"), "amqp-client against the machine's RabbitMQ, guest/wrongpw"));

        List<String> natsLocal = normalise(RealClientTexts.jnats("localhost", closed), closed, 4222);
        out.add(scenario("k8s-jnats-localhost-drift", Map.of("worker.log", attempts(natsLocal, 10, 2.0, List.of())),
                "env-drift", List.of("--endpoint", "nats:4222"), "jnats Nats.connect() to localhost:<closed port>"));
        List<String> natsDns = RealClientTexts.jnats(RealClientTexts.UNKNOWN_HOST, 4222);
        out.add(scenario("compose-jnats-unknown-host-drift", Map.of("worker.log", attempts(natsDns, 10, 2.0, List.of())),
                "env-drift", List.of("--endpoint", "nats:4222"), "jnats Nats.connect() to " + RealClientTexts.UNKNOWN_HOST));
        out.add(scenario("compose-jnats-race", Map.of("worker.log", attempts(service(natsLocal, "nats"), 3, 1.0, jobs(8))),
                "startup-race", List.of("--endpoint", "nats:4222"), "jnats, localhost replaced by the service name nats"));

        List<String> kafkaLocal = normalise(RealClientTexts.kafka("localhost", closed), closed, 9092);
        out.add(scenario("k8s-kafka-clients-localhost-drift", Map.of("worker.log", attempts(kafkaLocal, 6, 3.0, List.of())),
                "env-drift", List.of("--endpoint", "kafka:9092"), "kafka-clients Admin.describeCluster() to localhost:<closed port>"));
        out.add(scenario("compose-kafka-clients-race", Map.of("worker.log", attempts(service(kafkaLocal, "kafka"), 2, 2.0, jobs(10))),
                "startup-race", List.of("--endpoint", "kafka:9092"), "kafka-clients, localhost replaced by the service name kafka"));

        // held in LOADING until released below, so lettuce meets a loading Redis and the kill lands
        // mid-load however slowly this machine runs
        try (RedisServer redis = RedisServer.builder().heldLoading().build().startLoading()) {
            List<String> loading = RealClientTexts.lettuceLoading(redis.uri());
            out.add(scenario("compose-lettuce-loading-first-seconds", Map.of("worker.log", attempts(loading, 3, 0.7, jobs(10))),
                    "startup-race", List.of(), "lettuce-core PING against a redis-server that answers -LOADING"));
            out.add(scenario("k8s-lettuce-loading-every-attempt", Map.of("worker.log", attempts(loading, 30, 2.0, List.of())),
                    "redis-loading", List.of(), "lettuce-core PING against a redis-server that answers -LOADING"));
            // kill it mid-load and start it again: its own log shows two starts without a ready between
            redis.kill();
            redis.startLoading();
            redis.finishLoading();
            redis.awaitLoaded(LOADED_BOUND);
            List<String> serverLog = Files.readAllLines(redis.logFile(), StandardCharsets.UTF_8);
            Map<String, List<String>> files = new LinkedHashMap<>();
            files.put("worker.log", attempts(loading, 20, 1.0, List.of()));
            files.put("redis.log", serverLog);
            out.add(scenario("compose-redis-killed-mid-load", files, "oom-or-probe-kill", List.of(),
                    "lettuce-core PING against a loading redis-server; redis.log is that redis-server's own log "
                            + "(populate, SIGTERM, start loading, SIGKILL mid-load, start loading, ready)"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out;
    }

    private static Scenario scenario(String name, Map<String, List<String>> files, String cause, List<String> args,
            String source) {
        return new Scenario(name + SUFFIX, files, "cause: " + cause, args, source);
    }

    /** The ephemeral closed port written as the service's usual port. */
    static List<String> normalise(List<String> lines, int port, int usual) {
        return lines.stream().map(l -> l.replace(":" + port, ":" + usual).replace(", " + port + ")", ", " + usual + ")"))
                .toList();
    }

    /** localhost in the client's text replaced by the service name (and 127.0.0.1 by a cluster address). */
    static List<String> service(List<String> lines, String name) {
        return lines.stream().map(l -> l.replace("localhost/127.0.0.1", name + "/10.96.0.12")
                .replace("localhost", name)).toList();
    }

    /** {@code attempts} repetitions of the client's text, {@code every} seconds apart, then the lines after. */
    static List<String> attempts(List<String> text, int attempts, double every, List<String> after) {
        List<String> out = new ArrayList<>();
        double t = 0.5;
        for (int i = 0; i < attempts; i++) {
            String first = "ERROR worker - attempt " + (i + 1) + " failed";
            out.add(stamp(t) + " " + first);
            for (String l : text) {
                out.add(stamp(t) + " " + l);
            }
            t += every;
        }
        for (String l : after) {
            out.add(stamp(t) + " " + l);
            t += 0.05;
        }
        return out;
    }

    static List<String> boot(List<String> bootLines, List<String> rest) {
        List<String> out = new ArrayList<>();
        bootLines.forEach(l -> out.add(stamp(0.1) + " " + l));
        out.addAll(rest);
        return out;
    }

    static List<String> jobs(int n) {
        List<String> out = new ArrayList<>();
        for (int i = 1; i <= n; i++) {
            out.add("INFO worker - job c-" + i + " received");
            out.add("INFO worker - job c-" + i + " processed");
        }
        return out;
    }

    private static String stamp(double seconds) {
        return T0.plusMillis(Math.round(seconds * 1000)).toString();
    }

    /** Writes the scenarios as directories under root (expected, args, SOURCES.md, the files). */
    static void write(List<Scenario> scenarios, Path root) throws IOException {
        for (Scenario s : scenarios) {
            Path dir = root.resolve(s.name());
            Files.createDirectories(dir);
            for (Map.Entry<String, List<String>> f : s.files().entrySet()) {
                Files.write(dir.resolve(f.getKey()), f.getValue(), StandardCharsets.UTF_8);
            }
            Files.writeString(dir.resolve("expected"), s.expected() + "\n");
            if (!s.args().isEmpty()) {
                Files.write(dir.resolve("args"), s.args());
            } else {
                Files.deleteIfExists(dir.resolve("args"));
            }
            Files.writeString(dir.resolve("SOURCES.md"), "# " + s.name() + "\n\nCaptured from the real client by "
                    + "dev.guard.init.diagnose.CapturedScenarios (regenerate: run its main from guard-init):\n\n- "
                    + s.source() + "\n");
        }
    }

    /** Regenerates the stored scenarios: {@code main(guard-init/src/test/resources/diagnose)}. */
    public static void main(String[] args) throws IOException {
        Path root = Path.of(args.length > 0 ? args[0] : "guard-init/src/test/resources/diagnose");
        write(build(), root);
    }
}
