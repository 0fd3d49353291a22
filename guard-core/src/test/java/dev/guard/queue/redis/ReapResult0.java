package dev.guard.queue.redis;

import dev.guard.testing.Patience;

/** Test helper: polls a reaper until it reaps something (bounded). */
final class ReapResult0 {

    private ReapResult0() {}

    static ReapResult awaitReap(ListReaper reaper) throws InterruptedException {
        long until = System.nanoTime() + Patience.WAIT.toNanos();
        while (System.nanoTime() < until) {
            ReapResult r = reaper.reapOnce();
            if (!r.isEmpty()) {
                return r;
            }
            Thread.sleep(50);
        }
        throw new AssertionError("the reaper found no dead worker within " + Patience.WAIT.toSeconds() + " s");
    }
}
