package dev.guard.init.diagnose;

import java.util.List;

/** Connect timeouts: they stop (the race) or go on to the end of the log (something drops the packets). */
final class TimeoutRule implements CauseRule {
    @Override
    public void apply(Facts f, Verdict v) {
        List<Targets.Target> timeouts = f.targets.of(Category.TIMEOUT);
        if (timeouts.isEmpty()) {
            return;
        }
        Span s = Targets.span(timeouts);
        v.evidence(s.first(f.group).s(), "first connect timeout");
        v.evidence(s.last(f.group).s(), "last connect timeout");
        String stop = f.stopped(s, Targets.keys(timeouts), true);
        if (stop != null) {
            v.add(Cause.STARTUP_RACE, s.count + " connect timeouts that stop: " + stop);
            f.successEvidence(v, Targets.keys(timeouts));
        } else {
            v.add(Cause.NETWORK_BLOCKED, s.count + " connect timeouts, on every attempt to the end of the log");
        }
    }
}
