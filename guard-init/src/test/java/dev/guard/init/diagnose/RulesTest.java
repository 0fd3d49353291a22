package dev.guard.init.diagnose;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The runbook's discriminating checks on small in-memory captures. Pure logic. */
class RulesTest {
    private static final String REDIS_READY_AT_5S = "1:C 30 Nov 2026 02:00:00.000 * oO0OoO0OoO0Oo Redis is starting oO0OoO0OoO0Oo\n"
            + "1:M 30 Nov 2026 02:00:05.000 * Ready to accept connections tcp\n";

    static Diagnosis diagnose(Map<String, String> files, String... endpoints) {
        return Diagnoser.builder().endpoints(List.of(endpoints)).build().diagnoseTexts(files);
    }

    /** Name, text, name, text ... in that order. */
    static Map<String, String> files(String... nameThenText) {
        Map<String, String> m = new LinkedHashMap<>();
        for (int i = 0; i < nameThenText.length; i += 2) {
            m.put(nameThenText[i], nameThenText[i + 1]);
        }
        return m;
    }

    @Test
    void aSingleAttemptBeforeRedisWasReadyIsTheRaceAfterItTheServiceIsDown() {
        String before = "2026-11-30T02:00:01.000Z Error 111 connecting to redis:6379. Connection refused.\n";
        assertEquals(List.of("startup-race"), diagnose(files("worker.log", before, "redis.log", REDIS_READY_AT_5S)).causes());
        String after = "2026-11-30T02:00:09.000Z Error 111 connecting to redis:6379. Connection refused.\n";
        assertEquals(List.of("dependency-down"), diagnose(files("worker.log", after, "redis.log", REDIS_READY_AT_5S)).causes());
    }

    @Test
    void whenTheWorkerExitsAfterOneErrorThePodStatusDecides() {
        String log = "2026-11-30T02:00:01.000Z Error 111 connecting to redis:6379. Connection refused.\n";
        String header = "NAME                     READY   STATUS             RESTARTS      AGE\n";
        String running = header + "worker-7c9d8f5b6-x2k4m   1/1     Running            2 (14m ago)   16m\n";
        String crashing = header + "worker-7c9d8f5b6-x2k4m   0/1     CrashLoopBackOff   9 (2m ago)    16m\n";
        assertEquals(List.of("startup-race"), diagnose(files("worker.log", log, "worker-pod.txt", running), "redis:6379").causes());
        assertEquals(List.of("dependency-down"), diagnose(files("worker.log", log, "worker-pod.txt", crashing), "redis:6379").causes());
    }

    @Test
    void anErrorNamingNoHostTakesTheNearestUrlLoggedBeforeIt() {
        String log = "connecting to redis://redis:6379/0\n"
                + "job 1 received\njob 1 processed\n"
                + "Attempting to connect to: [localhost:5672]\n"
                + "org.springframework.amqp.AmqpConnectException: java.net.ConnectException: Connection refused\n";
        Diagnosis d = diagnose(files("worker.log", log), "redis:6379", "rabbitmq:5672");
        assertEquals(List.of("env-drift"), d.causes());
        assertEquals("localhost:5672 (from boot line)", d.hosts().get(0).target());
    }

    @Test
    void aClusterDomainNameMatchesTheServiceEndpointByItsFirstLabel() {
        String log = "Error 111 connecting to redis.jobs.svc.cluster.local:6379. Connection refused.\n".repeat(3);
        Diagnosis d = diagnose(files("worker.log", log), "redis:6379");
        assertEquals(List.of("dependency-down"), d.causes());
        assertEquals("service", d.hosts().get(0).category());
    }

    @Test
    void onlyWholePerJobLinesAreCountedNotSummaryWords() {
        String log = "job 1 received\njob 1 processed\njob 2 received\n"
                + "received 2 jobs, processed 1\nstats: 2 jobs received, 1 job processed today\n";
        Diagnosis d = diagnose(files("worker.log", log));
        assertEquals(2, d.jobs().received());
        assertEquals(1, d.jobs().processed());
        assertEquals(List.of("schema-skew"), d.causes());
    }

    @Test
    void errorsThatAccountForTheGapAreNotSchemaSkew() {
        String log = "job 1 received\njob 1 processed\njob 2 received\n"
                + "Traceback (most recent call last):\nKeyError: 'job_id'\n";
        Diagnosis d = diagnose(files("worker.log", log));
        assertEquals(List.of("unknown"), d.causes());
        assertTrue(d.notes().stream().anyMatch(n -> n.contains("error lines may account for the gap")), d.notes().toString());
    }

    @Test
    void loadingThatStopsIsTheRaceLoadingToTheEndIsRedisLoading() {
        String stops = "LOADING Redis is loading the dataset in memory\n".repeat(3) + "job 1 received\njob 1 processed\n";
        assertEquals(List.of("startup-race"), diagnose(files("worker.log", stops)).causes());
        String never = "io.lettuce.core.RedisLoadingException: LOADING Redis is loading the dataset in memory\n".repeat(20);
        assertEquals(List.of("redis-loading"), diagnose(files("worker.log", never)).causes());
    }

