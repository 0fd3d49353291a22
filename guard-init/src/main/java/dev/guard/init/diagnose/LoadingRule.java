package dev.guard.init.diagnose;

import java.util.List;

/**
 * Redis answered LOADING: in the first attempts only (the race), on every attempt while Redis was
 * killed or restarted mid-load, or on every attempt (the load outlasts the worker's patience).
 */
final class LoadingRule implements CauseRule {
    @Override
    public void apply(Facts f, Verdict v) {
        List<Targets.Target> loading = f.targets.of(Category.LOADING);
        if (loading.isEmpty()) {
            return;
        }
        Span s = Targets.span(loading);
        v.evidence(s.first(f.group).s(), "first LOADING reply");
        v.evidence(s.last(f.group).s(), "last LOADING reply");
        String stop = f.stopped(s, Targets.keys(loading), false);
        if (stop != null) {
            v.add(Cause.STARTUP_RACE, s.count + " LOADING replies in the first attempts only: " + stop);
            f.successEvidence(v, Targets.keys(loading));
        } else if (f.context.dependencyKilledMidLoad || f.context.dependencyKilled()) {
            v.add(Cause.OOM_OR_PROBE_KILL, "LOADING on every attempt, and Redis was killed or restarted mid-load");
            f.context.killEvidence().forEach(v::evidence);
        } else {
            v.add(Cause.REDIS_LOADING, s.count + " LOADING replies, on every attempt to the end of the log");
        }
    }
}
