package dev.guard.ready.redis;

import dev.guard.endpoint.HostVerdict;
import dev.guard.ready.Probe;
import dev.guard.ready.ProbeResult;
import dev.guard.ready.ProbeState;
import dev.guard.ready.internal.Timer;
import io.lettuce.core.RedisURI;
import io.lettuce.core.cluster.SlotHash;
import io.lettuce.core.cluster.models.partitions.ClusterPartitionParser;
import io.lettuce.core.cluster.models.partitions.Partitions;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode.NodeFlag;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Collectors;

/**
 * The lettuce-bound half of {@link RedisClusterProbe}. One attempt asks the seeds at once for
 * {@code CLUSTER INFO} and {@code CLUSTER NODES}, reads the table with lettuce's own parser, then
 * sends PING to every node the cluster announces (at once), and, when a key is required,
 * {@code EXISTS} to the master of its slot.
 */
final class LettuceClusterProbe implements Probe {

    /** A seed's two answers. */
    private record Table(String info, String nodes) {}

    private final String target;
    private final List<RedisURI> seeds;
    private final boolean seedsLoopback;
    private final String requiredKey;
    private final LettuceNodes nodes = new LettuceNodes();

    LettuceClusterProbe(RedisClusterProbe.Builder b) {
        this.target = b.target;
        this.seeds = b.seeds.stream().map(RedisURI::create).toList();
        this.requiredKey = b.requiredKey;
        this.seedsLoopback = seeds.stream().allMatch(u -> HostVerdict.of(u.getHost()) == HostVerdict.LOOPBACK);
    }

    @Override
    public String kind() {
        return RedisClusterProbe.KIND;
    }

    @Override
    public String target() {
        return target;
    }

    @Override
    public ProbeResult check(Duration attemptTimeout) {
        Timer timer = new Timer();
        try {
            return attempt(attemptTimeout, timer);
        } catch (RuntimeException | LinkageError e) {
            return ProbeResult.of(this, ProbeState.PROTOCOL, "the probe failed unexpectedly", e, timer.elapsed());
        }
    }

    private ProbeResult attempt(Duration attemptTimeout, Timer timer) {
        nodes.timeout(attemptTimeout);
        ProbeResult r = ask(seeds, attemptTimeout, timer);
        List<RedisURI> others = learned.stream()
                .filter(u -> seeds.stream().noneMatch(s -> LettuceNodes.key(s).equals(LettuceNodes.key(u)))).toList();
        if (r.state() != ProbeState.CONFIG && r.detail().startsWith(NO_SEED) && !others.isEmpty()
                && !timer.remaining(attemptTimeout).isZero()) {
            // the seeds are down, but earlier attempts learned the other nodes: ask them, as a cluster client would
            ProbeResult viaOthers = ask(others, attemptTimeout, timer);
            if (!viaOthers.detail().startsWith(NO_SEED)) {
                return viaOthers;
            }
        }
        return r;
    }

    private static final String NO_SEED = "no seed node answered CLUSTER INFO";

    /** The nodes of the last table read, asked when the given seeds do not answer. */
    private volatile List<RedisURI> learned = List.of();

    private ProbeResult ask(List<RedisURI> from, Duration attemptTimeout, Timer timer) {
        List<CompletableFuture<Table>> asked = new ArrayList<>();
        for (RedisURI s : from) {
            asked.add(nodes.onData(s, c -> c.clusterInfo().thenCombine(c.clusterNodes(), Table::new)));
        }
        LettuceNodes.awaitAll(asked, timer.remaining(attemptTimeout));
        Table table = null;
        String seed = null;
        List<ProbeResult.Node> seedNodes = new ArrayList<>();
        LettuceSupport.Found firstFailure = null;
        Throwable firstCause = null;
        for (int i = 0; i < from.size(); i++) {
            String at = LettuceNodes.key(from.get(i));
            LettuceNodes.Reply<Table> r = LettuceNodes.Reply.of(asked.get(i));
            if (r.ok()) {
                if (table == null) {
                    table = r.value();
                    seed = at;
                }
                continue;
            }
            if (r.error() != null && LettuceSupport.errorStarting(r.error(), "ERR This instance has cluster support disabled") != null) {
                return ProbeResult.of(this, ProbeState.CONFIG, "the server at " + at + " runs without cluster mode "
                        + "(CLUSTER INFO: cluster support disabled): drop ?cluster=true to probe it as one server, or point the"
                        + " URL at a node of the cluster", r.error(), timer.elapsed());
            }
            LettuceSupport.Found f = r.found(timer.elapsed());
            seedNodes.add(new ProbeResult.Node("seed", at, f.state(), f.detail()));
            if (firstFailure == null) {
                firstFailure = f;
                firstCause = r.error();
            }
        }
        if (table == null) {
            return ProbeResult.of(this, firstFailure.state(), NO_SEED + ": " + seedNodes.stream()
                    .map(n -> n.address() + " " + n.state().label() + (n.detail().isEmpty() ? "" : " (" + n.detail() + ")"))
                    .collect(Collectors.joining(", ")) + (seeds.size() == 1 ? "; with one seed in the URL, its node is a"
                    + " single point of failure for every client that starts now: list several (redis://a:7000,b:7001"
                    + "?cluster=true) or use a name that resolves to the live nodes" : ""), firstCause, timer.elapsed())
                    .withNodes(seedNodes);
        }
        return judge(seed, table, attemptTimeout, timer);
    }

