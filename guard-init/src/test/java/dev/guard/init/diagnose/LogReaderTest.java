package dev.guard.init.diagnose;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Reading captured files: line endings, prefixes, timestamps, kinds, group names. Pure logic. */
class LogReaderTest {

    @Test
    void crlfComposePrefixesAndDockerTimestampsAreTakenOff() {
        String text = "worker-1  | 2026-11-30T02:00:01.123456789Z job 7 received\r\n"
                + "redis-1   | 2026-11-30T02:00:00.000000001Z 1:M 30 Nov 2026 02:00:00.000 * Ready to accept connections tcp\r\n";
        List<Source> s = LogReader.parse(text, "compose.log");
        assertEquals(2, s.size());
        LogLine w = s.get(0).lines().get(0);
        assertEquals("worker-1", w.service());
        assertEquals("job 7 received", w.text());
        assertEquals(Instant.parse("2026-11-30T02:00:01.123456789Z"), w.time());
        assertEquals(LogKind.APPLICATION, s.get(0).kind());
        assertEquals(LogKind.REDIS_SERVER, s.get(1).kind());
        assertEquals(2, s.get(1).lines().get(0).number());
    }

    @Test
    void applicationAndRedisTimestampsAreReadWhenThereIsNoDockerOne() {
        LogLine py = LogReader.parse("2026-11-30 02:00:01,250 ERROR worker: boom\n", "w.log").get(0).lines().get(0);
        assertEquals(Instant.parse("2026-11-30T02:00:01.250Z"), py.time());
        LogLine redis = LogReader.parse("1:M 30 Nov 2026 02:00:04.212 * DB loaded from disk: 4.108 seconds\n", "r.log")
                .get(0).lines().get(0);
        assertEquals(Instant.parse("2026-11-30T02:00:04.212Z"), redis.time());
        assertNull(LogReader.parse("no time here\n", "w.log").get(0).lines().get(0).time());
    }

    @Test
    void pipesInsideAnApplicationLineAreNotComposePrefixes() {
        List<Source> s = LogReader.parse("2026-11-30 02:00:01.250 | INFO     | worker:run:12 - job 1 received\n", "w.log");
        assertNull(s.get(0).service());
    }

    @Test
    void kindsAreToldFromContent() {
        assertEquals(LogKind.KUBECTL_GET_POD, LogReader.parse("NAME   READY   STATUS    RESTARTS   AGE\nw-1 1/1 Running 0 1m\n", "x").get(0).kind());
        assertEquals(LogKind.KUBECTL_DESCRIBE, LogReader.parse("Name:         redis-0\nNamespace:    jobs\n", "x").get(0).kind());
        assertEquals(LogKind.KUBECTL_EVENTS, LogReader.parse("LAST SEEN   TYPE      REASON   OBJECT   MESSAGE\n", "x").get(0).kind());
        assertEquals(LogKind.COMPOSE_PS, LogReader.parse("NAME  IMAGE  COMMAND  SERVICE  CREATED  STATUS  PORTS\n", "x").get(0).kind());
        assertEquals(LogKind.BROKER_SERVER, LogReader.parse("[1] 2026/11/30 02:00:00.000000 [INF] Starting nats-server\n", "x").get(0).kind());
        assertEquals(LogKind.EMPTY, LogReader.parse("\n\n", "x").get(0).kind());
    }

    @Test
    void groupNamesDropPreviousSuffixesPodHashesAndReplicaNumbers() {
        assertEquals("worker", Rules.groupName("/tmp/worker-previous.log"));
        assertEquals("worker", Rules.groupName("worker-7c9d8f5b6-x2k4m"));
        assertEquals("worker", Rules.groupName("/tmp/capture/worker-7c9d8f5b6-x2k4m-previous.log"));
        assertEquals("redis", Rules.groupName("redis-0-describe.txt"));
        assertEquals("worker-a", Rules.groupName("worker-a-1"));
    }
}
