package dev.guard.examples.readme;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.guard.testing.NoLeakedProcesses;
import dev.guard.testing.RedisServer;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * A new worker made only from the README: its "Add it" coordinates, its worker class, its schema
 * file and its producer command, in a child JVM with the README's dependencies and nothing else
 * (no SLF4J provider among them). A job with a renamed field is logged with its reason and
 * dead-lettered with where it came from; SIGTERM prints the receipt; the exit code is 0.
 */
@ExtendWith(NoLeakedProcesses.class)
class ReadmeWorkerTest {

    private static final Path README = Markdown.root().resolve("README.md");
    private static final Path TARGET = Path.of(System.getProperty("user.dir"), "target");

    /** groupId:artifactId:version of each dependency in the README's "Add it" block. */
    static List<String> readmeCoordinates() {
        String xml = Markdown.firstAfter(README, "## Add it", "xml").text();
        Matcher m = Pattern.compile("<groupId>([^<]+)</groupId>\\s*<artifactId>([^<]+)</artifactId>\\s*<version>([^<]+)</version>")
                .matcher(xml);
        List<String> out = new ArrayList<>();
        while (m.find()) {
            out.add(m.group(1).trim() + ":" + m.group(2).trim() + ":" + m.group(3).trim());
        }
        return out;
    }

    @Test
    void theWorkersClassPathIsTheReadmesDependenciesAndNothingElse() throws Exception {
        // what maven-dependency-plugin resolved for this module's compile scope, e.g. "io.lettuce:lettuce-core:jar:6.8.1.RELEASE:compile"
        Pattern line = Pattern.compile("\\s*([^:\\s]+):([^:]+):jar:([^:]+):(compile|runtime).*");
        TreeSet<String> resolved = Files.readAllLines(TARGET.resolve("readme-dependencies.txt")).stream()
                .map(line::matcher).filter(Matcher::matches).map(x -> x.group(1) + ":" + x.group(2) + ":" + x.group(3))
                .collect(Collectors.toCollection(TreeSet::new));
        assertEquals(new TreeSet<>(readmeCoordinates()), resolved,
                "README.md's \"Add it\" block and examples/readme/pom.xml's compile scope must list the same dependencies");
        String classPath = Files.readString(TARGET.resolve("readme-classpath.txt"));
        assertTrue(!classPath.contains("slf4j-simple") && !classPath.contains("logback") && !classPath.contains("log4j-slf4j"),
                "no logging provider comes with the README's dependencies: " + classPath);
    }

