package dev.guard.drain.kubernetes;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.guard.drain.Drain;
import dev.guard.drain.DrainConfig;
import dev.guard.drain.DrainLoop;
import dev.guard.drain.ShutdownReceipt;
import dev.guard.queue.redis.FallbackListQueue;
import dev.guard.queue.redis.RedisJob;
import dev.guard.testing.KubeApiServer;
import dev.guard.testing.MachineServices;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * When the pod's deletion cost is written: the rule on an explicit clock (pure logic), then a
 * worker loop on a real Redis queue writing its own pod through the stand-in API server.
 */
class DeletionCostTest {

    static final long MS = 1_000_000;
    static final long AFTER = 1000 * MS;
    static final PodApi.Answer OK = new PodApi.Answer(200, "", "", Optional.empty());

    /** Drives the rule as the thread does: at each instant, write whatever is due; returns the writes. */
    static final class Timeline {
        final DeletionCost.Rule rule = new DeletionCost.Rule(AFTER, 0);
        final List<long[]> writes = new ArrayList<>();
        PodApi.Answer answer = OK;

        Timeline at(long ms) {
            long now = ms * MS;
            OptionalInt w = rule.nextWrite(now);
            if (w.isPresent()) {
                rule.writing(now);
                rule.written(w.getAsInt(), answer, now);
                writes.add(new long[] {ms, w.getAsInt()});
            }
            return this;
        }

        /** Every ms from {@code from} to {@code to}. */
        Timeline run(long from, long to) {
            for (long t = from; t <= to; t++) {
                at(t);
            }
            return this;
        }

        String show() {
            StringBuilder sb = new StringBuilder();
            writes.forEach(w -> sb.append(w[0]).append("ms=").append(w[1]).append(' '));
            return sb.toString().trim();
        }
    }

    @Test
    void shortJobsNeverWriteALongJobMarksBusyAfterItsFirstSecondAndIdleComesASecondAfterItEnds() {
        Timeline t = new Timeline().at(0);
        assertEquals("0ms=0", t.show(), "the first write sets idle at once");
        for (long s = 10; s < 5000; s += 50) { // 100 jobs of 20 ms, 30 ms apart
            t.rule.jobStarted(s * MS);
            t.run(s, s + 20);
            t.rule.jobEnded((s + 20) * MS);
            t.run(s + 21, s + 49);
        }
        assertEquals("0ms=0", t.show(), "jobs shorter than `after` never touch the annotation");
        t.rule.jobStarted(6000 * MS);
        t.run(6000, 9000);
        assertEquals("0ms=0 7000ms=100", t.show(), "busy once the job has run `after`");
        t.rule.jobEnded(9000 * MS);
        t.run(9000, 9999);
        assertEquals("0ms=0 7000ms=100", t.show(), "not idle before `after` without a job");
        t.run(10000, 12000);
        assertEquals("0ms=0 7000ms=100 10000ms=0", t.show());
    }

    @Test
    void backToBackJobsKeepABusyPodBusyWithoutAWrite() {
        Timeline t = new Timeline().at(0);
        long s = 100;
        for (int i = 0; i < 20; i++) { // 20 jobs of 1.5 s with 200 ms between them
            t.rule.jobStarted(s * MS);
            t.run(s, s + 1500);
            t.rule.jobEnded((s + 1500) * MS);
            t.run(s + 1501, s + 1700);
            s += 1700;
        }
        assertEquals("0ms=0 1100ms=100", t.show(), "one write when it became busy, none through the run of jobs");
        // a short job in the idle gap after the last one keeps it busy: the pod holds a job
        t.rule.jobStarted(s * MS);
        t.run(s, s + 10);
        t.rule.jobEnded((s + 10) * MS);
        t.run(s + 11, s + 1009);
        assertEquals("0ms=0 1100ms=100", t.show());
        t.run(s + 1010, s + 1010);
        assertEquals("0ms=0 1100ms=100 " + (s + 1010) + "ms=0", t.show());
    }

    @Test
    void twoWritesAreNeverCloserThanAfterWhateverTheJobsDo() {
        Timeline t = new Timeline();
        java.util.SplittableRandom r = new java.util.SplittableRandom(7);
        long now = 0;
        boolean inHand = false;
        for (int i = 0; i < 2000; i++) { // random jobs and gaps of 0..2.5 s, the clock stepped through every ms
            long next = now + r.nextInt(2500);
            t.run(now + 1, next - 1);
            now = next;
            if (inHand) {
                t.rule.jobEnded(now * MS);
            } else {
                t.rule.jobStarted(now * MS);
            }
            inHand = !inHand;
            t.at(now);
        }
        t.run(now + 1, now + 5000);
        assertTrue(t.writes.size() > 10, "the random jobs made transitions: " + t.writes.size());
        for (int i = 1; i < t.writes.size(); i++) {
            long gap = t.writes.get(i)[0] - t.writes.get(i - 1)[0];
            assertTrue(gap >= 1000, "writes " + (i - 1) + " and " + i + " are " + gap + " ms apart: " + t.show());
            assertTrue(t.writes.get(i)[1] != t.writes.get(i - 1)[1], "each write changes the value: " + t.show());
        }
    }

