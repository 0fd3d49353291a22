package dev.guard.init.diagnose;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A dependency's own log and status: when it was last ready, and whether it was killed (two
 * "Redis is starting" with no "Ready to accept connections" between, a shutdown or SIGTERM while
 * loading, OOMKilled, exit 137, a probe that restarts it). Read first: every group's rules use it.
 */
final class DependencyRule {
    private DependencyRule() {}

    /** Reads one dependency group into the context. */
    static void read(Group g, Context c) {
        List<Timeline.Run> runs = new ArrayList<>(g.timeline.runs());
        runs.sort(Comparator.comparingLong((Timeline.Run r) -> g.position(r.first)));
        // per server: a group can hold several (redis-0 ... redis-5 of a Cluster, replicas of one service)
        Map<String, Signal> lastStart = new HashMap<>();
        Map<String, Signal> loading = new HashMap<>();
        for (Timeline.Run r : runs) {
            if (!(r.key instanceof Signal.Type type)) {
                continue;
            }
            Signal s = r.first.s();
            String server = server(s);
            switch (type) {
                case SERVER_STARTING -> {
                    Signal before = lastStart.get(server);
                    if (before != null) {
                        killedMidLoad(c, g, before, s);
                    }
                    if (r.count > 1 && server(r.last.s()).equals(server)) {
                        killedMidLoad(c, g, s, r.last.s());
                    }
                    lastStart.put(server, r.last.s());
                    loading.remove(server);
                }
                case SERVER_READY -> {
                    lastStart.remove(server);
                    loading.remove(server);
                    Instant t = r.last.s().line().time();
                    if (t != null && (c.dependencyReady == null || t.isAfter(c.dependencyReady))) {
                        c.dependencyReady = t;
                    }
                }
                case SENTINEL_MODE -> {
                    // a sentinel has no dataset: it never logs "Ready to accept connections", nor needs to
                    lastStart.remove(server);
                    loading.remove(server);
                }
                case SERVER_LOADING -> loading.put(server, s);
                case SERVER_LOADED -> {
                    Signal started = loading.remove(server);
                    if (started != null) {
                        c.loads.add(new Context.Load(started, s));
                    }
                }
                case SERVER_SHUTDOWN_DURING_LOADING -> {
                    c.dependencyKilledMidLoad = true;
                    c.kill(g.name, Conclusion.ev(s, g.name + " was stopped while loading its dataset"));
                }
                case SERVER_SIGTERM -> {
                    if (loading.containsKey(server)) {
                        c.dependencyKilledMidLoad = true;
                        c.kill(g.name, Conclusion.ev(s, g.name + " got SIGTERM while loading its dataset"));
                    }
                }
                default -> { }
            }
        }
        c.stillLoading.addAll(loading.values());
        topology(g, c);
        for (Signal s : g.sampleInOrder(Signal.Type.OOM_KILLED, Signal.Type.EXIT_137, Signal.Type.PROBE_KILL)) {
            c.kill(g.name, Conclusion.ev(s, switch (s.type()) {
                case OOM_KILLED -> g.name + " was OOMKilled: it needs more memory";
                case EXIT_137 -> g.name + " was killed (exit 137, SIGKILL)";
                default -> g.name + " failed a probe that restarts it";
            }));
        }
    }

    /**
     * Which server of the group a line is from: its compose service or kubectl prefix, else its
     * file, a {@code --previous} capture counting as the same server as the current one.
     */
    static String server(Signal s) {
        if (s.line().service() != null) {
            return s.line().service();
        }
        return java.nio.file.Path.of(s.line().file()).getFileName().toString()
                .replaceAll("(?i)[-_.](previous|prev|current)(?=[-_.]|$)", "");
    }

    /** What a sentinel's or Cluster node's log says: the addresses announced, failovers, the cluster failing. */
    private static void topology(Group g, Context c) {
        for (Signal s : g.sampleInOrder(Signal.Type.SENTINEL_MONITOR, Signal.Type.SWITCH_MASTER, Signal.Type.SENTINEL_MODE,
                Signal.Type.CLUSTER_OK, Signal.Type.CLUSTER_FAIL, Signal.Type.CLUSTER_FAILOVER, Signal.Type.MASTER_DOWN,
                Signal.Type.NODE_FAILING, Signal.Type.CLUSTER_MODE, Signal.Type.PEER)) {
            c.topology = true;
            switch (s.type()) {
                case SENTINEL_MONITOR -> c.announce(g.name, s, "Sentinel monitors master " + s.detail() + " at " + s.target()
                        + " and gives clients that address");
                case SWITCH_MASTER -> {
                    c.announce(g.name, s, "Sentinel now gives clients " + s.target() + " as the master");
                    c.failover(g.name, s, Facts.failoverWhy(s) + ": a failover");
                }
                case CLUSTER_FAILOVER -> c.failover(g.name, s, "a Cluster replica won the failover election and "
                        + "took over its failed master's slots");
                case CLUSTER_FAIL -> c.clusterFail(g.name, s);
                case PEER -> {
                    if (g.has(Signal.Type.CLUSTER_MODE)) {
                        c.announce(g.name, s, "the Cluster's nodes know each other as " + s.target()
                                + ", the address CLUSTER NODES and MOVED give clients");
                    }
                }
                case MASTER_DOWN -> c.masterDown(g.name, s);
                default -> { }
            }
        }
    }

    private static void killedMidLoad(Context c, Group g, Signal start, Signal again) {
        c.dependencyKilledMidLoad = true;
        c.kill(g.name, Conclusion.ev(start, g.name + " started here ..."));
        c.kill(g.name, Conclusion.ev(again, "... and started again with no 'Ready to accept connections' between: killed mid-load"));
    }

    /** The finding printed for a dependency group. */
    static GroupFinding finding(Group g, Context c) {
        List<String> causes = new ArrayList<>();
        List<String> reasons = new ArrayList<>();
        List<Evidence> evs = new ArrayList<>(c.kills.getOrDefault(g.name, List.of()));
        if (!evs.isEmpty()) {
            causes.add(Cause.OOM_OR_PROBE_KILL.id());
            reasons.add(g.name + " was killed or restarted mid-load");
        }
        Signal fo = c.failoverIn(g.name);
        if (fo != null) {
            causes.add(Cause.FAILOVER.id());
            reasons.add(Cause.FAILOVER.id() + ": " + Facts.failoverWhy(fo) + " (" + fo.line().where()
                    + "): the master failed; the workers' findings say whether they followed");
        }
        for (Evidence e : c.topologyEvidence(g.name)) {
            if (evs.size() < Conclusion.EVIDENCE && evs.stream().noneMatch(x -> x.at().equals(e.at()))) {
                evs.add(e);
            }
        }
        for (Timeline.Run r : g.timeline.runs()) {
            if (!(r.key instanceof Signal.Type type)) {
                continue;
            }
            String why = switch (type) {
                case SERVER_READY -> "ready";
                case SERVER_STARTING -> "starting";
                case SERVER_LOADED -> "dataset loaded";
                default -> null;
            };
            Signal s = r.first.s();
            if (why != null && evs.size() < Conclusion.EVIDENCE && evs.stream().noneMatch(x -> x.at().equals(s.line().where()))) {
                evs.add(Conclusion.ev(s, why));
            }
        }
        return new GroupFinding(g.name, Role.DEPENDENCY.label(), causes, reasons, JobCounts.NONE, evs);
    }
}
