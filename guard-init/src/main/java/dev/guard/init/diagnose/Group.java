package dev.guard.init.diagnose;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Everything diagnose keeps of one worker type, backend or dependency while the capture streams
 * past: per connection-error key a {@link Span}, the folded {@link Timeline}, counts and a bounded
 * sample of the other signals, the jobs each log left in flight. Its size does not grow with the
 * number of lines, only with the number of distinct hosts and the alternations kept.
 */
final class Group {
    /** Signals of one other type kept as evidence. */
    static final int SAMPLE = 20;
    /** Distinct connection-error keys kept; errors past them count under one key naming no host. */
    static final int KEYS = 1_000;

    final String name;
    final Set<LogKind> kinds = EnumSet.noneOf(LogKind.class);
    boolean hasAppText;
    Role role = Role.APPLICATION;
    final Timeline timeline = new Timeline();
    final Map<ErrorKey, Span> errors = new LinkedHashMap<>();
    final Span received = new Span();
    final Span processed = new Span();
    Placed lastLedger;
    /** The first line that names Sentinel or a Cluster (a client class, a URL, a reply): null when none did. */
    LogLine topologyHint;
    Placed firstBoot;
    Placed lastBoot;
    /** The last connect a client announced ({@link Signal.Type#CONNECTING}), cleared by a READY after it. */
    Placed pendingConnect;
    /** The time of the last line of the group's logs that had one: how long the log went on. */
    java.time.Instant lastLineTime;
    /** The worker's own retry lines: how long its failed connects took. */
    final Retries retries = new Retries();
    private final int[] counts = new int[Signal.Type.values().length];
    private final Map<Signal.Type, List<Placed>> samples = new EnumMap<>(Signal.Type.class);
    private final List<InFlight> inFlight = new ArrayList<>();
    private boolean untimed;
    private long signals;
    private long timedSignals;
    /** True when errors naming more than {@link #KEYS} targets were counted as naming none. */
    boolean foldedKeys;

    /** Jobs one log received and never processed after the last job it did finish. */
    record InFlight(boolean previous, int count, Placed first) {}

    Group(String name) {
        this.name = name;
    }

    void add(Placed p, ErrorKey key) {
        Signal s = p.s();
        signals++;
        if (s.line().time() == null) {
            untimed = true;
        } else {
            timedSignals++;
        }
        Signal.Type t = s.type();
        if (t.connectionError()) {
            if (errors.size() >= KEYS && !errors.containsKey(key)) {
                key = new ErrorKey(t, null, 0, false);
                foldedKeys = true;
            }
            errors.computeIfAbsent(key, k -> new Span()).add(p);
            timeline.add(key, p);
            return;
        }
        switch (t) {
            case CONNECTING -> pendingConnect = p;
            case READY, JOB_RECEIVED, JOB_PROCESSED, LEDGER -> {
                pendingConnect = null;
                timeline.add(Timeline.SUCCESS, p);
                if (t == Signal.Type.JOB_RECEIVED) {
                    received.add(p);
                    return;
                } else if (t == Signal.Type.JOB_PROCESSED) {
                    processed.add(p);
                    return;
                } else if (t == Signal.Type.LEDGER) {
                    lastLedger = p;
                }
            }
            case SERVER_STARTING, SERVER_LOADING, SERVER_LOADED, SERVER_READY, SERVER_SIGTERM,
                    SERVER_SHUTDOWN_DURING_LOADING, SENTINEL_MODE -> timeline.add(t, p);
            case BOOT_TARGET -> {
                if (firstBoot == null) {
                    firstBoot = p;
                }
                lastBoot = p;
            }
            default -> { }
        }
        counts[t.ordinal()]++;
        List<Placed> sample = samples.computeIfAbsent(t, k -> new ArrayList<>());
        if (sample.size() < SAMPLE) {
            sample.add(p);
        }
    }

    void inFlight(InFlight f) {
        if (f.count() > 0) {
            inFlight.add(f);
        }
    }

    List<InFlight> inFlight() {
        return inFlight;
    }

    /** True when every signal of the group has a timestamp: then "after" is by time. */
    boolean timed() {
        return !untimed;
    }

    /** True when at least one signal has a timestamp. */
    boolean anyTimed() {
        return timedSignals > 0;
    }

    /** The sampled signals of these types, in capture order. */
    List<Signal> sampleInOrder(Signal.Type... types) {
        List<Placed> all = new ArrayList<>();
        for (Signal.Type t : types) {
            all.addAll(samples.getOrDefault(t, List.of()));
        }
        all.sort(java.util.Comparator.comparingLong(Placed::seq));
        List<Signal> out = new ArrayList<>();
        all.forEach(p -> out.add(p.s()));
        return out;
    }

    /** True when {@code a} comes before {@code b} in the group's order. */
    boolean before(Placed a, Placed b) {
        if (timed()) {
            long x = a.nanos();
            long y = b.nanos();
            if (x != y) {
                return x < y;
            }
        }
        return a.seq() < b.seq();
    }

    long position(Placed p) {
        return timed() ? p.nanos() : p.seq();
    }

    /** Signals of a type other than a connection error or a job line. */
    int count(Signal.Type t) {
        return counts[t.ordinal()];
    }

    /** The first {@link #SAMPLE} signals of a type other than a connection error. */
    List<Signal> sample(Signal.Type t) {
        List<Placed> ps = samples.get(t);
        List<Signal> out = new ArrayList<>();
        if (ps != null) {
            ps.forEach(p -> out.add(p.s()));
        }
        return out;
    }

    boolean has(Signal.Type t) {
        return count(t) > 0;
    }

    /** True when any line of the group said something. */
    boolean hasSignals() {
        return signals > 0;
    }

    boolean hasJobs() {
        return received.count + processed.count > 0 || lastLedger != null;
    }
}