    private ProbeResult judge(String seed, Table table, Duration attemptTimeout, Timer timer) {
        Partitions partitions = ClusterPartitionParser.parse(table.nodes());
        List<RedisClusterNode> all = new ArrayList<>(partitions.getPartitions());
        learned = all.stream().filter(n -> !n.is(NodeFlag.NOADDR) && !n.is(NodeFlag.HANDSHAKE)).map(this::nodeUri).toList();
        all.sort((a, b) -> Boolean.compare(a.is(NodeFlag.UPSTREAM), b.is(NodeFlag.UPSTREAM)) * -1);
        Map<String, String> info = RedisInfo.fields(table.info());
        String state = info.getOrDefault("cluster_state", "?");
        List<String> loopback = new ArrayList<>();
        List<RedisClusterNode> live = new ArrayList<>();
        List<RedisClusterNode> failed = new ArrayList<>();
        for (RedisClusterNode n : all) {
            if (n.is(NodeFlag.FAIL) || n.is(NodeFlag.NOADDR) || n.is(NodeFlag.HANDSHAKE)) {
                failed.add(n);
            } else {
                live.add(n);
            }
            if (!seedsLoopback && HostVerdict.of(n.getUri().getHost()) == HostVerdict.LOOPBACK) {
                loopback.add(LettuceNodes.key(n.getUri()));
            }
        }
        List<CompletableFuture<String>> pings = new ArrayList<>();
        List<CompletableFuture<String>> failedPings = new ArrayList<>();
        for (RedisClusterNode n : live) {
            pings.add(loopback.isEmpty() ? nodes.onData(nodeUri(n), c -> c.ping()) : CompletableFuture.completedFuture("skipped"));
        }
        for (RedisClusterNode n : failed) {
            // a node the cluster marks fail may be back and loading: that one blocks, a dead one does not
            failedPings.add(loopback.isEmpty() ? nodes.onData(nodeUri(n), c -> c.ping()) : CompletableFuture.completedFuture("skipped"));
        }
        List<CompletableFuture<String>> every = new ArrayList<>(pings);
        every.addAll(failedPings);
        LettuceNodes.awaitAll(every, timer.remaining(attemptTimeout));
        nodes.retainData(all.stream().map(n -> LettuceNodes.key(n.getUri())).collect(Collectors.toCollection(HashSet::new)));

        List<ProbeResult.Node> found = new ArrayList<>();
        List<String> loading = new ArrayList<>();
        ProbeResult.Node firstDown = null;
        Throwable downCause = null;
        for (int i = 0; i < live.size(); i++) {
            RedisClusterNode n = live.get(i);
            String at = LettuceNodes.key(n.getUri());
            String what = describe(n, partitions);
            if (loopback.contains(at)) {
                found.add(new ProbeResult.Node(role(n), at, ProbeState.ANNOUNCED, what + "; a loopback address, announced by the cluster"));
                continue;
            }
            LettuceNodes.Reply<String> r = LettuceNodes.Reply.of(pings.get(i));
            if (r.ok() && "PONG".equals(r.value())) {
                found.add(new ProbeResult.Node(role(n), at, ProbeState.READY, what));
                continue;
            }
            LettuceSupport.Found f = r.ok() ? new LettuceSupport.Found(ProbeState.PROTOCOL, "PING answered '" + r.value() + "'")
                    : r.found(timer.elapsed());
            ProbeResult.Node node = new ProbeResult.Node(role(n), at, f.state(), what + (f.detail().isEmpty() ? "" : "; " + f.detail()));
            found.add(node);
            if (f.state() == ProbeState.LOADING) {
                loading.add(at + " (" + what + ")");
            } else if (firstDown == null) {
                firstDown = node;
                downCause = r.error();
            }
        }
        for (int i = 0; i < failed.size(); i++) {
            RedisClusterNode n = failed.get(i);
            String at = LettuceNodes.key(n.getUri());
            String what = describe(n, partitions) + "; marked " + flagText(n) + " by the cluster";
            LettuceNodes.Reply<String> r = LettuceNodes.Reply.of(failedPings.get(i));
            LettuceSupport.Found f = r.ok() ? new LettuceSupport.Found(ProbeState.READY, "") : r.found(timer.elapsed());
            found.add(new ProbeResult.Node(role(n), at, f.state(), what + (f.detail().isEmpty() ? "" : "; " + f.detail())));
            if (f.state() == ProbeState.LOADING) {
                loading.add(at + " (" + what + ")");
            }
        }
        int masters = (int) live.stream().filter(n -> n.is(NodeFlag.UPSTREAM) && !n.hasNoSlots()).count();
        String counts = "cluster_state:" + state + ", " + info.getOrDefault("cluster_slots_ok", "?") + " of 16384 slots ok ("
                + info.getOrDefault("cluster_slots_assigned", "?") + " assigned, " + info.getOrDefault("cluster_slots_pfail", "0")
                + " pfail, " + info.getOrDefault("cluster_slots_fail", "0") + " fail), " + masters + " masters, "
                + all.size() + " nodes, asked " + seed;
        if (!loopback.isEmpty()) {
            return ProbeResult.of(this, ProbeState.ANNOUNCED, "the cluster (reached at " + target + ") announces its nodes at "
                    + String.join(", ", loopback) + ", loopback addresses: a cluster client follows what CLUSTER NODES and "
                    + "MOVED say, so every client on another host would connect to itself. Set cluster-announce-ip (or bind the "
                    + "nodes to an address other hosts reach); the URL you gave is right, what the cluster announces is not",
                    null, timer.elapsed()).withNodes(found);
        }
        // masters with slots that are marked fail (or fail?) or do not answer here
        String uncovered = all.stream().filter(n -> n.is(NodeFlag.UPSTREAM) && !n.hasNoSlots())
                .filter(n -> failed.contains(n) || n.is(NodeFlag.EVENTUAL_FAIL) || found.stream().anyMatch(f ->
                        f.address().equals(LettuceNodes.key(n.getUri())) && f.state() != ProbeState.READY))
                .map(n -> LettuceNodes.key(n.getUri()) + " (" + describe(n, partitions)
                        + (flagText(n).isEmpty() ? ", does not answer here" : ", " + flagText(n)) + ")")
                .collect(Collectors.joining(", "));
        if (!state.equals("ok")) {
            return ProbeResult.of(this, ProbeState.TOPOLOGY, counts + (uncovered.isEmpty() ? "" : "; no live master for "
                    + uncovered) + ": commands for those slots fail with CLUSTERDOWN until a replica takes over or the node"
                    + " comes back", null, timer.elapsed()).withNodes(found);
        }
        if (!"16384".equals(info.get("cluster_slots_ok"))) {
            return ProbeResult.of(this, ProbeState.TOPOLOGY, counts + ": not every slot is served"
                    + (uncovered.isEmpty() ? "" : "; suspected down: " + uncovered + " (a failover follows once the"
                    + " other masters agree)"), null, timer.elapsed()).withNodes(found);
        }
        if (firstDown != null) {
            return ProbeResult.of(this, firstDown.state(), "node " + firstDown.address() + " (" + firstDown.detail()
                    + "), announced by the cluster, does not answer here; " + counts, downCause, timer.elapsed()).withNodes(found);
        }
        if (!loading.isEmpty()) {
            return ProbeResult.of(this, ProbeState.LOADING, "node " + String.join(", ", loading) + " is loading its dataset"
                    + " (answered -LOADING); " + counts, null, timer.elapsed()).withNodes(found);
        }
        if (requiredKey != null) {
            ProbeResult missing = keyCheck(partitions, counts, attemptTimeout, timer, found);
            if (missing != null) {
                return missing;
            }
        }
        return ProbeResult.of(this, ProbeState.READY, counts + ", every node answers PONG"
                + (failed.isEmpty() ? "" : "; " + failed.size() + " node(s) marked fail by the cluster, their slots served by others")
                + (requiredKey == null ? "" : ", key '" + requiredKey + "' exists"), null, timer.elapsed()).withNodes(found);
    }

