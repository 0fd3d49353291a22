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

    /** True when every error only said "unable to connect" (jnats 2.11, NoBrokersAvailable, a Kafka disconnect). */
    private static boolean saysNoKind(List<Targets.Target> ts) {
        for (Targets.Target t : ts) {
            for (ErrorKey k : t.keys()) {
                if (k.type() != Signal.Type.UNAVAILABLE && k.type() != Signal.Type.NO_SERVERS) {
                    return false;
                }
            }
        }
        return true;
    }

    /**
     * Errors that name no host (they borrowed the boot URL's) from a client that connects where a
     * topology sends it, while the client or the topology names a loopback address as where it goes:
     * that line; null otherwise.
     */
    private static Signal announcedWhileNamingNoHost(Facts f, List<Targets.Target> ts) {
        Signal boot = f.boot();
        boolean borrowed = ts.stream().allMatch(t -> t.keys().stream().allMatch(ErrorKey::fromBoot));
        if (!borrowed || boot == null || boot.host() == null || Hosts.isLoopback(boot.host()) || f.discovery() == null) {
            return null;
        }
        for (Signal d : f.group.sample(Signal.Type.DISCOVERED)) {
            if (Hosts.isLoopback(d.host())) {
                return d;
            }
        }
        for (Signal a : f.context.announced.values()) {
            if (Hosts.isLoopback(a.host())) {
                return a;
            }
        }
        return null;
    }

    /** Sentinel saw the master down and no failover followed: why nothing took over. */
    private static String noFailover(Facts f, Conclusion v) {
        if (f.context.mastersDown.isEmpty() || !f.context.failovers.isEmpty()) {
            return "";
        }
        Signal down = f.context.mastersDown.get(f.context.mastersDown.size() - 1);
        v.evidence(down, "Sentinel sees the master down");
        return "; the sentinels saw master " + down.detail() + " at " + down.target() + " down (" + down.line().where()
                + ") and no failover followed: no replica could take over (none, or none in sync), or too few sentinels "
                + "agree (quorum); bring the master back or give it a replica";
    }

    private static boolean says(List<Targets.Target> ts, Signal.Type type) {
        return ts.stream().anyMatch(t -> t.keys().stream().anyMatch(k -> k.type() == type));
    }

    @Override
    String race(Span s, List<Targets.Target> ts) {
        return s.count + " error lines name the service (" + ts.get(0).label() + ") and stop";
    }

    @Override
    void neverStop(Facts f, Conclusion v, Span s, List<Targets.Target> ts) {
        String t = ts.get(0).label();
        long hang = f.group.retries.hangMs();
        Signal pinned = TopologyRule.pinnedToOldMaster(f, ts);
        Signal said = pinned == null ? announcedWhileNamingNoHost(f, ts) : null;
        if (pinned != null) {
            v.add(Cause.TOPOLOGY_NOT_FOLLOWED, s.count + " error lines name " + t + " to the end of the log, the address "
                    + "of the master before the failover at " + pinned.line().where() + " (" + Facts.failoverWhy(pinned)
                    + "): the worker is pinned to the old master's address and never asks Sentinel");
            v.evidence(pinned, Facts.failoverWhy(pinned));
            TopologyRule.failoverToo(v, pinned);
        } else if (said != null) {
            v.add(Cause.ANNOUNCED_ADDRESS, s.count + " error lines that name no host never stop, while the worker's URL names "
                    + f.boot().target() + " and " + (said.type() == Signal.Type.DISCOVERED ? "its client says Sentinel sent it to "
                    + said.target() : "the topology announces " + said.target()) + " (" + said.line().where() + "), a loopback "
                    + "address: the client connects where Sentinel or the Cluster tells it, which is this container itself");
            v.evidence(said, said.type() == Signal.Type.DISCOVERED ? "where the client was sent" : "what the topology announces");
        } else if (f.context.dependencyKilled()) {
            killed(f, v, "errors naming " + t + " never stop and the dependency was killed");
        } else if (saysNoKind(ts) && hang >= Retries.HANG_MS) {
            v.add(Cause.NETWORK_BLOCKED, s.count + " error lines name the service (" + t + ") and never stop, and each of "
                    + f.group.retries.attempts() + " attempts took " + hang + " ms more than the " + f.group.retries.meanWaitMs()
                    + " ms the worker says it waits between them: the connects hang until the client's timeout (packets "
                    + "dropped), they are not refused");
        } else {
            v.add(Cause.DEPENDENCY_DOWN, s.count + " error lines name the service (" + t + ") and never stop"
                    + (f.crashLoop() ? "; the pod is in CrashLoopBackOff" : "")
                    + (says(ts, Signal.Type.CLUSTER_DOWN) ? "; the Cluster answered CLUSTERDOWN: slots without a live master "
                    + "(a master and its replicas down, or too few masters to agree)" : "")
                    + (says(ts, Signal.Type.NO_MASTER) ? "; Sentinel named no master for the worker" : "")
                    + noFailover(f, v)
                    + (saysNoKind(ts) && hang < 0 ? "; the client said neither refused nor timed out, so a service that is up "
                    + "behind a NetworkPolicy or firewall that drops the packets (network-blocked) looks the same: "
                    + "if the service's own log shows it ready, check the policy" : "")
                    + (saysNoKind(ts) && hang >= 0 ? "; each attempt failed within " + hang + " ms of the worker's stated "
                    + "wait: refused, not dropped" : ""));
        }
    }
}