    @Test
    void aFailedWriteIsRetriedWithABackoffThatDoublesAndHonoursRetryAfter() {
        Timeline t = new Timeline();
        t.answer = new PodApi.Answer(503, "ServiceUnavailable", "", Optional.empty());
        t.run(0, 20_000);
        List<Long> at = t.writes.stream().map(w -> w[0]).toList();
        assertEquals(List.of(0L, 1000L, 3000L, 7000L, 15000L), at, "pauses of 1, 2, 4, 8 s");
        t.answer = new PodApi.Answer(429, "TooManyRequests", "", Optional.of(Duration.ofSeconds(100)));
        t.run(20_001, 130_000);
        assertEquals(List.of(0L, 1000L, 3000L, 7000L, 15000L, 31000L), t.writes.stream().map(w -> w[0]).toList(),
                "16 s of backoff, then Retry-After: 100 where it is longer than the backoff (32 s)");
        t.answer = new PodApi.Answer(503, "ServiceUnavailable", "", Optional.empty());
        t.run(130_001, 190_000);
        t.answer = OK;
        t.run(190_001, 300_000);
        assertEquals(List.of(0L, 1000L, 3000L, 7000L, 15000L, 31000L, 131000L, 191000L),
                t.writes.stream().map(w -> w[0]).toList(), "the backoff is capped at 60 s");
        assertEquals(0, t.rule.published, "written once the server takes it");
    }

    @Test
    void theSettingIsOnOrOffAndAnythingElseSaysSo() {
        assertTrue(DeletionCost.parseSwitch(" On ", "env"));
        assertEquals(false, DeletionCost.parseSwitch("off", "env"));
        assertEquals(false, DeletionCost.parseSwitch(null, "env"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> DeletionCost.parseSwitch("enabled", "env GUARD_DELETION_COST"));
        assertTrue(e.getMessage().contains("'enabled' (from env GUARD_DELETION_COST) is not on or off"), e.getMessage());
    }

    /**
     * A worker loop on a real Redis queue, its pod's annotation read from the stand-in API server
     * while it works: idle at start, busy during a long job (not during short ones), idle after.
     */
    @Test
    void aWorkerLoopMarksItsPodBusyDuringALongJobAndIdleAfter(@TempDir Path tmp) throws Exception {
        String queue = MachineServices.uniqueName("deletion-cost");
        RedisClient client = RedisClient.create(MachineServices.redisUri());
        try (KubeApiServer api = KubeApiServer.start(tmp);
                StatefulRedisConnection<String, String> c = client.connect()) {
            api.pod("jobs", "worker-0");
            PodApi pod = PodApi.inCluster(api.env("worker-0"), api.serviceAccount("jobs", "worker", true),
                    Duration.ofSeconds(10));
            c.sync().lpush(queue, "short-1", "short-2", "long-1", "short-3");
            Drain drain = Drain.create(DrainConfig.builder().gracePeriod(Duration.ofSeconds(5)).safetyMargin(Duration.ofSeconds(1))
                    .workerId("worker-0").build());
            List<String> seen = new CopyOnWriteArrayList<>();
            ShutdownReceipt receipt;
            try (DeletionCost cost = DeletionCost.start(pod, Duration.ofMillis(300));
                    FallbackListQueue q = FallbackListQueue.builder(client, queue).build()) {
                assertEquals(0, api.deletionCost("jobs", "worker-0"));
                receipt = DrainLoop.builder(drain, q, (RedisJob rj, Drain d) -> {
                    String job = rj.payload();
                    if (job.startsWith("long")) {
                        Thread.sleep(700);
                        seen.add(job + " at 700 ms: " + api.deletionCost("jobs", "worker-0"));
                        Thread.sleep(300);
                    } else {
                        Thread.sleep(20);
                    }
                    if (job.equals("short-3")) {
                        seen.add("short-3 right after the long job: " + api.deletionCost("jobs", "worker-0"));
                        new Thread(() -> {
                            try {
                                Thread.sleep(1200);
                            } catch (InterruptedException e) {
                                return;
                            }
                            seen.add("1.2 s later, idle: " + api.deletionCost("jobs", "worker-0"));
                            drain.requestStop("test over");
                        }).start();
                    }
                }).jobListener(cost).build().run();
                assertEquals(List.of("long-1 at 700 ms: 100", "short-3 right after the long job: 100", "1.2 s later, idle: 0"),
                        seen);
                assertEquals(3, api.patchTimes("jobs", "worker-0").size(), "idle, busy, idle: three writes for four jobs");
            } finally {
                c.sync().del(queue, queue + ":fallback", queue + ":dead");
                client.shutdown(Duration.ZERO, Duration.ofSeconds(1));
            }
            assertEquals(4, receipt.done(), receipt.toString());
        }
    }
}
