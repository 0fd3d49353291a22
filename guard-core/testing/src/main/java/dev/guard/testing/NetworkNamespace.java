package dev.guard.testing;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A host of its own on this machine: a Linux network namespace joined to this one by a veth pair
 * ({@code 10.213.x.y/30}), for a process that must be cut off the way a node is cut off in
 * production. {@link #wrap} runs a command inside it ({@code ip netns exec}); the servers it talks
 * to listen on {@link #hostAddress()} (or on every address). {@link #cut} black-holes its TCP to
 * some of the host's ports (iptables DROP inside the namespace, both directions: packets vanish, no
 * reset, no ICMP), as a partition does; {@link #degrade} makes the link slow and lossy instead;
 * {@link #heal} undoes either. Needs root, {@code ip}
 * (iproute2) and {@code iptables} (Debian: {@code apt-get install iptables}); {@link #create} says
 * so when one is missing. {@link #close} deletes the namespace and its veth pair; a JVM shutdown
 * hook does it too.
 */
public final class NetworkNamespace implements AutoCloseable {

    private static final AtomicInteger SEQ = new AtomicInteger();

    private final String name;
    private final String hostAddress;
    private final String address;
    private final String insideLink;
    private final List<String> rules = new ArrayList<>();
    private final Thread cleanup;
    private boolean closed;

    private boolean shaped;

    private NetworkNamespace(String name, String hostAddress, String address, String insideLink) {
        this.name = name;
        this.insideLink = insideLink;
        this.hostAddress = hostAddress;
        this.address = address;
        this.cleanup = new Thread(() -> Children.run(false, "ip", "netns", "delete", name), "netns-cleanup-" + name);
    }

    /** Creates the namespace, its veth pair and addresses, with loopback up inside; throws saying what is missing. */
    public static NetworkNamespace create() {
        requireTools();
        int id = (int) ((ProcessHandle.current().pid() * 64 + SEQ.incrementAndGet()) & 0xFFFF);
        String name = "guard-" + Integer.toHexString(id);
        String hostSide = "gh" + Integer.toHexString(id);
        String inside = "gw" + Integer.toHexString(id);
        // a /30 out of 10.213.0.0/16 that no interface of this machine has
        String base = null;
        int first = 0;
        String addresses = Children.run(true, "ip", "-4", "-o", "addr");
        for (int attempt = 0; attempt < 64 && base == null; attempt++) {
            int block = ThreadLocalRandom.current().nextInt(1 << 14);
            String candidate = "10.213." + (block >> 6) + "." + ((block & 63) * 4);
            String prefix = candidate.substring(0, candidate.lastIndexOf('.') + 1);
            int last = (block & 63) * 4;
            if (!addresses.contains(prefix + (last + 1) + "/") && !addresses.contains(prefix + (last + 2) + "/")) {
                base = prefix;
                first = last;
            }
        }
        if (base == null) {
            throw new IllegalStateException("no free /30 in 10.213.0.0/16 for a network namespace");
        }
        NetworkNamespace ns = new NetworkNamespace(name, base + (first + 1), base + (first + 2), inside);
        Runtime.getRuntime().addShutdownHook(ns.cleanup);
        try {
            Children.run(true, "ip", "netns", "add", name);
            Children.run(true, "ip", "link", "add", hostSide, "type", "veth", "peer", "name", inside);
            Children.run(true, "ip", "link", "set", inside, "netns", name);
            Children.run(true, "ip", "addr", "add", ns.hostAddress + "/30", "dev", hostSide);
            Children.run(true, "ip", "link", "set", hostSide, "up");
            ns.inside("ip", "addr", "add", ns.address + "/30", "dev", inside);
            ns.inside("ip", "link", "set", inside, "up");
            ns.inside("ip", "link", "set", "lo", "up");
            return ns;
        } catch (RuntimeException e) {
            ns.close();
            throw e;
        }
    }

    /** The namespace's name ({@code ip netns exec NAME ...}). */
    public String name() {
        return name;
    }

    /** This machine's end of the veth pair: the address a process inside reaches this machine's servers by. */
    public String hostAddress() {
        return hostAddress;
    }

    /** The namespace's own address. */
    public String address() {
        return address;
    }

    /** {@code command} run inside the namespace: {@code ip netns exec NAME command...} (which execs it: same process). */
    public List<String> wrap(List<String> command) {
        List<String> wrapped = new ArrayList<>(List.of("ip", "netns", "exec", name));
        wrapped.addAll(command);
        return wrapped;
    }

    /**
     * Black-holes TCP between the namespace and these ports of {@link #hostAddress()}: what the
     * namespace sends there and what comes back from there is dropped without a trace, so its
     * connections hang as they do across a real partition (nothing is reset). Until {@link #heal}.
     */
    public synchronized void cut(int... ports) {
        for (int port : ports) {
            String p = Integer.toString(port);
            addRule("OUTPUT", "-p", "tcp", "-d", hostAddress, "--dport", p, "-j", "DROP");
            addRule("INPUT", "-p", "tcp", "-s", hostAddress, "--sport", p, "-j", "DROP");
        }
    }

    /**
     * A slow, lossy link instead of none: each packet between the namespace and these ports is dropped
     * with probability {@code loss} (iptables {@code statistic}, both directions), and everything the
     * namespace sends is limited to {@code rate} ({@code tc tbf}, e.g. {@code 256kbit}; 200 ms of
     * queue). tc netem (delay) is not used: this machine's kernel has no {@code sch_netem}. Until
     * {@link #heal}.
     */
    public synchronized void degrade(double loss, String rate, int... ports) {
        if (loss < 0 || loss >= 1) {
            throw new IllegalArgumentException("loss must be in [0, 1), was " + loss);
        }
        String probability = String.format(java.util.Locale.ROOT, "%.4f", loss);
        for (int port : ports) {
            String p = Integer.toString(port);
            addRule("OUTPUT", "-p", "tcp", "-d", hostAddress, "--dport", p, "-m", "statistic", "--mode", "random",
                    "--probability", probability, "-j", "DROP");
            addRule("INPUT", "-p", "tcp", "-s", hostAddress, "--sport", p, "-m", "statistic", "--mode", "random",
                    "--probability", probability, "-j", "DROP");
        }
        inside("tc", "qdisc", "add", "dev", insideLink, "root", "tbf", "rate", rate, "burst", "16kbit", "latency", "200ms");
        shaped = true;
    }

    /** Removes every rule {@link #cut} or {@link #degrade} added: the link carries again, held TCP segments are retransmitted. */
    public synchronized void heal() {
        if (shaped) {
            inside("tc", "qdisc", "del", "dev", insideLink, "root");
            shaped = false;
        }
        for (String rule : List.copyOf(rules)) {
            List<String> cmd = new ArrayList<>(List.of("iptables", "-D"));
            cmd.addAll(List.of(rule.split(" ")));
            inside(cmd.toArray(new String[0]));
            rules.remove(rule);
        }
    }

    /** True while a {@link #cut} or {@link #degrade} is in force. */
    public synchronized boolean isCut() {
        return !rules.isEmpty() || shaped;
    }

    /** Deletes the namespace (and with it the veth pair and its rules). Idempotent. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        Children.run(false, "ip", "netns", "delete", name);
        try {
            Runtime.getRuntime().removeShutdownHook(cleanup);
        } catch (IllegalStateException shuttingDown) {
            // the hook runs anyway
        }
    }

    @Override
    public String toString() {
        return "NetworkNamespace[" + name + ", " + address + " <-> " + hostAddress + (isCut() ? ", cut" : "") + "]";
    }

    private void addRule(String chain, String... spec) {
        String rule = chain + " " + String.join(" ", spec);
        List<String> cmd = new ArrayList<>(List.of("iptables", "-A", chain));
        cmd.addAll(List.of(spec));
        inside(cmd.toArray(new String[0]));
        rules.add(rule);
    }

    private void inside(String... command) {
        List<String> cmd = new ArrayList<>(List.of("ip", "netns", "exec", name));
        cmd.addAll(List.of(command));
        Children.run(true, cmd.toArray(new String[0]));
    }

    private static void requireTools() {
        String uid = Children.run(true, "id", "-u").trim();
        if (!"0".equals(uid)) {
            throw new IllegalStateException("a network namespace needs root (uid 0); this runs as uid " + uid
                    + ". Run the partition tests as root, as CI does");
        }
        for (String tool : List.of("ip", "iptables")) {
            if (Children.findBinary(tool).isEmpty()) {
                throw new IllegalStateException("a network partition needs `" + tool + "`, which is not installed. "
                        + "Debian: apt-get install " + ("ip".equals(tool) ? "iproute2" : "iptables")
                        + " (.ci/run installs it)");
            }
        }
    }
}
