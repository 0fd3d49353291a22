package dev.guard.examples.spring;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.guard.testing.coldstart.ColdStart;
import dev.guard.testing.coldstart.ColdStartConfigurer;
import dev.guard.testing.coldstart.ColdStartReport;
import dev.guard.testing.coldstart.ColdStartTest;
import dev.guard.testing.coldstart.Component;
import dev.guard.testing.coldstart.ProcessSpec;
import dev.guard.testing.coldstart.RunReconciliation;
import dev.guard.examples.spring.guarded.SpringThumbnailWorker;
import dev.guard.examples.spring.naive.NaiveSpringWorker;
import dev.guard.examples.stack.Backend;
import dev.guard.testing.NoLeakedProcesses;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The Spring Boot worker under the cold-start harness, every job reconciled: one cold start in the
 * race's order (the worker before Redis, Redis really loading, the backend populating it late) in
 * the default run, ten in random orders under {@code -Pproof}; and its naive twin, under the same
 * harness, losing jobs.
 */
@ExtendWith(NoLeakedProcesses.class)
class SpringColdStartTest {

    /**
     * A Spring Boot worker prints its first lines (the config check) seconds before it can take a
     * job: its context starts in 3 s on a quiet machine and took up to 17 s on a busy one. The
     * harness's quiet period counts from the worker's first line, so it is longer here than for
     * the plain-Java worker; it only bounds how long a run waits for a worker that went silent.
     */
    public static final class SlowStartingWorker implements ColdStartConfigurer {
        @Override
        public void configure(ColdStart.Builder builder) {
            builder.quietPeriod(Duration.ofSeconds(40));
        }
    }

    @Test
    @ColdStartTest(runs = 1, worker = SpringThumbnailWorker.class, backend = Backend.class,
        order = {Component.WORKER, Component.REDIS, Component.BACKEND},
        workerEnv = "GUARD_ALLOW_LOOPBACK=true", configurer = SlowStartingWorker.class)
    void theSpringWorkerStartedBeforeALoadingRedisReconcilesEveryJob(ColdStartReport report) {
        assertEquals("reconciled: runs=1 received=100 processed=97 rejected=3 failed=0 missing=0", report.reconciledLine());
        RunReconciliation run = report.runs().get(0);
        assertEquals(List.of(Component.WORKER, Component.REDIS, Component.BACKEND), run.order(), run.render());
        assertEquals(run.skewedIds(), run.rejectedIds(), run.render());
    }

    @Test
    @Tag("proof")
    @ColdStartTest(runs = 10, worker = SpringThumbnailWorker.class, backend = Backend.class,
        workerEnv = "GUARD_ALLOW_LOOPBACK=true", configurer = SlowStartingWorker.class)
    void tenColdStartsOfTheSpringWorkerEveryJobReconciled(ColdStartReport report) {
        assertEquals(10, report.runs().size());
        assertEquals("reconciled: runs=10 received=1000 processed=970 rejected=30 failed=0 missing=0", report.reconciledLine());
        for (RunReconciliation run : report.runs()) {
            assertEquals(run.skewedIds(), run.rejectedIds(), run.render());
        }
    }

    @Test
    void theNaiveSpringTwinLosesJobs() {
        ColdStartReport report = ColdStart.builder()
                .worker(ProcessSpec.java(NaiveSpringWorker.class))
                .backend(ProcessSpec.java(Backend.class))
                // it never prints a job line: the run ends this long after its first line, whatever the wait
                .quietPeriod(Duration.ofSeconds(15))
                .localServices()
                .build().run(1);
        System.out.println(report.render());
        assertFalse(report.passed(), report.render());
        // it read CACHE_URL, fell back to localhost:6379 (on this machine another Redis answers there)
        // and never saw a job of the stack's: every job missing, none rejected, no error anywhere
        RunReconciliation run = report.runs().get(0);
        assertEquals(100, run.missing(), run.render());
        assertEquals(0, run.received(), run.render());
        assertEquals(0, run.rejected(), run.render());
    }
}
