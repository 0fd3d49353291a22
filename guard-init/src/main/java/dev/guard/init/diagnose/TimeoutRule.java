package dev.guard.init.diagnose;

import java.util.List;

/** Connect timeouts: they stop (the race) or go on to the end of the log (something drops the packets). */
final class TimeoutRule extends ErrorsThatStop {
    TimeoutRule() {
        super(List.of(Category.TIMEOUT), "connect timeout", true);
    }

    @Override
    String race(Span s, List<Targets.Target> ts) {
        return s.count + " connect timeouts that stop";
    }

    @Override
    void neverStop(Facts f, Conclusion v, Span s, List<Targets.Target> ts) {
        v.add(Cause.NETWORK_BLOCKED, s.count + " connect timeouts, on every attempt to the end of the log");
    }
}
