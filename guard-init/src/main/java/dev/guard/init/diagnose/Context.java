package dev.guard.init.diagnose;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What the dependencies' own logs and status say, for every group's rules: when the last one was
 * ready, whether one was killed (mid-load), with the lines that show it; what Sentinel or a
 * Cluster announced and when it failed over; and what the backend enqueued.
 */
final class Context {
    final KnownEndpoints endpoints;
    Instant dependencyReady;
    boolean dependencyKilledMidLoad;
    /** Per dependency group, the lines that show it was killed or restarted. */
    final Map<String, List<Evidence>> kills = new LinkedHashMap<>();
    final List<Signal> enqueued = new ArrayList<>();
    /** A server whose log ends while it loads its dataset (its "Loading RDB" line): it answered LOADING to the end. */
    final List<Signal> stillLoading = new ArrayList<>();
    /** Each dataset load a server's log shows whole. */
    final List<Load> loads = new ArrayList<>();

    /** A dataset load: its "Loading RDB" and "DB loaded from disk" lines. */
    record Load(Signal start, Signal end) {}
    /** True when a sentinel's or Cluster node's log was captured. */
    boolean topology;
    /** Addresses Sentinel gave clients as the master ({@code host:port} to the line that says so). */
    final Map<String, Signal> announced = new LinkedHashMap<>();
    /** Failovers: Sentinel's +switch-master, a Cluster replica's won election. */
    final List<Signal> failovers = new ArrayList<>();
    /** Per dependency group, the first failover its log shows. */
    private final Map<String, Signal> failoverByGroup = new LinkedHashMap<>();
    /** Sentinel saw a master down (+sdown, +odown) or aborted its failover. */
    final List<Signal> mastersDown = new ArrayList<>();
    private final Map<String, List<Evidence>> topologyEvidence = new LinkedHashMap<>();
    private final java.util.Set<String> evidenced = new java.util.HashSet<>();

    Context(KnownEndpoints endpoints) {
        this.endpoints = endpoints;
    }

    boolean dependencyKilled() {
        return kills.values().stream().anyMatch(l -> !l.isEmpty());
    }

    List<Evidence> killEvidence() {
        List<Evidence> all = new ArrayList<>();
        kills.values().forEach(all::addAll);
        return all;
    }

    void announce(String group, Signal s, String why) {
        if (announced.putIfAbsent(s.target(), s) == null) {
            topologyEvidence(group, s, why);
        }
    }

    void failover(String group, Signal s, String why) {
        failovers.add(s);
        failoverByGroup.putIfAbsent(group, s);
        topologyEvidence(group, s, why);
    }

    void clusterFail(String group, Signal s) {
        topologyEvidence(group, s, "the Cluster stopped serving: slots without a live master (CLUSTERDOWN to clients)");
    }

    void masterDown(String group, Signal s) {
        mastersDown.add(s);
        topologyEvidence(group, s, "Sentinel sees master " + s.detail() + " at " + s.target() + " down");
    }

    /** The first failover this dependency group's log shows; null when none. */
    Signal failoverIn(String group) {
        return failoverByGroup.get(group);
    }

    /** The first line of each kind a dependency group's topology events showed. */
    List<Evidence> topologyEvidence(String group) {
        return topologyEvidence.getOrDefault(group, List.of());
    }

    private void topologyEvidence(String group, Signal s, String why) {
        List<Evidence> l = topologyEvidence.computeIfAbsent(group, k -> new ArrayList<>());
        if (evidenced.add(group + " " + s.type() + " " + s.target()) && l.size() < Conclusion.EVIDENCE) {
            l.add(Conclusion.ev(s, why));
        }
    }

    /** The failover nearest to these errors' time (within a minute of them), or any when untimed; null when none. */
    Signal failoverNear(Instant first, Instant last) {
        Signal best = null;
        for (Signal f : failovers) {
            Instant t = f.line().time();
            if (t == null || first == null || last == null) {
                return f;
            }
            if (!t.isBefore(first.minusSeconds(60)) && !t.isAfter(last.plusSeconds(60))) {
                if (best == null || Math.abs(t.toEpochMilli() - first.toEpochMilli())
                        < Math.abs(best.line().time().toEpochMilli() - first.toEpochMilli())) {
                    best = f;
                }
            }
        }
        return best;
    }

    void kill(String group, Evidence e) {
        kills.computeIfAbsent(group, k -> new ArrayList<>()).add(e);
    }
}
