package dev.guard.init.diagnose;

import java.util.List;

/**
 * Errors naming the service itself (refused, unknown host, unavailable): they stop (the race),
 * never stop while the dependency was killed, or never stop (the service is down).
 */
final class ServiceRule implements CauseRule {
    @Override
    public void apply(Facts f, Verdict v) {
        List<Targets.Target> service = f.targets.of(Category.SERVICE, Category.UNVERIFIED);
        if (service.isEmpty()) {
            return;
        }
        Span s = Targets.span(service);
        String t = service.get(0).label();
        v.evidence(s.first(f.group).s(), "first error naming " + t);
        v.evidence(s.last(f.group).s(), "last error naming " + t);
        String stop = f.stopped(s, Targets.keys(service), true);
        if (stop != null) {
            v.add(Cause.STARTUP_RACE, s.count + " error lines name the service (" + t + ") and stop: " + stop);
            f.successEvidence(v, Targets.keys(service));
        } else if (f.context.dependencyKilled()) {
            v.add(Cause.OOM_OR_PROBE_KILL, "errors naming " + t + " never stop and the dependency was killed");
            f.context.killEvidence().forEach(v::evidence);
        } else {
            v.add(Cause.DEPENDENCY_DOWN, s.count + " error lines name the service (" + t + ") and never stop"
                    + (f.crashLoop() ? "; the pod is in CrashLoopBackOff" : ""));
        }
    }
}
