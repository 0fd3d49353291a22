package dev.guard.ready;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/** Test helper: records every state change the gate reports, with the instant it was seen. */
public final class Recorder implements ReadinessListener {

    /** One state change. */
    public record Change(ProbeResult previous, ProbeResult current, Instant at) {}

    private final List<Change> changes = new CopyOnWriteArrayList<>();
    private final List<Waiter> waiters = new CopyOnWriteArrayList<>();

    private record Waiter(Predicate<ProbeResult> condition, CountDownLatch latch) {}

    @Override
    public void onStateChange(ProbeResult previous, ProbeResult current) {
        changes.add(new Change(previous, current, Instant.now()));
        for (Waiter w : waiters) {
            if (w.condition.test(current)) {
                w.latch.countDown();
            }
        }
    }

    public List<Change> changes() {
        return List.copyOf(changes);
    }

    /** The sequence of states for one target, e.g. [refused, ready]. */
    public List<ProbeState> states(String target) {
        List<ProbeState> out = new ArrayList<>();
        for (Change c : changes) {
            if (c.current().target().equals(target)) {
                out.add(c.current().state());
            }
        }
        return out;
    }

    /** The first change into {@code state} for {@code target}, or null. */
    public Change first(String target, ProbeState state) {
        return changes.stream().filter(c -> c.current().target().equals(target) && c.current().state() == state)
                .findFirst().orElse(null);
    }

    /** Returns a latch released when a change matching the condition is reported (from now on). */
    public CountDownLatch when(Predicate<ProbeResult> condition) {
        CountDownLatch latch = new CountDownLatch(1);
        waiters.add(new Waiter(condition, latch));
        return latch;
    }

    /** Waits (bounded) for the latch; fails with the recorded changes if it is not released. */
    public void await(CountDownLatch latch, java.time.Duration bound, String what) throws InterruptedException {
        await(latch, bound.toSeconds(), what);
    }

    /** Waits (bounded) for the latch; fails with the recorded changes if it is not released. */
    public void await(CountDownLatch latch, long seconds, String what) throws InterruptedException {
        if (!latch.await(seconds, TimeUnit.SECONDS)) {
            throw new AssertionError("no state change '" + what + "' within " + seconds + " s; seen: " + changes);
        }
    }
}
