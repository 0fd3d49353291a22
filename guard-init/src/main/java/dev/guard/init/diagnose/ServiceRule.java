package dev.guard.init.diagnose;

import java.util.List;

/**
 * Errors naming the service itself (refused, unknown host, unavailable): they stop (the race),
 * never stop while the dependency was killed, or never stop (the service is down).
 */
final class ServiceRule extends ErrorsThatStop {
    ServiceRule() {
        super(List.of(Category.SERVICE, Category.UNVERIFIED), null, true);
    }

    @Override
    String race(Span s, List<Targets.Target> ts) {
        return s.count + " error lines name the service (" + ts.get(0).label() + ") and stop";
    }

    @Override
    void neverStop(Facts f, Verdict v, Span s, List<Targets.Target> ts) {
        String t = ts.get(0).label();
        if (f.context.dependencyKilled()) {
            killed(f, v, "errors naming " + t + " never stop and the dependency was killed");
        } else {
            v.add(Cause.DEPENDENCY_DOWN, s.count + " error lines name the service (" + t + ") and never stop"
                    + (f.crashLoop() ? "; the pod is in CrashLoopBackOff" : ""));
        }
    }
}
