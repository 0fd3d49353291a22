package dev.guard.queue.redis;

import java.time.Duration;

/** Test helper: polls a reaper until it reaps something (bounded). */
final class ReapResult0 {

    private ReapResult0() {}

    static ReapResult awaitReap(ListReaper reaper) throws InterruptedException {
        long until = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (System.nanoTime() < until) {
            ReapResult r = reaper.reapOnce();
            if (!r.isEmpty()) {
                return r;
            }
            Thread.sleep(50);
        }
        throw new AssertionError("the reaper found no dead worker within 10 s");
    }
}
