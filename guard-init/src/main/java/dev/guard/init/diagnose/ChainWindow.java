package dev.guard.init.diagnose;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.function.BiConsumer;

/**
 * One attempt's lines are one error. A connection error that names no host is part of a nearby
 * one that does, within {@link #LINES} lines (stack frames not counted): it is not counted again,
 * and it tells the attempt's kind when it says more (the server's LOADING or auth refusal always;
 * refused, timed out or unknown host when the named line only said "failed to connect").
 *
 * <p>Which one: a {@code Caused by:} or {@code Suppressed:} line belongs to the error before it
 * (Java chains: lettuce, Jedis); an error naming no host belongs to a message line before it that
 * also names none and only says the connect failed ({@code could not connect to redis (attempt 3)}
 * above {@code RedisLoadingException: LOADING ...}); any other belongs to the next named error when one follows
 * within {@link #LINES} lines (Python tracebacks print the socket error before the client's, jnats
 * logs the timeout before its "Unable to connect"), else to the one before it. So that both are
 * known, signals wait here {@code 2 x LINES} lines, then go on in their order.
 */
final class ChainWindow {
    static final int LINES = 12;

    private static final class Entry {
        Signal s;
        final Group g;
        final int at;
        final boolean unnamed;

        Entry(Signal s, Group g, int at) {
            this.s = s;
            this.g = g;
            this.at = at;
            // a topology's one-line answer (READONLY, CLUSTERDOWN) is an attempt of its own, never part of another
            this.unnamed = s.type().connectionError() && s.host() == null && s.type() != Signal.Type.READONLY
                    && s.type() != Signal.Type.CLUSTER_DOWN;
        }

        boolean named() {
            return s.type().connectionError() && s.host() != null;
        }
    }

    private final List<Entry> window = new ArrayList<>();
    private final BiConsumer<Signal, Group> next;

    ChainWindow(BiConsumer<Signal, Group> next) {
        this.next = next;
    }

    /** {@code at} is the line's place in the file, stack frames not counted. */
    void add(Signal s, Group g, int at) {
        flushBefore(at - 2 * LINES);
        if (window.isEmpty() && !s.type().connectionError()) {
            // only connection errors are ever joined; with none waiting before it, a job line goes on at once
            next.accept(s, g);
            return;
        }
        Entry e = new Entry(s, g, at);
        if (e.unnamed) {
            Entry before = continuation(s) ? namedBefore(at) : null;
            if (before == null) {
                // "could not connect to redis (attempt 3)", naming no host, then the exception that says
                // how (io.lettuce.core.RedisLoadingException: LOADING ..., its Caused by:): one attempt
                before = vagueBefore(at);
            }
            if (before != null) {
                before.s = refined(before.s, s);
                return;
            }
        } else if (e.named()) {
            for (Iterator<Entry> it = window.iterator(); it.hasNext(); ) {
                Entry u = it.next();
                if (u.unnamed && at - u.at <= LINES) {
                    e.s = refined(e.s, u.s);
                    it.remove();
                }
            }
        }
        window.add(e);
    }

    void flush() {
        flushBefore(Integer.MAX_VALUE);
    }

    private void flushBefore(int at) {
        while (!window.isEmpty() && window.get(0).at < at) {
            Entry e = window.remove(0);
            if (e.named()) {
                // unnamed errors just after it that no later named error took are its own
                for (Iterator<Entry> it = window.iterator(); it.hasNext(); ) {
                    Entry u = it.next();
                    if (u.unnamed && u.at - e.at <= LINES && !namedBetween(e.at, u.at)) {
                        e.s = refined(e.s, u.s);
                        it.remove();
                    }
                }
            }
            next.accept(e.s, e.g);
        }
    }

    private Entry namedBefore(int at) {
        for (int i = window.size() - 1; i >= 0; i--) {
            Entry e = window.get(i);
            if (at - e.at > LINES) {
                return null;
            }
            if (e.named()) {
                return e;
            }
        }
        return null;
    }

    /**
     * The nearest error before {@code at} (within {@link #LINES}) that names no host and says only
     * that the connect failed, with no named error after it: the message line of an attempt whose
     * exception follows.
     */
    private Entry vagueBefore(int at) {
        for (int i = window.size() - 1; i >= 0; i--) {
            Entry e = window.get(i);
            if (at - e.at > LINES || e.named()) {
                return null;
            }
            if (e.unnamed && vague(e.s) && !continuation(e.s)) {
                return e;
            }
        }
        return null;
    }

    private static boolean vague(Signal s) {
        return s.type() == Signal.Type.UNAVAILABLE || s.type() == Signal.Type.NO_SERVERS;
    }

    private boolean namedBetween(int from, int to) {
        for (Entry e : window) {
            if (e.at > from && e.at < to && e.named()) {
                return true;
            }
        }
        return false;
    }

    /** Java's chain lines: the cause or suppressed exception of the error logged above. */
    private static boolean continuation(Signal s) {
        String t = s.line().text().stripLeading();
        return t.startsWith("Caused by:") || t.startsWith("Suppressed:");
    }

    /** "failed to connect to redis:6379" + "Suppressed: ... Connection refused" is a refused connect to redis:6379. */
    private static Signal refined(Signal named, Signal unnamed) {
        if (unnamed.type() == Signal.Type.LOADING || unnamed.type() == Signal.Type.AUTH) {
            // the server answered: the attempt failed on what it said, not on the connect
            return named.withType(unnamed.type());
        }
        boolean vague = vague(named);
        boolean exact = unnamed.type() == Signal.Type.REFUSED || unnamed.type() == Signal.Type.TIMEOUT
                || unnamed.type() == Signal.Type.DNS;
        return vague && exact ? named.withType(unnamed.type()) : named;
    }
}
