package dev.guard.init.diagnose;

import java.util.ArrayDeque;
import java.util.Iterator;
import java.util.function.BiConsumer;

/**
 * One attempt's lines are one error. A connection error that names no host within
 * {@link #LINES} lines of one that does (its "Caused by:", "Suppressed:" or traceback lines) is
 * part of it: it is not counted again, and when the named one only said "failed to connect" the
 * unnamed one's kind (refused, timed out, unknown host) is the attempt's. Signals wait here for
 * {@link #LINES} lines, then go on in their order.
 */
final class ChainWindow {
    static final int LINES = 12;

    private record Entry(Signal s, Group g) {}

    private final ArrayDeque<Entry> window = new ArrayDeque<>();
    private final BiConsumer<Signal, Group> next;

    ChainWindow(BiConsumer<Signal, Group> next) {
        this.next = next;
    }

    void add(Signal s, Group g) {
        int n = s.line().number();
        flushBefore(n - LINES);
        if (chained(s)) {
            Entry named = null;
            for (Entry e : window) {
                if (e.s.type().connectionError() && e.s.host() != null) {
                    named = e;
                }
            }
            if (named != null) {
                refine(named, s);
                return;
            }
        } else if (s.type().connectionError() && s.host() != null) {
            Signal merged = s;
            for (Iterator<Entry> it = window.iterator(); it.hasNext(); ) {
                Entry e = it.next();
                if (chained(e.s)) {
                    merged = refined(merged, e.s);
                    it.remove();
                }
            }
            s = merged;
        }
        window.addLast(new Entry(s, g));
    }

    void flush() {
        flushBefore(Integer.MAX_VALUE);
    }

    private void flushBefore(int line) {
        while (!window.isEmpty() && window.peekFirst().s.line().number() < line) {
            Entry e = window.removeFirst();
            next.accept(e.s, e.g);
        }
    }

    /** An error naming no host that belongs to a nearby one that does (LOADING and auth stand alone). */
    private static boolean chained(Signal s) {
        return s.type().connectionError() && s.host() == null && s.type() != Signal.Type.LOADING
                && s.type() != Signal.Type.AUTH;
    }

    private void refine(Entry named, Signal unnamed) {
        Signal r = refined(named.s, unnamed);
        if (r != named.s) {
            // replace in place, keeping the order
            ArrayDeque<Entry> copy = new ArrayDeque<>(window.size());
            for (Entry e : window) {
                copy.addLast(e == named ? new Entry(r, e.g) : e);
            }
            window.clear();
            window.addAll(copy);
        }
    }

    /** "failed to connect to redis:6379" + "Suppressed: ... Connection refused" is a refused connect to redis:6379. */
    private static Signal refined(Signal named, Signal unnamed) {
        boolean vague = named.type() == Signal.Type.UNAVAILABLE || named.type() == Signal.Type.NO_SERVERS;
        boolean exact = unnamed.type() == Signal.Type.REFUSED || unnamed.type() == Signal.Type.TIMEOUT
                || unnamed.type() == Signal.Type.DNS;
        return vague && exact ? named.withType(unnamed.type()) : named;
    }
}
