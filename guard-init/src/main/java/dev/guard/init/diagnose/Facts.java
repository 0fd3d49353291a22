package dev.guard.init.diagnose;

import java.time.Instant;
import java.util.Set;

/** One group, its errors by target, and the context: what each {@link CauseRule} reads. */
final class Facts {
    final Group group;
    final Targets targets;
    final Context context;

    Facts(Group group, Targets targets, Context context) {
        this.group = group;
        this.targets = targets;
        this.context = context;
    }

    /** The URL the worker resolved at boot; null when it logged none. */
    Signal boot() {
        return group.firstBoot == null ? null : group.firstBoot.s();
    }

    /**
     * Why the addresses this group connects to may come from a topology rather than its own URL
     * (a Sentinel URL, a cluster flag, a client that names Sentinel or a Cluster, a sentinel's or
     * node's log captured); null when nothing says so.
     */
    String discovery() {
        Signal boot = boot();
        if (boot != null && boot.detail() != null && boot.detail().endsWith("sentinel")) {
            return "the worker's URL is a Sentinel URL (" + boot.line().where() + ")";
        }
        if (boot != null && boot.line().text().contains("cluster=true")) {
            return "the worker's URL is a Cluster URL (" + boot.line().where() + ")";
        }
        if (group.topologyHint != null) {
            return "the worker's log names Sentinel or a Cluster (" + group.topologyHint.where() + ")";
        }
        if (context.topology) {
            return "a sentinel's or Cluster node's log was captured";
        }
        return null;
    }

    /** The failover these errors lasted through (Sentinel's +switch-master, a won Cluster election); null when none. */
    Signal failoverDuring(Span errors) {
        if (context.failovers.isEmpty()) {
            return null;
        }
        java.time.Instant first = errors.untimed ? null : errors.first(group).s().line().time();
        java.time.Instant last = errors.untimed ? null : errors.last(group).s().line().time();
        return context.failoverNear(first, last);
    }

    /** What a failover line says, in a few words. */
    static String failoverWhy(Signal fo) {
        return fo.type() == Signal.Type.SWITCH_MASTER
                ? "Sentinel switched master " + fo.detail().replace(" ", " from ") + " to " + fo.target()
                : "a Cluster replica won the failover election";
    }

    /** True when a job was processed before these errors began: they came mid-run, not at start. */
    boolean midRun(Span errors) {
        return group.processed.count > 0 && group.before(group.processed.first(group), errors.first(group));
    }

    boolean crashLoop() {
        return group.sample(Signal.Type.CRASH_LOOP).stream().anyMatch(s -> "status".equals(s.detail()));
    }

    boolean running() {
        return group.has(Signal.Type.POD_RUNNING);
    }

    /** Running again after restarts, not in CrashLoopBackOff. */
    boolean recoveredPod() {
        return running() && group.has(Signal.Type.RESTARTS) && !crashLoop();
    }

    /** The first sign that the group got through after the last of these errors; null when there is none. */
    Placed successAfter(Set<ErrorKey> keys) {
        Group g = group;
        Placed lastError = null;
        for (ErrorKey k : keys) {
            Span s = g.errors.get(k);
            Placed l = s == null ? null : s.last(g);
            if (l != null && (lastError == null || g.before(lastError, l))) {
                lastError = l;
            }
        }
        if (lastError == null) {
            return null;
        }
        Placed best = null;
        for (Timeline.Run r : g.timeline.runs()) {
            if (r.key != Timeline.SUCCESS || !g.before(lastError, r.last)) {
                continue;
            }
            Placed candidate = g.before(lastError, r.first) ? r.first : r.last;
            if (best == null || g.before(candidate, best)) {
                best = candidate;
            }
        }
        return best;
    }

    /** Why these errors count as stopped, or null when they never stop. */
    String stopped(Span errors, Set<ErrorKey> keys, boolean useDependencyReady) {
        Placed after = successAfter(keys);
        if (after != null) {
            return "then " + describe(after.s()) + " at " + after.s().line().where();
        }
        Instant lastErr = errors.untimed ? null : errors.last(group).s().line().time();
        Instant ready = context.dependencyReady;
        if (useDependencyReady && ready != null && lastErr != null && !lastErr.isAfter(ready)) {
            return "the last error (" + lastErr + ") is before the dependency's 'Ready to accept connections' ("
                    + ready + "): the worker gave up before it was ready";
        }
        if (useDependencyReady && recoveredPod()) {
            return "the pod is Running again after restarts (not CrashLoopBackOff)";
        }
        return null;
    }

    /** Adds the first success after these errors as evidence. */
    void successEvidence(Conclusion v, Set<ErrorKey> keys) {
        Placed after = successAfter(keys);
        if (after != null) {
            v.evidence(after.s(), "first success after the errors: " + describe(after.s()));
        }
    }

    static String describe(Signal s) {
        return switch (s.type()) {
            case READY -> "ready (" + s.target() + ")";
            case JOB_RECEIVED -> "a job received";
            case JOB_PROCESSED -> "a job processed";
            case LEDGER -> "a ledger summary";
            default -> s.type().name();
        };
    }
}
