package dev.guard.schema.boundary;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.guard.schema.Outcome;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class LedgerTest {

    @Test
    void countsBalanceAndSummaryLineReadsLikeTheIssue() {
        Ledger l = new Ledger();
        for (int i = 0; i < 100; i++) {
            l.received("j" + i);
            l.record("j" + i, i < 91 ? Outcome.PROCESSED : Outcome.REJECTED);
        }
        Reconciliation r = l.reconcile();
        assertTrue(r.balanced());
        assertEquals("received=100 processed=91 rejected=9 failed=0 handed_back=0 missing=0", l.summaryLine());
        assertEquals("{\"received\":100,\"processed\":91,\"rejected\":9,\"failed\":0,\"handed_back\":0,\"duplicate\":0,\"superseded\":0,\"missing\":0,"
                + "\"missing_ids\":[],\"balanced\":true}", l.toJson());
    }

    @Test
    void secondOutcomeForTheSameJobIsAnErrorNotACount() {
        Ledger l = new Ledger();
        l.received("a");
        l.record("a", Outcome.PROCESSED);
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> l.record("a", Outcome.FAILED));
        assertEquals("ledger: job a has no reception waiting for an outcome, cannot record FAILED (it already ended as PROCESSED); "
                + "every received job gets exactly one outcome: call received(id) once per delivery and record(id, outcome) once", e.getMessage());
        IllegalStateException never = assertThrows(IllegalStateException.class, () -> l.record("zz", Outcome.REJECTED));
        assertTrue(never.getMessage().contains("cannot record REJECTED (it was never received)"), never.getMessage());
        assertEquals("received=1 processed=1 rejected=0 failed=0 handed_back=0 missing=0", l.summaryLine());
    }

    @Test
    void redeliveryIsASecondReceptionAndMissingIdsAreListed() {
        Ledger l = new Ledger();
        l.received("a");
        l.received("b");
        l.received("a");
        l.record("a", Outcome.FAILED);
        Reconciliation r = l.reconcile();
        assertFalse(r.balanced());
        assertEquals(List.of("a", "b"), r.missingIds());
        assertEquals("received=3 processed=0 rejected=0 failed=1 handed_back=0 missing=2 missing_ids=a,b", r.summaryLine());
        l.record("a", Outcome.HANDED_BACK);
        l.record("b", Outcome.PROCESSED);
        assertTrue(l.reconcile().balanced());
    }

    @Test
    void longMissingListIsTruncatedInTheLineButCompleteInTheData() {
        Ledger l = new Ledger();
        for (int i = 0; i < 25; i++) {
            l.received("m" + i);
        }
        assertTrue(l.summaryLine().endsWith("missing=25 missing_ids=m0,m1,m2,m3,m4,m5,m6,m7,m8,m9,m10,m11,m12,m13,m14,m15,m16,m17,m18,m19,...(+5)"),
                l.summaryLine());
        assertEquals(25, l.reconcile().missingIds().size());
    }

    @Test
    void threadSafeUnderConcurrentUse() throws Exception {
        Ledger l = new Ledger();
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<?>> fs = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                int thread = t;
                fs.add(pool.submit(() -> {
                    for (int i = 0; i < 5000; i++) {
                        String id = thread + "-" + i;
                        l.received(id);
                        l.record(id, Outcome.values()[i % 4]);
                    }
                }));
            }
            for (Future<?> f : fs) {
                f.get(30, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
        assertEquals("received=20000 processed=5000 rejected=5000 failed=5000 handed_back=5000 missing=0", l.summaryLine());
    }

    @Test
    void nullOrEmptyIdsAreRefused() {
        Ledger l = new Ledger();
        assertEquals("ledger: job id must be a non-empty string, was null",
                assertThrows(IllegalArgumentException.class, () -> l.received(null)).getMessage());
        assertThrows(IllegalArgumentException.class, () -> l.record("", Outcome.PROCESSED));
    }
}