    @Test
    void theRealConfigGuardsReportIsReadAsDrift() {
        dev.guard.config.ConfigReport report = dev.guard.config.ConfigGuard.builder()
                .requireEnv("REDIS_URL", dev.guard.config.SettingType.URL)
                .environment(Map.of("REDIS_URL", "redis://:hunter2@localhost:6379/0"))
                .inContainer(true).build().check();
        String rendered = report.render();
        assertTrue(rendered.contains("LOOPBACK"), rendered);
        Diagnosis d = diagnose(files("worker.log", rendered), "redis:6379");
        assertEquals(List.of("env-drift"), d.causes(), DiagnosisReport.human(d));
        assertTrue(d.groups().get(0).reasons().get(0).contains("REDIS_URL (LOOPBACK)"), d.groups().toString());
        assertTrue(!DiagnosisReport.human(d).contains("hunter2"));
    }

    @Test
    void guardsReadinessLinesAndReportNameTargetStateAndAttempt() {
        String gate = "redis redis:6379 loading (dataset 40% loaded), attempt 7, 3.1s of 60s\n"
                + "redis redis:6379 ready, attempt 8, 3s of 60s\n"
                + "received=10 processed=10 rejected=0 failed=0 handed_back=0 missing=0\n";
        Diagnosis d = diagnose(files("worker.log", gate), "redis:6379");
        assertEquals(List.of("startup-race"), d.causes());
        assertEquals(10, d.jobs().received());
        String report = "readiness: NOT READY: 1 of 1 target(s) not ready\n"
                + "  FAIL redis localhost:6379: refused, attempt 30, 60s\n"
                + "       found: java.net.ConnectException: Connection refused\n";
        Diagnosis r = diagnose(files("worker.log", report), "redis:6379");
        assertEquals(List.of("env-drift"), r.causes());
        assertEquals("localhost:6379", r.hosts().get(0).target());
    }

    @Test
    void anyTextFileIsReadWithoutFailing() throws java.io.IOException {
        // robustness: the module's own sources and fixtures as "logs" (huge numbers, odd lines, CRLF)
        List<java.nio.file.Path> all;
        try (var s = java.nio.file.Files.walk(java.nio.file.Path.of("src"))) {
            all = s.filter(java.nio.file.Files::isRegularFile).sorted().toList();
        }
        Map<String, String> texts = new LinkedHashMap<>();
        texts.put("numbers.log", "Error 111 connecting to redis:99999999999. Connection refused.\n"
                + "received=99999999999999 processed=1\nworker-0 1/1 Running 99999999999 1m\n");
        Diagnosis one = Diagnoser.builder().endpoint("redis:6379").build().diagnoseTexts(texts);
        assertTrue(one.causeLine().startsWith("cause: "), one.causeLine());
        // a bad --endpoint is refused with the parser's reason, not silently ignored
        IllegalArgumentException bad = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> Diagnoser.builder().endpoint("redis:99999999999"));
        assertEquals("endpoint must be HOST, HOST:PORT or a URL: port 99999999999 in 'redis:99999999999' is out of range 1-65535",
                bad.getMessage());
        assertTrue(all.size() > 50, "expected the module's files, found " + all.size());
        Diagnosis d;
        try {
            d = Diagnoser.builder().build().diagnose(all);
        } catch (DiagnoseInputException e) {
            throw new AssertionError(e);
        }
        assertTrue(d.causeLine().startsWith("cause: "), d.causeLine());
        assertTrue(DiagnosisReport.json(d).contains("\"causes\""));
    }

    @Test
    void theLedgerOfTheRealBoundaryDecides() {
        String drained = "received=10 processed=7 rejected=0 failed=0 handed_back=3 missing=0\n";
        assertEquals(List.of("healthy"), diagnose(files("worker.log", drained)).causes());
        String failed = "received=10 processed=7 rejected=0 failed=3 handed_back=0 missing=0\n";
        assertEquals(List.of("unknown"), diagnose(files("worker.log", failed)).causes());
        // the real boundary ledger's summary line: 7 processed, 2 rejected, 1 never given an outcome
        dev.guard.schema.boundary.Ledger ledger = new dev.guard.schema.boundary.Ledger();
        for (int i = 1; i <= 10; i++) {
            ledger.received("j-" + i);
            if (i <= 7) {
                ledger.record("j-" + i, dev.guard.schema.Outcome.PROCESSED);
            } else if (i <= 9) {
                ledger.record("j-" + i, dev.guard.schema.Outcome.REJECTED);
            }
        }
        String rejected = "INFO worker - ledger " + ledger.summaryLine() + "\n";
        assertTrue(rejected.contains("received=10 processed=7 rejected=2"), rejected);
        Diagnosis d = diagnose(files("worker.log", rejected));
        assertEquals(List.of("schema-skew"), d.causes());
        assertEquals(2, d.jobs().rejected());
        assertEquals(1, d.jobs().missing());
    }

    @Test
    void aWorkerKilledByTheKernelIsNamedEvenWhenItsJobsBalance() {
        String describe = "Name:         worker-7c9d8f5b6-x2k4m\nNamespace:    jobs\nContainers:\n  worker:\n"
                + "    Last State:     Terminated\n      Reason:       OOMKilled\n      Exit Code:    137\n";
        Diagnosis d = diagnose(files("worker.log", "job 1 received\njob 1 processed\n", "worker-describe.txt", describe));
        assertEquals(List.of("oom-or-probe-kill"), d.causes());
        assertEquals(List.of("worker"), d.next().get(0).groups());
    }
}
