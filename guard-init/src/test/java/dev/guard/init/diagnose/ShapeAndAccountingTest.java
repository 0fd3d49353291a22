package dev.guard.init.diagnose;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Connection failures told from their shape (a client no parser knows), attempts whose lines name
 * the host once and the kind on the next line, causes that account for each other (a kill for the
 * job in flight, a boot line for errors nothing parses). Pure logic on in-memory captures.
 */
class ShapeAndAccountingTest {

    private static Diagnosis diagnose(Map<String, String> files, String... endpoints) {
        return RulesTest.diagnose(files, endpoints);
    }

    private static Map<String, String> files(String... nameThenText) {
        return RulesTest.files(nameThenText);
    }

    /** {@code n} copies of {@code line}, one second apart, with docker's timestamp prefix. */
    private static String attempts(String line, int n, int fromSecond) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < n; i++) {
            b.append(String.format("2026-11-30T02:00:%02d.000000123Z %s%n", fromSecond + i, line));
        }
        return b.toString();
    }

    private static String jobs(int n, int fromSecond) {
        StringBuilder b = new StringBuilder();
        for (int i = 1; i <= n; i++) {
            b.append(String.format("2026-11-30T02:01:%02d.000000123Z job j-%d received%n", fromSecond + i, i));
            b.append(String.format("2026-11-30T02:01:%02d.500000123Z job j-%d processed%n", fromSecond + i, i));
        }
        return b.toString();
    }

    @Test
    void aClientNoParserKnowsYieldsTheHostAndTheCauseFromItsShape() {
        String line = "ERROR acme.Queue: cannot reach redis-primary:6380 (connection refused)";
        Diagnosis down = diagnose(files("worker.log", attempts(line, 12, 0)), "redis-primary:6380");
        assertEquals(List.of("dependency-down"), down.causes(), DiagnosisReport.human(down));
        assertEquals("redis-primary:6380", down.hosts().get(0).target());
        assertEquals("service", down.hosts().get(0).category());
        assertEquals(12, down.hosts().get(0).lines());

        Diagnosis race = diagnose(files("worker.log", attempts(line, 4, 0) + jobs(5, 0)), "redis-primary:6380");
        assertEquals(List.of("startup-race"), race.causes(), DiagnosisReport.human(race));

        Diagnosis unknownEndpoints = diagnose(files("worker.log", attempts(line, 12, 0)));
        assertEquals(List.of("dependency-down"), unknownEndpoints.causes());
        assertEquals("redis-primary:6380", unknownEndpoints.hosts().get(0).target());

        String local = "ERROR acme.Queue: cannot reach localhost:6380 (connection refused)";
        Diagnosis drift = diagnose(files("worker.log", attempts(local, 12, 0)), "redis-primary:6380");
        assertEquals(List.of("env-drift"), drift.causes());
        assertEquals("loopback", drift.hosts().get(0).category());

        String elsewhere = "WARN acme.Queue: cannot reach cache.internal:6380 (timed out)";
        Diagnosis other = diagnose(files("worker.log", attempts(elsewhere, 12, 0)), "redis-primary:6380");
        assertEquals(List.of("env-drift"), other.causes());
        assertEquals("not-an-endpoint", other.hosts().get(0).category());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', quoteCharacter = '"', value = {
        // the wording, the host it names, the port, the kind
        "ERROR acme.Queue: cannot reach redis-primary:6380 (connection refused)|redis-primary|6380|REFUSED",
        "Connect attempt to <BrokerConnection node_id=bootstrap-0 host=kafka:9092 <connecting> [IPv4 ('172.18.0.3', 9092)]> returned error 111. Disconnecting.|kafka|9092|REFUSED",
        "dial tcp: lookup nats on 127.0.0.11:53: no such host (url nats://nats:4222)|nats|4222|DNS",
        "failed to connect to [::1]:5672: Network is unreachable|::1|5672|UNAVAILABLE",
        "Could not connect to broker 10.0.0.7:9092: connect timed out|10.0.0.7|9092|TIMEOUT",
        "Error: connect ECONNREFUSED 127.0.0.1:6379|127.0.0.1|6379|REFUSED",
        "pool: unable to connect host=\"queue-db\" port=5432: refused|queue-db|5432|REFUSED",
        "socket.gaierror: [Errno -2] Name or service not known: ('redis-master', 6379)|redis-master|6379|DNS",
        "ERROR Failed to connect to fe80::1:6379 (errno 113)|fe80::1|6379|UNAVAILABLE",
    })
    void theHostAndKindComeFromTheShape(String text, String host, int port, Signal.Type type) {
        LogLine line = new LogLine("w.log", 1, null, null, text);
        List<Signal> s = new ConnectionShape().parse(line, Words.in(text));
        assertEquals(1, s.size(), text);
        assertEquals(host, s.get(0).host(), text);
        assertEquals(port, s.get(0).port(), text);
        assertEquals(type, s.get(0).type(), text);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', quoteCharacter = '"', value = {
        "2026-11-30 09:00:01,123 INFO job 7 timed out after 30s",
        "2026-11-30 09:00:01,123 INFO processed 3 items by 12:30 today",
        "INFO worker: heartbeat ok, queue depth 12, memory 123 MB",
        "DEBUG urllib3.connectionpool: Starting new HTTPS connection (1): api.internal:443",
        "ERROR task failed at Worker.java:42: division by zero",
        "INFO Connected to redis:6379 after 3 attempts",
    })
    void linesThatAreNoConnectionFailureSayNothing(String text) {
        LogLine line = new LogLine("w.log", 1, null, null, text);
        assertEquals(List.of(), new ConnectionShape().parse(line, Words.in(text)), text);
    }

    @Test
    void anAttemptWhoseHostAndKindAreOnTwoLinesIsOneErrorOfThatKind() {
        // Jedis 5 to 7: the host on the exception, the kind on its Suppressed line
        String refused = "redis.clients.jedis.exceptions.JedisConnectionException: Failed to connect to redis-master:6379.\n"
                + "\tSuppressed: java.net.ConnectException: Connection refused\n";
        String timedOut = "redis.clients.jedis.exceptions.JedisConnectionException: Failed to connect to redis-master:6379.\n"
                + "\tSuppressed: java.net.SocketTimeoutException: Connect timed out\n";
        Diagnosis down = diagnose(files("worker.log", refused.repeat(10)), "redis-master:6379");
        assertEquals(List.of("dependency-down"), down.causes(), DiagnosisReport.human(down));
        assertEquals(1, down.hosts().size(), down.hosts().toString());
        assertEquals(10, down.hosts().get(0).lines(), "each attempt counted once");
        Diagnosis blocked = diagnose(files("worker.log", timedOut.repeat(10)), "redis-master:6379");
        assertEquals(List.of("network-blocked"), blocked.causes(), DiagnosisReport.human(blocked));
    }

    /** jnats 2.11 says only "Unable to connect": the attempts' spacing against the worker's stated wait tells the rest. */
    private static String vagueAttempts(int n, long everyMs) {
        StringBuilder b = new StringBuilder("2026-11-30T02:00:00.000000000Z [main] INFO worker - worker starting, nats url nats://nats:4222\n");
        java.time.Instant t = java.time.Instant.parse("2026-11-30T02:00:00.100Z");
        for (int i = 1; i <= n; i++) {
            t = t.plusMillis(everyMs);
            b.append(t).append(" [main] ERROR worker - attempt ").append(i).append(" failed, retrying in 1s\n");
            b.append(t).append(" java.io.IOException: Unable to connect to NATS servers: nats://nats:4222\n");
        }
        return b.toString();
    }

    @Test
    void connectsThatHangBeyondTheStatedRetryWaitAreABlackHole() {
        Diagnosis dropped = diagnose(files("worker.log", vagueAttempts(6, 3_000)), "nats:4222");
        assertEquals(List.of("network-blocked"), dropped.causes(), DiagnosisReport.human(dropped));
        assertTrue(dropped.groups().get(0).reasons().get(0).contains("took 2000 ms more than the 1000 ms"),
                dropped.groups().get(0).reasons().toString());
        Diagnosis refused = diagnose(files("worker.log", vagueAttempts(6, 1_040)), "nats:4222");
        assertEquals(List.of("dependency-down"), refused.causes(), DiagnosisReport.human(refused));
        assertTrue(refused.groups().get(0).reasons().get(0).contains("refused, not dropped"),
                refused.groups().get(0).reasons().toString());
        Diagnosis tooFew = diagnose(files("worker.log", vagueAttempts(2, 3_000)), "nats:4222");
        assertEquals(List.of("dependency-down"), tooFew.causes());
        assertTrue(tooFew.groups().get(0).reasons().get(0).contains("looks the same"), tooFew.groups().get(0).reasons().toString());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "[main] ERROR worker - attempt 3 failed, retrying in 1s|1000",
        "consumer: Cannot connect to redis://redis:6379/0: Error 111 connecting to redis:6379. Connection refused.. Trying again in 2.00 seconds... (1/100)|2000",
        "Retrying worker.connect in 1.5 seconds as it raised ConnectionError: boom.|1500",
        "WARN reconnecting in 250 ms|250",
    })
    void theWorkersStatedRetryWaitIsRead(String line, long ms) {
        Retries r = new Retries();
        java.time.Instant t = java.time.Instant.parse("2026-11-30T02:00:00Z");
        assertTrue(r.read(line, t), line);
        assertEquals(ms, r.meanWaitMs(), line);
        assertFalse(r.read("INFO job 7 done in 3s", t));
    }

    @Test
    void redisPyWritesAnIpv6LoopbackWithoutBrackets() {
        String log = attempts("redis.exceptions.ConnectionError: Error 99 connecting to ::1:6379. Cannot assign requested address.",
                8, 0);
        Diagnosis d = diagnose(files("worker.log", log), "redis:6379");
        assertEquals(List.of("env-drift"), d.causes(), DiagnosisReport.human(d));
        assertEquals("[::1]:6379", d.hosts().get(0).target());
    }

    private static final String OOM_DESCRIBE = "Name:         worker-7c9d8f5b6-x2k4m\nNamespace:    jobs\nContainers:\n"
            + "  worker:\n    State:          Running\n    Last State:     Terminated\n      Reason:       OOMKilled\n"
            + "      Exit Code:    137\n    Restart Count:  1\n";

    @Test
    void aJobInFlightWhenTheWorkerWasKilledIsTheKillsNotSchemaSkew() {
        String previous = jobs(9, 0) + "2026-11-30T02:01:30.000000123Z job j-10 received\n";
        String current = jobs(5, 40);
        Diagnosis d = diagnose(files("worker-previous.log", previous, "worker.log", current,
                "worker-describe.txt", OOM_DESCRIBE), "redis:6379");
        assertEquals(List.of("oom-or-probe-kill"), d.causes(), DiagnosisReport.human(d));
        GroupFinding w = d.groups().stream().filter(g -> g.group().equals("worker")).findFirst().orElseThrow();
        assertTrue(w.reasons().stream().anyMatch(r -> r.contains("1 job received and never processed was in flight")),
                w.reasons().toString());
        assertTrue(w.evidence().stream().anyMatch(e -> e.text().contains("job j-10 received")), w.evidence().toString());

        // the previous log alone says the container ended with the job in flight
        Diagnosis alone = diagnose(files("worker-previous.log", previous, "worker.log", current), "redis:6379");
        assertEquals(List.of("oom-or-probe-kill"), alone.causes(), DiagnosisReport.human(alone));
    }

    @Test
    void aGapThatTheKillDoesNotExplainIsStillSchemaSkew() {
        // j-1 was received first and never processed, long before the kill: that one was dropped
        String previous = "2026-11-30T02:00:59.000000123Z job j-1 received\n" + jobs(9, 0).replace("job j-1 ", "job j-x1 ")
                + "2026-11-30T02:01:30.000000123Z job j-10 received\n";
        Diagnosis d = diagnose(files("worker-previous.log", previous, "worker.log", jobs(5, 40),
                "worker-describe.txt", OOM_DESCRIBE), "redis:6379");
        assertEquals(List.of("oom-or-probe-kill", "schema-skew"), d.causes(), DiagnosisReport.human(d));

        // and a gap in a log that did not end by a kill is schema skew alone
        Diagnosis running = diagnose(files("worker.log", jobs(5, 0) + "2026-11-30T02:01:30.000000123Z job j-6 received\n"
                + jobs(3, 40).replace("j-", "j-b")), "redis:6379");
        assertEquals(List.of("schema-skew"), running.causes(), DiagnosisReport.human(running));
        assertTrue(running.notes().stream().noneMatch(n -> n.contains("in progress")), running.notes().toString());

        // the last job received by a worker that still runs may be in progress: still counted, and said
        Diagnosis atEnd = diagnose(files("worker.log", jobs(5, 0) + "2026-11-30T02:01:30.000000123Z job j-6 received\n"),
                "redis:6379");
        assertEquals(List.of("schema-skew"), atEnd.causes());
        assertTrue(atEnd.notes().stream().anyMatch(n -> n.contains("1 of the jobs never processed was received after the last "
                + "job that finished")), atEnd.notes().toString());
    }

    @Test
    void aBootLineNamingLocalhostDecidesDriftWhenTheErrorsAreUnparsedOrAbsent() {
        String boot = "2026-11-30T02:00:00.000000123Z INFO worker starting, redis url redis://localhost:6379/0\n";
        String unparsed = attempts("ERROR worker: giving up on queue, will retry (code=E_BROKER)", 10, 1);
        Diagnosis d = diagnose(files("worker.log", boot + unparsed), "redis:6379");
        assertEquals(List.of("env-drift"), d.causes(), DiagnosisReport.human(d));
        assertTrue(d.groups().get(0).reasons().get(0).contains("localhost:6379"), d.groups().get(0).reasons().toString());

        Diagnosis silent = diagnose(files("worker.log", boot), "redis:6379");
        assertEquals(List.of("env-drift"), silent.causes(), DiagnosisReport.human(silent));

        String elsewhere = boot.replace("localhost", "cache-old");
        assertEquals(List.of("env-drift"), diagnose(files("worker.log", elsewhere), "redis:6379").causes());

        String right = boot.replace("localhost", "redis");
        assertEquals(List.of("no-jobs"), diagnose(files("worker.log", right), "redis:6379").causes());
    }

    @Test
    void everyWordIsFoundInAnyCaseAndNoiseHoldsNone() {
        for (Word w : Word.values()) {
            String mixed = "x " + w.text.toUpperCase(java.util.Locale.ROOT) + " y";
            assertTrue(Words.in(mixed).has(w), w.name());
            assertTrue(Words.in("zz" + w.text).has(w), w.name());
        }
        assertTrue(Words.in("2026-11-30 INFO heartbeat ok, queue depth 12").none());
        assertFalse(Words.in("caf\u00e9 conn\u00e9ct").has(Word.CONNECT));
    }

    @Test
    void theHandReadTimestampAgreesWithJavaTime() {
        Random r = new Random(14);
        for (int i = 0; i < 2_000; i++) {
            LocalDate d = LocalDate.ofEpochDay(r.nextInt(200_000) - 50_000);
            if (d.getYear() < 1000 || d.getYear() > 9999) {
                continue;
            }
            String s = d + "T0" + r.nextInt(10) + ":1" + r.nextInt(10) + ":2" + r.nextInt(10) + "." + (100_000 + r.nextInt(900_000)) + "Z";
            assertEquals(java.time.Instant.parse(s), Stamps.timeOf(s, ""), s);
        }
        assertNull(Stamps.timeOf("2026-02-30T00:00:00Z", "no date"));
        assertEquals(java.time.Instant.parse("2026-11-30T02:00:00Z"), Stamps.timeOf("2026-11-30T03:00:00+01:00", ""));
    }

    @Test
    void theHandReadComposePrefixAgreesWithItsPattern() {
        for (String l : List.of("worker-1  | job 1 received", "worker-1 |job", "a |", "1worker | x", "worker| x", "w.x_y-z \t| t",
                "worker-1  x | y", "", " worker | x", "worker-1  |  two spaces")) {
            java.util.regex.Matcher m = LogReader.COMPOSE_PREFIX.matcher(l);
            boolean matches = m.matches();
            assertEquals(matches, LogReader.composeBar(l) > 0, l);
        }
    }
}
