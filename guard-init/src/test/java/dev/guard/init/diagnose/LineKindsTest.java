package dev.guard.init.diagnose;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The kind of each line is decided before its words are read. The texts are real client output
 * from the capture corpus ({@code src/test/resources/diagnose-corpus}, made by
 * {@code src/test/corpus/capture-all.sh}), read from its files, not written here.
 */
class LineKindsTest {

    /** The corpus file's lines without their {@code kubectl/docker --timestamps} prefix. */
    static List<String> lines(String scenario, String file) throws IOException {
        Path p = CorpusScenariosTest.root().resolve(scenario).resolve(file);
        List<String> out = new ArrayList<>();
        for (String l : Files.readAllLines(p, StandardCharsets.UTF_8)) {
            Stamps.Stamp s = Stamps.prefix(l);
            out.add(s == null ? l : l.substring(s.length() + 1));
        }
        return out;
    }

    /** Each line with its kind, read in order by one reader as the intake does. */
    static Map<Integer, LineKind> kinds(List<String> lines) {
        LineKinds k = new LineKinds();
        Map<Integer, LineKind> out = new LinkedHashMap<>();
        for (int i = 0; i < lines.size(); i++) {
            out.put(i, k.of(lines.get(i)));
        }
        return out;
    }

    @Test
    void aKafkaClientsConfigurationDumpIsSettingsNotTimeouts() throws IOException {
        for (String scenario : List.of("compose-kafka-clients-2.8.2-healthy", "k8s-kafka-clients-3.7.1-healthy",
                "compose-kafka-clients-4.0.0-healthy")) {
            List<String> lines = lines(scenario, "worker.log");
            Map<Integer, LineKind> kinds = kinds(lines);
            int settings = 0;
            for (int i = 0; i < lines.size(); i++) {
                String l = lines.get(i);
                if (l.startsWith("\t") && l.contains(" = ")) {
                    assertEquals(LineKind.SETTING, kinds.get(i), scenario + ": " + l);
                    settings++;
                } else {
                    assertEquals(LineKind.EVENT, kinds.get(i), scenario + ": " + l);
                }
            }
            // the dump holds the words that were read as failures: connect timeouts, "timeout.ms"
            assertTrue(settings > 50, scenario + ": " + settings + " settings");
            assertTrue(lines.stream().anyMatch(l -> l.contains("socket.connection.setup.timeout.ms = ")), scenario);
        }
    }

    @Test
    void aPythonTracebacksFramesAndQuotedCodeAreNotEvents() throws IOException {
        List<String> lines = lines("k8s-redis-py-4.3.4-refused-down", "worker.log");
        Map<Integer, LineKind> kinds = kinds(lines);
        int frames = 0;
        int source = 0;
        for (int i = 0; i < lines.size(); i++) {
            String l = lines.get(i);
            if (l.startsWith("  File \"")) {
                assertEquals(LineKind.FRAME, kinds.get(i), l);
                frames++;
            } else if (l.startsWith("    ")) {
                assertEquals(LineKind.SOURCE, kinds.get(i), l);
                source++;
            } else {
                // the exception lines themselves ("redis.exceptions.ConnectionError: Error 111 ...") are events
                assertEquals(LineKind.EVENT, kinds.get(i), l);
            }
        }
        assertTrue(frames > 10 && source > 10, frames + " frames, " + source + " quoted lines");
    }

    @Test
    void javaStackFramesAreFramesAndTheirChainLinesEvents() throws IOException {
        List<String> lines = lines("k8s-lettuce-7.2.3-refused-down", "worker.log");
        Map<Integer, LineKind> kinds = kinds(lines);
        boolean sawCause = false;
        for (int i = 0; i < lines.size(); i++) {
            String l = lines.get(i);
            if (l.startsWith("\tat ") || l.matches("\t\\.\\.\\. \\d+ more")) {
                assertEquals(LineKind.FRAME, kinds.get(i), l);
            } else {
                sawCause |= l.startsWith("Caused by:");
                assertEquals(LineKind.EVENT, kinds.get(i), l);
            }
        }
        assertTrue(sawCause);
    }

    @Test
    void locationsOfOtherLanguagesAreFramesAndTheirMessagesEvents() {
        // shapes as Ruby, PHP, Node and Go print them; the message lines around them stay events
        LineKinds k = new LineKinds();
        assertEquals(LineKind.FRAME, k.of("/usr/share/rubygems-integration/all/gems/redis-4.8.0/lib/redis/client.rb:398:in `rescue in establish_connection'"));
        assertEquals(LineKind.FRAME, k.of("\tfrom /app/worker.rb:12:in 'Worker#run'"));
        assertEquals(LineKind.EVENT, k.of("/app/worker.rb:10:in 'connect': Error connecting to Redis on redis:6379 (Errno::ECONNREFUSED) (Redis::CannotConnectError)"));
        assertEquals(LineKind.FRAME, k.of("#0 /app/worker.php(44): Redis->connect('redis', 6379, 2)"));
        assertEquals(LineKind.FRAME, k.of("#1 {main}"));
        assertEquals(LineKind.FRAME, k.of("    at TCPConnectWrap.afterConnect [as oncomplete] (node:net:1555:16)"));
        assertEquals(LineKind.FRAME, k.of("/app/node_modules/ioredis/built/redis/event_handler.js:189"));
        assertEquals(LineKind.SOURCE, k.of("        self.flushQueue(new Error(CONNECTION_CLOSED_ERROR_MSG));"));
        assertEquals(LineKind.SOURCE, k.of("                        ^"));
        assertEquals(LineKind.EVENT, k.of(""));
        assertEquals(LineKind.EVENT, k.of("Error: Connection is closed."));
        assertEquals(LineKind.FRAME, k.of("\t/usr/share/gocode/src/github.com/gomodule/redigo/redis/conn.go:123 +0x1d"));
        assertEquals(LineKind.EVENT, k.of("2026/12/07 08:00:00 attempt 1 failed, retrying in 1s: dial tcp 10.77.0.2:6379: connect: connection refused"));
        // a dotted setting outside a dump block, and one that is a message
        assertEquals(LineKind.SETTING, k.of("\tsocket.connection.setup.timeout.ms = 10000"));
        assertEquals(LineKind.EVENT, k.of("\tconnect timed out after timeout = 2s"));
    }

