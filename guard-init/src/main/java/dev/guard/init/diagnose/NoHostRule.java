package dev.guard.init.diagnose;

import java.util.List;

/** Connection errors that name no host and follow no boot line: the race when they stop; otherwise undecided. */
final class NoHostRule extends ErrorsThatStop {
    NoHostRule() {
        super(List.of(Category.NO_HOST), "connection error (names no host)", true);
    }

    @Override
    String race(Span s, List<Targets.Target> ts) {
        return s.count + " connection errors naming no host, and they stop";
    }

    @Override
    void neverStop(Facts f, Conclusion v, Span s, List<Targets.Target> ts) {
        if (f.context.dependencyKilled()) {
            killed(f, v, "connection errors never stop and the dependency was killed");
        } else {
            v.add(Cause.UNKNOWN, s.count + " connection errors that never stop but name no host (e.g. 'nats: "
                    + "no servers available', 'Connection refused'): drift, down and blocked look the same; "
                    + "log the URL the worker resolved at boot and capture it");
        }
    }
}
