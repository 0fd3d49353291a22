package dev.guard.init.diagnose;

import java.util.List;

/** Connection errors that name no host and follow no boot line: the race when they stop; otherwise undecided. */
final class NoHostRule implements CauseRule {
    @Override
    public void apply(Facts f, Verdict v) {
        List<Targets.Target> noHost = f.targets.of(Category.NO_HOST);
        if (noHost.isEmpty()) {
            return;
        }
        Span s = Targets.span(noHost);
        v.evidence(s.first(f.group).s(), "first connection error (names no host)");
        v.evidence(s.last(f.group).s(), "last connection error (names no host)");
        String stop = f.stopped(s, Targets.keys(noHost), true);
        if (stop != null) {
            v.add(Cause.STARTUP_RACE, s.count + " connection errors naming no host, and they stop: " + stop);
            f.successEvidence(v, Targets.keys(noHost));
        } else if (f.context.dependencyKilled()) {
            v.add(Cause.OOM_OR_PROBE_KILL, "connection errors never stop and the dependency was killed");
            f.context.killEvidence().forEach(v::evidence);
        } else {
            v.add(Cause.UNKNOWN, s.count + " connection errors that never stop but name no host (e.g. 'nats: "
                    + "no servers available', 'Connection refused'): drift, down and blocked look the same; "
                    + "log the URL the worker resolved at boot and capture it");
        }
    }
}