    @Test
    void aWorkerMadeFromTheReadmeRunsDeadLettersARenamedFieldLoudlyAndDrainsOnSigterm(@TempDir Path dir) throws Exception {
        // 1. the worker's source and schema, as the README shows them
        String source = Markdown.firstAfter(README, "## A worker's `main`", "java").text();
        String schema = Markdown.firstAfter(README, "## A worker's `main`", "json").text();
        Matcher cls = Pattern.compile("public class (\\w+)").matcher(source);
        assertTrue(cls.find(), "the README's worker is a complete class");
        Matcher resource = Pattern.compile("\\.schema\\(\"[^\"]+\", \"([^\"]+)\"\\)").matcher(source);
        assertTrue(resource.find(), "the worker names its schema resource");
        assertTrue(Files.readString(README).contains("`src/main/resources/" + resource.group(1) + "`"),
                "the README says where the schema file goes");

        Path src = dir.resolve("src");
        Path classes = dir.resolve("classes");
        Files.createDirectories(src);
        Files.createDirectories(classes.resolve(resource.group(1)).getParent());
        Files.writeString(src.resolve(cls.group(1) + ".java"), source);
        Files.writeString(classes.resolve(resource.group(1)), schema);
        String classPath = Files.readString(TARGET.resolve("readme-classpath.txt")).trim();

        // 2. compiled as pasted, against the README's dependencies
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        ByteArrayOutputStream diagnostics = new ByteArrayOutputStream();
        int compiled = javac.run(null, diagnostics, diagnostics, "--release", "17", "-classpath", classPath,
                "-d", classes.toString(), src.resolve(cls.group(1) + ".java").toString());
        assertEquals(0, compiled, "the README's worker does not compile as pasted:\n" + diagnostics);

        // 3. run against a real Redis that keeps its queue on disk (the run refuses one that does not)
        try (RedisServer redis = RedisServer.builder().args("--appendonly", "yes").build().start();
             Closing closing = new Closing(RedisClient.create(redis.uri()))) {
            StatefulRedisConnection<String, String> conn = closing.client().connect();
            ProcessBuilder pb = new ProcessBuilder(System.getProperty("java.home") + "/bin/java", "-cp",
                    classes + File.pathSeparator + classPath, cls.group(1));
            Map<String, String> env = pb.environment();
            env.keySet().removeIf(k -> k.startsWith("GUARD_") || k.endsWith("_URL"));
            env.put("REDIS_URL", redis.uri());
            env.put("GUARD_GRACE_PERIOD", "10s");
            int healthPort = dev.guard.testing.FreePorts.next();
            env.put("GUARD_HEALTH_PORT", Integer.toString(healthPort));
            Process worker = pb.start();
            StringBuilder out = new StringBuilder();
            StringBuilder err = new StringBuilder();
            Thread o = pump(worker.getInputStream(), out);
            Thread e = pump(worker.getErrorStream(), err);
            try {
                // the README's producer: LPUSH, a valid job and the seeds' renamed field
                conn.sync().lpush("jobs", "{\"job_id\":\"j-2\",\"image\":\"s3://photos/dog.jpg\",\"width\":640}");
                // (guard's producer helper pushes the same way, on the left)
                dev.guard.queue.redis.CrashSafeListQueue.push(conn.sync(), "jobs",
                        "{\"id\":\"j-3\",\"image\":\"s3://photos/owl.jpg\",\"width\":480}");
                long until = System.nanoTime() + Duration.ofSeconds(60).toNanos();
                while ((conn.sync().llen("jobs:dead") < 1 || !text(out).contains("thumbnail of s3://photos/dog.jpg at 640 px"))
                        && System.nanoTime() < until && worker.isAlive()) {
                    Thread.sleep(100);
                }
                assertTrue(text(out).contains("thumbnail of s3://photos/dog.jpg at 640 px"), "stdout:\n" + out + "\nstderr:\n" + err);
                assertEquals(1, conn.sync().llen("jobs:dead"), "stderr:\n" + err);
                java.net.http.HttpResponse<String> ready = java.net.http.HttpClient.newHttpClient().send(
                        java.net.http.HttpRequest.newBuilder(java.net.URI.create("http://127.0.0.1:" + healthPort + "/readyz")).build(),
                        java.net.http.HttpResponse.BodyHandlers.ofString());
                assertEquals(200, ready.statusCode(), "GUARD_HEALTH_PORT serves /readyz while the worker takes jobs");

                worker.toHandle().destroy();   // SIGTERM (Process.destroy() would also close the pipes we read)
                assertTrue(worker.waitFor(30, TimeUnit.SECONDS), "the worker did not stop on SIGTERM:\n" + err);
            } finally {
                worker.destroyForcibly();
                o.join(5000);
                e.join(5000);
            }
            String log = text(err);
            assertEquals(0, worker.exitValue(), log);

            // guard was loud without a logging provider: the hint once, then its own lines
            assertTrue(log.contains("guard: no SLF4J provider is bound"), log);
            assertTrue(log.contains("schema self-test: job type 'thumbnail'") && log.contains("1 example(s) accepted"), log);
            assertTrue(log.contains("job_id missing, id present: renamed by the producer?"), "the rejected job and its reason:\n" + log);
            Matcher receipt = Pattern.compile("guard drain receipt: worker=\\S+ reason=SIGTERM received=2 processed=1 rejected=1"
                    + " failed=0 handed_back=0 hand_back_failed=0 drain_ms=\\d+ exit=0").matcher(log);
            assertTrue(receipt.find(), "the receipt, in the ledger's words:\n" + log);
            assertTrue(log.contains("received=2 processed=1 rejected=1 failed=0 handed_back=0"), "the ledger:\n" + log);

            // the dead letter says what and where
            JsonNode letter = new ObjectMapper().readTree(conn.sync().lindex("jobs:dead", 0));
            assertEquals("redis", letter.at("/source/broker").asText(), letter.toString());
            assertEquals("jobs", letter.at("/source/queue").asText(), letter.toString());
            assertTrue(letter.toString().contains("renamed by the producer?"), letter.toString());
            assertEquals(0, conn.sync().llen("jobs"), "nothing left behind");
            conn.close();
        }
    }

    /** Shuts the test's own Redis client down. */
    private record Closing(RedisClient client) implements AutoCloseable {
        @Override
        public void close() {
            client.shutdown();
        }
    }

    private static String text(StringBuilder sb) {
        synchronized (sb) {
            return sb.toString();
        }
    }

    private static Thread pump(InputStream in, StringBuilder into) {
        Thread t = new Thread(() -> {
            byte[] buf = new byte[8192];
            try {
                for (int n; (n = in.read(buf)) > 0; ) {
                    synchronized (into) {
                        into.append(new String(buf, 0, n, StandardCharsets.UTF_8));
                    }
                }
            } catch (java.io.IOException ignored) {
                // the process ended
            }
        }, "readme-worker-pump");
        t.setDaemon(true);
        t.start();
        return t;
    }
}
