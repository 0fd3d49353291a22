package dev.guard.init.diagnose;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Reading captured files: line endings, prefixes, timestamps, kinds, group names, long lines. Pure logic. */
class LogReaderTest {

    private static Intake read(String text, String name) {
        Intake in = new Intake();
        LogReader.read(text, name, in);
        return in;
    }

    @Test
    void crlfComposePrefixesAndDockerTimestampsAreTakenOff() {
        String text = "worker-1  | 2026-11-30T02:00:01.123456789Z job 7 received\r\n"
                + "redis-1   | 2026-11-30T02:00:00.000000001Z 1:M 30 Nov 2026 02:00:00.000 * Ready to accept connections tcp\r\n";
        Intake in = read(text, "compose.log");
        List<FileSummary> s = in.files();
        assertEquals(2, s.size());
        assertEquals("worker-1", s.get(0).service());
        assertEquals(LogKind.APPLICATION.label(), s.get(0).kind());
        assertEquals(LogKind.REDIS_SERVER.label(), s.get(1).kind());
        LogLine w = in.groups().get("worker").received.first(in.groups().get("worker")).s().line();
        assertEquals("worker-1", w.service());
        assertEquals("job 7 received", w.text());
        assertEquals(Instant.parse("2026-11-30T02:00:01.123456789Z"), w.time());
        Group redis = in.groups().get("redis");
        assertEquals(2, redis.timeline.runs().get(0).first.s().line().number());
    }

    @Test
    void applicationAndRedisTimestampsAreReadWhenThereIsNoDockerOne() {
        assertEquals(Instant.parse("2026-11-30T02:00:01.250Z"), Stamps.timeOf(null, "2026-11-30 02:00:01,250 ERROR worker: boom"));
        assertEquals(Instant.parse("2026-11-30T02:00:04.212Z"),
                Stamps.timeOf(null, "1:M 30 Nov 2026 02:00:04.212 * DB loaded from disk: 4.108 seconds"));
        assertNull(Stamps.timeOf(null, "no time here"));
        assertNull(Stamps.timeOf(null, "2026-11-30 02:00:01+99:00 an offset no zone has"));
        assertEquals(1, read("2026-11-30 02:00:01,250 job 1 received\nno time\n", "w.log").files().get(0).timestamps());
    }

    @Test
    void pipesInsideAnApplicationLineAreNotComposePrefixes() {
        Intake in = read("2026-11-30 02:00:01.250 | INFO     | worker:run:12 - job 1 received\n", "w.log");
        assertNull(in.files().get(0).service());
        assertEquals(1, in.groups().get("w").received.count);
    }

    @Test
    void kindsAreToldFromContent() {
        assertEquals(LogKind.KUBECTL_GET_POD, LogReader.detect(List.of("NAME   READY   STATUS    RESTARTS   AGE", "w-1 1/1 Running 0 1m")));
        assertEquals(LogKind.KUBECTL_DESCRIBE, LogReader.detect(List.of("Name:         redis-0", "Namespace:    jobs")));
        assertEquals(LogKind.KUBECTL_EVENTS, LogReader.detect(List.of("LAST SEEN   TYPE      REASON   OBJECT   MESSAGE")));
        assertEquals(LogKind.COMPOSE_PS, LogReader.detect(List.of("NAME  IMAGE  COMMAND  SERVICE  CREATED  STATUS  PORTS")));
        assertEquals(LogKind.BROKER_SERVER, LogReader.detect(List.of("[1] 2026/11/30 02:00:00.000000 [INF] Starting nats-server")));
        assertEquals(LogKind.EMPTY.label(), read("\n\n", "x").files().get(0).kind());
    }

    @Test
    void groupNamesDropPreviousSuffixesPodHashesAndReplicaNumbers() {
        assertEquals("worker", Intake.groupName("/tmp/worker-previous.log"));
        assertEquals("worker", Intake.groupName("worker-7c9d8f5b6-x2k4m"));
        assertEquals("worker", Intake.groupName("/tmp/capture/worker-7c9d8f5b6-x2k4m-previous.log"));
        assertEquals("redis", Intake.groupName("redis-0-describe.txt"));
        assertEquals("worker-a", Intake.groupName("worker-a-1"));
    }

    @Test
    void aLineLongerThanTheLimitIsCutAndNamedInANote(@TempDir Path dir) throws Exception {
        Path f = dir.resolve("worker.log");
        String blob = "x".repeat(LineInput.MAX_LINE * 3);
        Files.writeString(f, "job 1 received\n" + blob + "\nError 111 connecting to redis:6379. Connection refused.\n",
                StandardCharsets.UTF_8);
        Intake in = new Intake();
        LogReader.read(f, "worker.log", in);
        assertEquals(3, in.files().get(0).lines());
        assertEquals(1, in.groups().get("worker").errors.size(), "the line after the blob is read whole");
        assertTrue(in.notes().get(0).contains("1 lines longer than"), in.notes().toString());
    }

    @Test
    void bytesThatAreNotUtf8ReadAsReplacementCharacters(@TempDir Path dir) throws IOException, DiagnoseInputException {
        Path f = dir.resolve("worker.log");
        byte[] latin1 = "caf\u00e9 Error 111 connecting to redis:6379. Connection refused.\n".getBytes(StandardCharsets.ISO_8859_1);
        Files.write(f, latin1);
        Intake in = new Intake();
        LogReader.read(f, "worker.log", in);
        Signal s = in.groups().get("worker").errors.values().iterator().next().first(in.groups().get("worker")).s();
        assertEquals("redis", s.host());
        assertTrue(s.line().text().startsWith("caf\ufffd "), s.line().text());
    }
}