    private ProbeResult keyCheck(Partitions partitions, String counts, Duration attemptTimeout, Timer timer,
                                 List<ProbeResult.Node> found) {
        int slot = SlotHash.getSlot(requiredKey);
        RedisClusterNode owner = partitions.getMasterBySlot(slot);
        if (owner == null) {
            return ProbeResult.of(this, ProbeState.TOPOLOGY, "no master serves slot " + slot + " of key '" + requiredKey + "'; "
                    + counts, null, timer.elapsed()).withNodes(found);
        }
        CompletableFuture<Long> exists = nodes.onData(nodeUri(owner), c -> c.exists(requiredKey));
        LettuceNodes.awaitAll(List.of(exists), timer.remaining(attemptTimeout));
        LettuceNodes.Reply<Long> r = LettuceNodes.Reply.of(exists);
        if (r.ok() && r.value() > 0) {
            return null;
        }
        return ProbeResult.of(this, r.ok() ? ProbeState.MISSING : r.found(timer.elapsed()).state(), "key '" + requiredKey
                + "' (slot " + slot + ", master " + LettuceNodes.key(owner.getUri()) + ") does not exist yet"
                + (r.ok() ? " (EXISTS returned 0)" : ""), r.error(), timer.elapsed()).withNodes(found);
    }

