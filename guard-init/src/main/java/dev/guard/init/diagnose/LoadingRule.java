package dev.guard.init.diagnose;

import java.util.List;

/**
 * Redis answered LOADING: in the first attempts only (the race), on every attempt while Redis was
 * killed or restarted mid-load, or on every attempt (the load outlasts the worker's patience).
 * Whether the dependency was ready is not asked: LOADING itself says it was up.
 */
final class LoadingRule extends ErrorsThatStop {
    LoadingRule() {
        super(List.of(Category.LOADING), "LOADING reply", false);
    }

    @Override
    String race(Span s, List<Targets.Target> ts) {
        return s.count + " LOADING replies in the first attempts only";
    }

    @Override
    void neverStop(Facts f, Conclusion v, Span s, List<Targets.Target> ts) {
        if (f.context.dependencyKilledMidLoad || f.context.dependencyKilled()) {
            killed(f, v, "LOADING on every attempt, and Redis was killed or restarted mid-load");
        } else {
            v.add(Cause.REDIS_LOADING, s.count + " LOADING replies, on every attempt to the end of the log");
        }
    }
}
