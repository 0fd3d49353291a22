package dev.guard.init.diagnose;

import java.util.List;
import java.util.Set;

/**
 * The runbook's second question for one kind of error: do they stop? When they do (the worker
 * got through afterwards, its last error came before the dependency was ready, its pod runs
 * again), it is the race; what it is when they never stop is each subclass's answer.
 */
abstract class ErrorsThatStop implements CauseRule {
    private final List<Category> categories;
    private final String what;
    private final boolean useDependencyReady;

    /** {@code what} names the errors in the evidence ("connect timeout"); null: "error naming TARGET". */
    ErrorsThatStop(List<Category> categories, String what, boolean useDependencyReady) {
        this.categories = categories;
        this.what = what;
        this.useDependencyReady = useDependencyReady;
    }

    @Override
    public final void apply(Facts f, Conclusion v) {
        List<Targets.Target> ts = f.targets.of(categories.toArray(Category[]::new));
        if (ts.isEmpty()) {
            return;
        }
        Span s = Targets.span(ts);
        Set<ErrorKey> keys = Targets.keys(ts);
        String name = what != null ? what : "error naming " + ts.get(0).label();
        v.evidence(s.first(f.group).s(), "first " + name);
        v.evidence(s.last(f.group).s(), "last " + name);
        String stop = f.stopped(s, keys, useDependencyReady);
        if (stop != null) {
            String failover = failover(f, v, s);
            v.add(failover != null ? Cause.FAILOVER : Cause.STARTUP_RACE, race(s, ts) + ": " + stop
                    + (failover != null ? "; " + failover : ""));
            f.successEvidence(v, keys);
        } else {
            neverStop(f, v, s, ts);
        }
    }

    /**
     * Why errors that stopped are a failover, not the race: a failover logged by Sentinel or a
     * Cluster node around them, or errors that began mid-run on a Sentinel or Cluster target;
     * null when neither.
     */
    static String failover(Facts f, Conclusion v, Span s) {
        Signal fo = f.failoverDuring(s);
        if (fo != null) {
            v.evidence(fo, Facts.failoverWhy(fo));
            return "they came with the failover at " + fo.line().where() + " (" + Facts.failoverWhy(fo) + ")";
        }
        String discovery = f.discovery();
        if (discovery != null && f.midRun(s)) {
            return "they began after jobs had been processed, on a Sentinel or Cluster target (" + discovery
                    + "): most likely a failover; capture the sentinels' or nodes' logs to see it (+switch-master, "
                    + "'Failover election won')";
        }
        return null;
    }

    /** The race's reason, before ": how they stopped". */
    abstract String race(Span s, List<Targets.Target> ts);

    /** What errors that go on to the end of the log are. */
    abstract void neverStop(Facts f, Conclusion v, Span s, List<Targets.Target> ts);

    /** The errors never stop and a dependency was killed: that kill, with its evidence. */
    static void killed(Facts f, Conclusion v, String reason) {
        v.add(Cause.OOM_OR_PROBE_KILL, reason);
        f.context.killEvidence().forEach(v::evidence);
    }
}