    private RedisURI nodeUri(RedisClusterNode n) {
        RedisURI seed = seeds.get(0);
        RedisURI.Builder b = RedisURI.Builder.redis(n.getUri().getHost(), n.getUri().getPort()).withSsl(seed);
        if (seed.getPassword() != null || seed.getUsername() != null) {
            b.withAuthentication(seed);
        }
        return b.build();
    }

    private static String role(RedisClusterNode n) {
        return n.is(NodeFlag.UPSTREAM) ? "master" : n.is(NodeFlag.REPLICA) ? "replica" : "node";
    }

    /** {@code slots 0-5460}, {@code replica of 127.0.0.1:7000}, {@code no slots}. */
    private static String describe(RedisClusterNode n, Partitions partitions) {
        if (n.is(NodeFlag.REPLICA)) {
            RedisClusterNode master = n.getSlaveOf() == null ? null : partitions.getPartitionByNodeId(n.getSlaveOf());
            return "replica of " + (master == null ? "node " + n.getSlaveOf() : LettuceNodes.key(master.getUri()));
        }
        return n.hasNoSlots() ? "no slots" : "slots " + ranges(n.getSlots());
    }

    private static String flagText(RedisClusterNode n) {
        Set<String> f = new java.util.TreeSet<>();
        for (NodeFlag flag : n.getFlags()) {
            switch (flag) {
                case FAIL -> f.add("fail");
                case EVENTUAL_FAIL -> f.add("fail?");
                case NOADDR -> f.add("noaddr");
                case HANDSHAKE -> f.add("handshake");
                default -> { }
            }
        }
        return String.join(",", f);
    }

    /** {@code 0-5460,5462} from a sorted or unsorted slot list. */
    static String ranges(List<Integer> slots) {
        List<Integer> s = slots.stream().sorted().toList();
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < s.size(); ) {
            int j = i;
            while (j + 1 < s.size() && s.get(j + 1) == s.get(j) + 1) {
                j++;
            }
            sb.append(sb.length() == 0 ? "" : ",").append(s.get(i)).append(j > i ? "-" + s.get(j) : "");
            i = j + 1;
        }
        return sb.toString();
    }

    @Override
    public void close() {
        nodes.close();
    }

    @Override
    public String toString() {
        return "LettuceClusterProbe[" + target + "]";
    }
}
