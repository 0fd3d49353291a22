package dev.guard.init.diagnose;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/**
 * One group's signals in capture order, consecutive signals with the same key folded into one
 * {@link Run}: a million "job received/processed" lines are one run. Bounded: past
 * {@link #HEAD} runs only the last {@link #TAIL} are kept (whether errors stop is decided at the
 * end of a log), and the counts live in {@link Group}'s spans, not here.
 */
final class Timeline {
    static final int HEAD = 2_000;
    static final int TAIL = 2_000;
    /** The key of every signal that shows the worker got through. */
    static final Object SUCCESS = "success";

    /** Consecutive signals with one key. */
    static final class Run {
        final Object key;
        final Placed first;
        Placed last;
        int count;

        Run(Object key, Placed first) {
            this.key = key;
            this.first = first;
            this.last = first;
            this.count = 1;
        }
    }

    private final List<Run> head = new ArrayList<>();
    private final ArrayDeque<Run> tail = new ArrayDeque<>();
    private Run current;
    private long dropped;

    void add(Object key, Placed p) {
        if (current != null && current.key.equals(key)) {
            current.last = p;
            current.count++;
            return;
        }
        current = new Run(key, p);
        if (head.size() < HEAD) {
            head.add(current);
            return;
        }
        tail.addLast(current);
        if (tail.size() > TAIL) {
            tail.removeFirst();
            dropped++;
        }
    }

    /** Runs left out between the head and the tail. */
    long dropped() {
        return dropped;
    }

    List<Run> runs() {
        List<Run> all = new ArrayList<>(head.size() + tail.size());
        all.addAll(head);
        all.addAll(tail);
        return all;
    }
}
