package dev.guard.testing;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * A Redis Cluster from the installed {@code redis-server} and {@code redis-cli}: three masters with
 * a replica each by default, made by {@code redis-cli --cluster create ... --cluster-replicas 1},
 * every node a child process on a free port (and a free cluster bus port, {@code cluster-port}),
 * {@code cluster-node-timeout} 1000 ms so a dead master is failed over within seconds.
 *
 * <p>{@link Builder#announceIp(String)} sets {@code cluster-announce-ip}; by default the nodes
 * announce the address the others see them by, 127.0.0.1, which is what a client that came in by
 * another address must be told is a trap.
 */
public final class RedisClusterSet implements AutoCloseable {

    private static final String HOST = "127.0.0.1";

    private final List<RedisServer> nodes = new ArrayList<>();
    private final int masters;
    private final int replicas;
    private final Path dir;

    private RedisClusterSet(Builder b) {
        this.masters = b.masters;
        this.replicas = b.replicas;
        this.dir = Children.tempDir("cluster-");
        for (int i = 0; i < masters * (1 + replicas); i++) {
            RedisServer.Builder n = RedisServer.builder().local();
            if (b.alsoBind != null) {
                n.alsoBind(b.alsoBind);
            }
            n.args("--cluster-enabled", "yes", "--cluster-config-file", "nodes.conf",
                    "--cluster-node-timeout", "1000", "--cluster-port", Integer.toString(FreePorts.next()),
                    // a replica syncs at once, and may fail over however long it was cut off
                    "--repl-diskless-sync-delay", "0", "--cluster-replica-validity-factor", "0");
            if (b.announceIp != null) {
                n.args("--cluster-announce-ip", b.announceIp);
            }
            nodes.add(n.build());
        }
    }

    public static Builder builder() {
        return new Builder();
    }

    /**
     * Starts every node, runs {@code redis-cli --cluster create}, and returns once every node says
     * {@code cluster_state:ok} and knows all the others.
     */
    public RedisClusterSet start() {
        try {
            for (RedisServer n : nodes) {
                n.start();
            }
            create();
            awaitOk(Patience.PROCESS);
            awaitShape(Patience.PROCESS);
            for (RedisServer r : replicas()) {
                RedisSentinelSet.awaitReplicaLinkUp(r, Patience.PROCESS);
            }
            return this;
        } catch (RuntimeException e) {
            close();
            throw e;
        }
    }

    private void create() {
        Path cli = Children.findBinary("redis-cli").orElseThrow(() -> new IllegalStateException(
                "redis-cli not found: the cluster fixture creates the cluster with `redis-cli --cluster create`; "
                + "install it (apt-get install redis-tools, part of redis-server)"));
        List<String> cmd = new ArrayList<>(List.of(cli.toString(), "--cluster", "create"));
        nodes.forEach(n -> cmd.add(HOST + ":" + n.port()));
        cmd.addAll(List.of("--cluster-replicas", Integer.toString(replicas), "--cluster-yes"));
        Path out = dir.resolve("create.out");
        Process p = Children.spawn(cmd, dir, out);
        try {
            if (!p.waitFor(Patience.PROCESS.toSeconds(), TimeUnit.SECONDS)) {
                Children.kill(p);
                throw new IllegalStateException("redis-cli --cluster create did not finish:\n" + Children.tail(out, 30));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while creating the cluster", e);
        }
        String text = read(out);
        if (p.exitValue() != 0 || !text.contains("All 16384 slots covered")) {
            throw new IllegalStateException("redis-cli --cluster create failed (exit " + p.exitValue() + "):\n"
                    + Children.tail(out, 30));
        }
    }

    /** Waits until every running node says {@code cluster_state:ok} and lists all nodes connected. */
    public void awaitOk(Duration max) {
        long deadline = System.nanoTime() + max.toNanos();
        String last = "";
        while (System.nanoTime() < deadline) {
            boolean ok = true;
            StringBuilder seen = new StringBuilder();
            for (RedisServer n : nodes) {
                if (!n.isRunning()) {
                    continue;
                }
                String info = n.command("CLUSTER", "INFO");
                String known = infoField(info, "cluster_known_nodes");
                seen.append(n.port()).append(": ").append(infoField(info, "cluster_state")).append('/').append(known)
                        .append("; ");
                if (!info.contains("cluster_state:ok") || !known.equals(Integer.toString(nodes.size()))) {
                    ok = false;
                }
            }
            last = seen.toString();
            if (ok) {
                return;
            }
            Children.sleep(100);
        }
        throw new IllegalStateException("the cluster did not reach cluster_state:ok on every node within "
                + max.toSeconds() + " s: " + last + "\n" + logs());
    }

    /**
     * Waits until every node's {@code CLUSTER NODES} shows the shape asked for: that many masters
     * with slots, and each other node a replica of one of them. {@code --cluster create} returns
     * before every node has heard of every {@code CLUSTER REPLICATE}; until then a replica-to-be
     * is listed as a master without slots (seen in a CI run).
     */
    private void awaitShape(Duration max) {
        long deadline = System.nanoTime() + max.toNanos();
        String last = "";
        while (System.nanoTime() < deadline) {
            boolean ok = true;
            for (RedisServer n : nodes) {
                last = n.command("CLUSTER", "NODES");
                long withSlots = 0;
                long replicaLines = 0;
                for (String line : last.split("\n")) {
                    String[] f = line.split(" ");
                    if (f.length > 8 && f[2].contains("master")) {
                        withSlots++;
                    } else if (f.length > 3 && f[2].contains("slave") && !f[3].equals("-")) {
                        replicaLines++;
                    }
                }
                if (withSlots != masters || replicaLines != (long) masters * replicas) {
                    ok = false;
                    break;
                }
            }
            if (ok) {
                return;
            }
            Children.sleep(100);
        }
        throw new IllegalStateException("the cluster did not show " + masters + " masters with " + replicas
                + " replica(s) each within " + max.toSeconds() + " s; last table:\n" + last);
    }

    /** Waits until a running node says {@code cluster_state:<state>}. */
    public void awaitState(String state, Duration max) {
        long deadline = System.nanoTime() + max.toNanos();
        String last = "";
        while (System.nanoTime() < deadline) {
            for (RedisServer n : nodes) {
                if (n.isRunning()) {
                    last = n.command("CLUSTER", "INFO");
                    if (last.contains("cluster_state:" + state)) {
                        return;
                    }
                }
            }
            Children.sleep(100);
        }
        throw new IllegalStateException("no node said cluster_state:" + state + " within " + max.toSeconds() + " s: "
                + last);
    }

    /** A field of {@code CLUSTER INFO} / {@code INFO} text. */
    static String infoField(String info, String name) {
        for (String line : info.split("\r?\n")) {
            if (line.startsWith(name + ":")) {
                return line.substring(name.length() + 1).trim();
            }
        }
        return "";
    }

    /** All nodes, in start order. */
    public List<RedisServer> nodes() {
        return List.copyOf(nodes);
    }

    /** The nodes that are masters with slots now (by a running node's {@code CLUSTER NODES}). */
    public List<RedisServer> masters() {
        List<RedisServer> out = new ArrayList<>();
        for (String line : table().split("\n")) {
            String[] f = line.split(" ");
            if (f.length > 8 && List.of(f[2].split(",")).contains("master") && !f[2].contains("fail")) {
                nodeAt(portOf(f[1])).ifPresent(out::add);
            }
        }
        return out;
    }

    /** The nodes that are replicas now. */
    public List<RedisServer> replicas() {
        return byRole("slave");
    }

    /** The replica of {@code master} now, if it has one. */
    public Optional<RedisServer> replicaOf(RedisServer master) {
        String table = table();
        String masterId = null;
        for (String line : table.split("\n")) {
            String[] f = line.split(" ");
            if (f.length > 2 && portOf(f[1]) == master.port()) {
                masterId = f[0];
            }
        }
        if (masterId == null) {
            return Optional.empty();
        }
        for (String line : table.split("\n")) {
            String[] f = line.split(" ");
            if (f.length > 3 && f[2].contains("slave") && f[3].equals(masterId)) {
                return nodeAt(portOf(f[1]));
            }
        }
        return Optional.empty();
    }

    /** The master that serves {@code key}'s slot now ({@code CLUSTER KEYSLOT} and the slot ranges of {@code CLUSTER NODES}). */
    public RedisServer masterOf(String key) {
        int slot = Integer.parseInt(firstRunning().command("CLUSTER", "KEYSLOT", key).substring(1));
        String table = table();
        for (String line : table.split("\n")) {
            String[] f = line.split(" ");
            if (f.length < 9 || !List.of(f[2].split(",")).contains("master") || f[2].contains("fail")) {
                continue;
            }
            for (int i = 8; i < f.length; i++) {
                String[] range = f[i].split("-");
                if (range[0].startsWith("[")) {
                    continue; // a slot being migrated
                }
                int from = Integer.parseInt(range[0]);
                int to = range.length > 1 ? Integer.parseInt(range[1]) : from;
                if (slot >= from && slot <= to) {
                    return nodeAt(portOf(f[1])).orElseThrow();
                }
            }
        }
        throw new IllegalStateException("no live master serves slot " + slot + " of '" + key + "':\n" + table);
    }

    private RedisServer firstRunning() {
        return nodes.stream().filter(RedisServer::isRunning).findFirst()
                .orElseThrow(() -> new IllegalStateException("no cluster node is running"));
    }

    private List<RedisServer> byRole(String role) {
        List<RedisServer> out = new ArrayList<>();
        for (String line : table().split("\n")) {
            String[] f = line.split(" ");
            if (f.length > 2 && List.of(f[2].split(",")).contains(role) && !f[2].contains("fail")) {
                nodeAt(portOf(f[1])).ifPresent(out::add);
            }
        }
        return out;
    }

    private static int portOf(String address) {
        String hostPort = address.split("@")[0];
        return Integer.parseInt(hostPort.substring(hostPort.lastIndexOf(':') + 1));
    }

    private Optional<RedisServer> nodeAt(int port) {
        return nodes.stream().filter(n -> n.port() == port).findFirst();
    }

    /** {@code CLUSTER NODES} of the first running node. */
    public String table() {
        for (RedisServer n : nodes) {
            if (n.isRunning()) {
                String t = n.command("CLUSTER", "NODES");
                if (!t.startsWith("no connection") && !t.startsWith("-")) {
                    return t;
                }
            }
        }
        throw new IllegalStateException("no cluster node answers CLUSTER NODES");
    }

    /** {@code redis://host:port?cluster=true} of the first node, as a client at {@code host} reaches it. */
    public String uri(String host) {
        return "redis://" + host + ":" + nodes.get(0).port() + "?cluster=true";
    }

    /** {@link #uri(String)} by 127.0.0.1. */
    public String uri() {
        return uri(HOST);
    }

    /** The tail of every node's log, for failure messages. */
    public String logs() {
        return nodes.stream().map(n -> "node " + n.port() + ":\n" + Children.tail(n.logFile(), 8))
                .collect(Collectors.joining("\n"));
    }

    private static String read(Path file) {
        try {
            return Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "";
        }
    }

    @Override
    public void close() {
        for (RedisServer n : nodes) {
            n.close();
        }
        Children.deleteTree(dir);
    }

    @Override
    public String toString() {
        return "RedisClusterSet[" + masters + " masters x " + (1 + replicas) + ", ports "
                + nodes.stream().map(n -> Integer.toString(n.port())).collect(Collectors.joining(",")) + "]";
    }

    /** Builds a {@link RedisClusterSet}; nothing starts before {@link RedisClusterSet#start()}. */
    public static final class Builder {
        private int masters = 3;
        private int replicas = 1;
        private String announceIp;
        private String alsoBind;

        private Builder() {}

        /** Replicas per master (default 1). */
        public Builder replicasPerMaster(int n) {
            this.replicas = n;
            return this;
        }

        /** {@code cluster-announce-ip}: the address every node announces (and also listens on, when not 127.0.0.1). */
        public Builder announceIp(String ip) {
            this.announceIp = ip;
            if (!ip.equals(HOST)) {
                this.alsoBind = ip;
            }
            return this;
        }

        /** Every node also listens on {@code address}, announcing 127.0.0.1 all the same. */
        public Builder alsoBind(String address) {
            this.alsoBind = address;
            return this;
        }

        public RedisClusterSet build() {
            return new RedisClusterSet(this);
        }
    }
}
