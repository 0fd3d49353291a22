package dev.guard.init.diagnose;

/**
 * How many signals of one kind a group holds, and the first and last of them: in capture order,
 * and by timestamp, so the group's order ({@link Group#timed()}) can pick either once all is read.
 */
final class Span {
    int count;
    /** True when a signal in it has no timestamp. */
    boolean untimed;
    private Placed firstRead;
    private Placed lastRead;
    private Placed earliest;
    private Placed latest;

    void add(Placed p) {
        if (firstRead == null) {
            firstRead = p;
        }
        lastRead = p;
        long n = p.nanos();
        untimed |= n == Long.MIN_VALUE;
        if (n != Long.MIN_VALUE) {
            if (earliest == null || n < earliest.nanos()) {
                earliest = p;
            }
            if (latest == null || n >= latest.nanos()) {
                latest = p;
            }
        }
        count++;
    }

    Placed first(Group g) {
        return g.timed() && earliest != null ? earliest : firstRead;
    }

    Placed last(Group g) {
        return g.timed() && latest != null ? latest : lastRead;
    }

    /** Several spans as one: counts summed, first and last by the group's order. */
    static Span of(Iterable<Span> spans) {
        Span m = new Span();
        for (Span s : spans) {
            m.count += s.count;
            m.untimed |= s.untimed;
            m.firstRead = pick(m.firstRead, s.firstRead, true, false);
            m.lastRead = pick(m.lastRead, s.lastRead, false, false);
            m.earliest = pick(m.earliest, s.earliest, true, true);
            m.latest = pick(m.latest, s.latest, false, true);
        }
        return m;
    }

    private static Placed pick(Placed a, Placed b, boolean min, boolean byTime) {
        if (a == null) {
            return b;
        }
        if (b == null) {
            return a;
        }
        long x = byTime ? a.nanos() : a.seq();
        long y = byTime ? b.nanos() : b.seq();
        return min == (x <= y) ? a : b;
    }
}
