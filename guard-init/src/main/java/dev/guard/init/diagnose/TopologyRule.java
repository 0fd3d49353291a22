package dev.guard.init.diagnose;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Sentinel and Cluster answers that say the data is elsewhere: READONLY (a write sent to a replica)
 * and MOVED/ASK (a Cluster node pointing at another). When they stop, the client followed the
 * topology after a change (a failover); when they go on to the end of the log, the worker is
 * pinned to one node. Errors naming a master Sentinel has switched away from, to the end of the
 * log, are the same pinning ({@link #pinnedToOldMaster}).
 */
final class TopologyRule implements CauseRule {
    @Override
    public void apply(Facts f, Conclusion v) {
        List<Targets.Target> readonly = new ArrayList<>();
        List<Targets.Target> moved = new ArrayList<>();
        for (Targets.Target t : f.targets.of(Category.TOPOLOGY)) {
            (t.label().equals("READONLY") ? readonly : moved).add(t);
        }
        judge(f, v, readonly, "READONLY replies (writes sent to a replica)",
                "the worker writes to a node that is a replica now: pinned to one address, it did not follow");
        judge(f, v, moved, "MOVED/ASK replies",
                "the worker sends its commands to one Cluster node with a client that does not follow redirects "
                        + "(plain client or no cluster mode)");
    }

    private static void judge(Facts f, Conclusion v, List<Targets.Target> ts, String what, String pinned) {
        if (ts.isEmpty()) {
            return;
        }
        Span s = Targets.span(ts);
        Set<ErrorKey> keys = Targets.keys(ts);
        List<String> labels = new ArrayList<>();
        ts.forEach(t -> labels.add(t.label()));
        v.evidence(s.first(f.group).s(), "first of the " + what);
        v.evidence(s.last(f.group).s(), "last of the " + what);
        String stop = f.stopped(s, keys, false);
        Signal fo = f.failoverDuring(s);
        if (fo != null) {
            v.evidence(fo, Facts.failoverWhy(fo));
        }
        String around = fo == null ? "" : "; the failover at " + fo.line().where() + ": " + Facts.failoverWhy(fo);
        if (stop != null) {
            v.add(Cause.FAILOVER, s.count + " " + what + " that stop (" + String.join(", ", labels) + "): the topology "
                    + "changed under the worker and its client caught up, " + stop + around);
            f.successEvidence(v, keys);
        } else {
            v.add(Cause.TOPOLOGY_NOT_FOLLOWED, s.count + " " + what + " to the end of the log (" + String.join(", ", labels)
                    + "): " + pinned + around);
            failoverToo(v, fo);
        }
    }

    /** A worker that did not follow a failover still lived through one: the master died, and that is to be found too. */
    static void failoverToo(Conclusion v, Signal fo) {
        if (fo != null) {
            v.add(Cause.FAILOVER, "the master failed over while this worker was pinned to one node ("
                    + Facts.failoverWhy(fo) + ", " + fo.line().where() + "): find why it died, then point the worker "
                    + "at Sentinel or the Cluster");
        }
    }

    /**
     * Errors that never stop, naming the address Sentinel switched a master away from: the worker
     * is pinned to the old master. The failover's line; null when they name no such address.
     */
    static Signal pinnedToOldMaster(Facts f, List<Targets.Target> ts) {
        for (Signal fo : f.context.failovers) {
            if (fo.type() != Signal.Type.SWITCH_MASTER || fo.detail() == null) {
                continue;
            }
            String old = fo.detail().substring(fo.detail().indexOf(' ') + 1);
            for (Targets.Target t : ts) {
                for (ErrorKey k : t.keys()) {
                    if (k.host() != null && k.port() > 0 && old.endsWith(":" + k.port())
                            && (old.equals(Hosts.withPort(k.host(), k.port())) || !Hosts.isIpLiteral(k.host()))) {
                        return fo;
                    }
                }
            }
        }
        return null;
    }
}