    @Test
    void aRubyBacktraceIsFramesUnderTheLoggersEvents() throws IOException {
        // redis-rb 4.8.0 (Debian) logged by Ruby's Logger: the message, then the backtrace joined by newlines
        List<String> lines = lines("compose-redis-rb-4.8.0-refused-down", "worker.log");
        Map<Integer, LineKind> kinds = kinds(lines);
        int frames = 0;
        for (int i = 0; i < lines.size(); i++) {
            String l = lines.get(i);
            if (l.startsWith("/") && l.contains(".rb:")) {
                assertEquals(LineKind.FRAME, kinds.get(i), l);
                frames++;
            } else {
                assertTrue(l.startsWith("I, [") || l.startsWith("E, ["), l);
                assertEquals(LineKind.EVENT, kinds.get(i), l);
            }
        }
        assertTrue(frames > 20, frames + " frames");
    }

    @Test
    void aMonologJobLineIsReadWithoutItsContextSuffix() throws IOException {
        // phpredis 5.3.7 with Monolog 2.9's default LineFormatter: "... worker.INFO: job j-01 received [] []"
        List<String> lines = lines("compose-phpredis-5.3.7-healthy", "worker.log");
        List<String> jobs = lines.stream().filter(l -> l.contains(" received [] []")).toList();
        assertEquals(12, jobs.size(), lines.toString());
        for (String l : jobs) {
            assertTrue(LineKinds.message(l).matches("job j-\\d\\d received"), l + " -> " + LineKinds.message(l));
        }
        String error = lines("compose-phpredis-5.3.7-refused-down", "worker.log").stream()
                .filter(l -> l.contains("worker.ERROR")).findFirst().orElseThrow();
        assertEquals("attempt 1 failed, retrying in 1s", LineKinds.message(error), error);
        Intake in = new Intake();
        LogReader.read(String.join("\n", lines), "worker.log", in);
        assertEquals(12, in.groups().get("worker").received.count);
        assertEquals(12, in.groups().get("worker").processed.count);
    }

    @Test
    void aPinoJsonLineIsReadAsItsLevelErrorAndMessageWithoutTheStack() throws IOException {
        // ioredis 6.1.0 with pino 10 (npm registry): one JSON object per line
        List<String> healthy = lines("k8s-ioredis-6.1.0-healthy", "worker.log");
        String job = healthy.stream().filter(l -> l.startsWith("{") && l.contains("received")).findFirst().orElseThrow();
        assertTrue(LineKinds.flatten(job).matches("INFO job j-\\d\\d received"), LineKinds.flatten(job));
        String error = lines("k8s-ioredis-6.1.0-refused-down", "worker.log").stream()
                .filter(l -> l.startsWith("{\"level\":50")).findFirst().orElseThrow();
        String flat = LineKinds.flatten(error);
        assertTrue(error.contains("\\n    at "), "the stack is in the line: " + error);
        assertTrue(flat.startsWith("ERROR ") && flat.endsWith("attempt 1 failed, retrying in 1s"), flat);
        assertTrue(!flat.contains(" at ") && !flat.contains("hostname") && !flat.contains("pid="), flat);
        // a line that only looks like JSON is read as it is
        assertEquals("{not json}", LineKinds.flatten("{not json}"));
        Intake in = new Intake();
        LogReader.read(String.join("\n", healthy), "worker.log", in);
        assertEquals(12, in.groups().get("worker").received.count);
    }

    @Test
    void aTimeoutNamedAsASettingInAnEventIsNoTimeout() {
        // Sidekiq 6.4.1's boot line, as captured (k8s-sidekiq-6.4.1-healthy)
        assertTrue(ConnectionShape.onlyTimeoutSettings(
                "INFO: Booting Sidekiq 6.4.1 with redis options {:url=>\"redis://redis:6379/0\", :connect_timeout=>2}"));
        assertTrue(ConnectionShape.onlyTimeoutSettings("Redis(socket_connect_timeout=2, socket_timeout=None)"));
        assertTrue(ConnectionShape.onlyTimeoutSettings("{\"connectTimeout\":2000,\"host\":\"redis\"}"));
        // timeouts that happened, even beside a setting
        assertTrue(!ConnectionShape.onlyTimeoutSettings("Connection timeout: 2000ms exceeded to redis:6379"));
        assertTrue(!ConnectionShape.onlyTimeoutSettings("connect timed out (connect_timeout=2)"));
        assertTrue(!ConnectionShape.onlyTimeoutSettings("[Connection] Connection timeout"));
        assertTrue(!ConnectionShape.onlyTimeoutSettings("Error: connect ETIMEDOUT 10.77.0.2:6379"));
        // and Go's resolver names the host it looked up, not the DNS server it asked
        assertEquals("redis-primary", ConnectionShape.target(
                "2026/12/07 09:06:07 attempt 1 failed, retrying in 1s: dial tcp: lookup redis-primary on 10.77.0.2:53: no such host")[0]);
    }
}
