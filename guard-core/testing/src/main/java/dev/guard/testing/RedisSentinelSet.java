package dev.guard.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * A replication set under Sentinel, from the installed {@code redis-server}: one master, one
 * replica ({@code --replicaof}) and three sentinels ({@code redis-server sentinel.conf --sentinel},
 * quorum 2, {@code down-after-milliseconds} 1000), each a child process on a free port with its
 * own directory. The master can be killed for a real failover.
 *
 * <p>{@link Builder#monitorAt(String)} sets the address the sentinels monitor the master at, and
 * so the address they announce: 127.0.0.1 by default, which is what a client that reaches the
 * sentinels by another address must be told is a trap.
 */
public final class RedisSentinelSet implements AutoCloseable {

    private static final String HOST = "127.0.0.1";

    private final String masterName;
    private final String monitorHost;
    private final String replicaAnnounce;
    private final String alsoBind;
    private final RedisServer master;
    private final RedisServer replica;
    private final List<Sentinel> sentinels = new ArrayList<>();

    private RedisSentinelSet(Builder b) {
        this.masterName = b.masterName;
        this.monitorHost = b.monitorHost;
        this.replicaAnnounce = b.replicaAnnounce;
        this.alsoBind = b.alsoBind;
        RedisServer.Builder m = RedisServer.builder().local().args("--repl-diskless-sync-delay", "0")
                .args(b.masterArgs.toArray(String[]::new));
        RedisServer.Builder r = RedisServer.builder().local().args("--repl-diskless-sync-delay", "0")
                .args(b.replicaArgs.toArray(String[]::new));
        if (alsoBind != null) {
            m.alsoBind(alsoBind);
            r.alsoBind(alsoBind);
        }
        this.master = m.build();
        if (replicaAnnounce != null) {
            r.args("--replica-announce-ip", replicaAnnounce);
        }
        r.args("--replicaof", monitorHost, Integer.toString(master.port()));
        this.replica = r.build();
        for (int i = 0; i < b.sentinels; i++) {
            sentinels.add(new Sentinel());
        }
    }

    public static Builder builder() {
        return new Builder();
    }

    /**
     * Starts master, replica and sentinels; returns once the replica's link is up and every
     * sentinel knows the master, the replica and the other sentinels (so a failover can happen).
     */
    public RedisSentinelSet start() {
        try {
            master.start();
            replica.start();
            awaitReplicaLinkUp(replica, Patience.PROCESS);
            for (Sentinel s : sentinels) {
                s.start();
            }
            awaitSentinelsSee(master.port(), Patience.PROCESS);
            return this;
        } catch (RuntimeException e) {
            close();
            throw e;
        }
    }

    /** {@code redis-sentinel://host:p1,host:p2,host:p3#name}: the sentinels as a client at {@code host} reaches them. */
    public String uri(String host) {
        return "redis-sentinel://" + sentinels.stream().map(s -> host + ":" + s.port()).collect(Collectors.joining(","))
                + "#" + masterName;
    }

    /** {@link #uri(String)} by 127.0.0.1. */
    public String uri() {
        return uri(HOST);
    }

    public String masterName() {
        return masterName;
    }

    /** The server started as master (after a failover it may be the replica, or dead). */
    public RedisServer master() {
        return master;
    }

    /** The server started as replica (after a failover: the new master). */
    public RedisServer replica() {
        return replica;
    }

    /** The sentinels' ports, in order. */
    public List<Integer> sentinelPorts() {
        return sentinels.stream().map(s -> s.port()).toList();
    }

    /** Kills sentinel {@code i} (SIGKILL). */
    public void killSentinel(int i) {
        sentinels.get(i).kill();
    }

    /**
     * What sentinel {@code i} answers to {@code SENTINEL get-master-addr-by-name}: {@code host\nport},
     * {@code (nil)}, or {@code no connection: ...}.
     */
    public String masterAddressSeenBy(int i) {
        return sentinels.get(i).call("SENTINEL", "get-master-addr-by-name", masterName);
    }

    /**
     * Waits until every live sentinel announces the master on {@code port} and that server answers
     * ROLE master; throws with the sentinels' views and logs after {@code max}.
     */
    public void awaitMasterPort(int port, Duration max) {
        long deadline = System.nanoTime() + max.toNanos();
        String views = "";
        while (System.nanoTime() < deadline) {
            views = views();
            boolean all = sentinels.stream().filter(Sentinel::isRunning)
                    .allMatch(s -> s.call("SENTINEL", "get-master-addr-by-name", masterName).endsWith("\n" + port));
            String role = Resp.text(HOST, port, null, "ROLE");
            if (all && role.startsWith("master")) {
                return;
            }
            Children.sleep(100);
        }
        // how each sentinel judges the replica (flags s_down/disconnected, link down time, INFO age:
        // what "-failover-abort-no-good-slave" weighs) and what the replica itself says
        String replicas = sentinels.stream().filter(Sentinel::isRunning)
                .map(s -> s.port() + ": " + s.call("SENTINEL", "replicas", masterName).replace('\n', ' '))
                .collect(Collectors.joining("\n"));
        throw new IllegalStateException("the sentinels did not agree on the master at port " + port + " within "
                + max.toSeconds() + " s; their views: " + views + "\nthe replica as each sentinel sees it:\n" + replicas
                + "\nthe replica's INFO replication: " + Resp.text(HOST, replica.port(), null, "INFO", "replication")
                        .replace("\r\n", " ") + "\n" + logs());
    }

    private String views() {
        return sentinels.stream().map(s -> s.port() + " -> " + s.call("SENTINEL", "get-master-addr-by-name", masterName)
                .replace('\n', ':')).collect(Collectors.joining(", "));
    }

    private void awaitSentinelsSee(int masterPort, Duration max) {
        long deadline = System.nanoTime() + max.toNanos();
        String last = "";
        while (System.nanoTime() < deadline) {
            boolean ready = true;
            StringBuilder seen = new StringBuilder();
            for (Sentinel s : sentinels) {
                String info = s.call("SENTINEL", "master", masterName);
                seen.append(s.port()).append(": ").append(info.replace('\n', ' ')).append("; ");
                if (!info.contains("\nport\n" + masterPort) || !field(info, "num-slaves").equals("1")
                        || !field(info, "num-other-sentinels").equals(Integer.toString(sentinels.size() - 1))) {
                    ready = false;
                }
            }
            last = seen.toString();
            if (ready) {
                return;
            }
            Children.sleep(100);
        }
        throw new IllegalStateException("the sentinels did not find the replica and each other within " + max.toSeconds()
                + " s; last: " + last + "\n" + logs());
    }

    /** A field of a {@code SENTINEL master} reply (name and value on alternate lines). */
    static String field(String reply, String name) {
        String[] lines = reply.split("\n");
        for (int i = 0; i + 1 < lines.length; i += 2) {
            if (lines[i].equals(name)) {
                return lines[i + 1];
            }
        }
        return "";
    }

    static void awaitReplicaLinkUp(RedisServer replica, Duration max) {
        long deadline = System.nanoTime() + max.toNanos();
        String info = "";
        while (System.nanoTime() < deadline) {
            info = replica.command("INFO", "replication");
            if (info.contains("master_link_status:up")) {
                return;
            }
            Children.sleep(50);
        }
        throw new IllegalStateException("replica on port " + replica.port() + " did not sync within " + max.toSeconds()
                + " s: " + info + "\nlog tail:\n" + Children.tail(replica.logFile(), 20));
    }

    /** The tail of every sentinel's log, for failure messages. */
    public String logs() {
        return sentinels.stream().map(s -> "sentinel " + s.port() + ":\n" + Children.tail(s.logFile(), 15))
                .collect(Collectors.joining("\n"));
    }

    /** Every sentinel's whole log, for tests that read what Sentinel wrote ({@code +switch-master}). */
    public List<Path> sentinelLogs() {
        return sentinels.stream().map(s -> s.logFile()).toList();
    }

    @Override
    public void close() {
        for (Sentinel s : sentinels) {
            s.close();
        }
        replica.close();
        master.close();
    }

    @Override
    public String toString() {
        return "RedisSentinelSet[" + masterName + ", master " + master.port() + ", replica " + replica.port()
                + ", sentinels " + sentinelPorts() + ", monitored at " + monitorHost + "]";
    }

    /** One {@code redis-server --sentinel} child. */
    private final class Sentinel extends LocalServer<Sentinel> {
        final Path out;

        Sentinel() {
            super("sentinel", 0, "sentinel-", "sentinel.log", Duration.ofSeconds(10), 20);
            this.out = dir().resolve("sentinel.out");
        }

        @Override
        public synchronized Sentinel start() {
            requireStartable();
            Path conf = dir().resolve("sentinel.conf");
            String text = String.join("\n",
                    "port " + port(),
                    "bind " + HOST + (alsoBind == null ? "" : " " + alsoBind),
                    "daemonize no",
                    "protected-mode no",
                    "dir " + dir(),
                    "logfile " + logFile(),
                    "sentinel monitor " + masterName + " " + monitorHost + " " + master.port() + " 2",
                    "sentinel down-after-milliseconds " + masterName + " 1000",
                    "sentinel failover-timeout " + masterName + " 10000",
                    "sentinel parallel-syncs " + masterName + " 1",
                    "");
            try {
                Files.writeString(conf, text, StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new UncheckedIOException("could not write " + conf, e);
            }
            started(Child.local(Children.spawn(List.of(RedisServer.localBinary().toString(), conf.toString(), "--sentinel"),
                    dir(), out)));
            long deadline = System.nanoTime() + Patience.PROCESS.toNanos();
            String last = "";
            while (System.nanoTime() < deadline) {
                if (!process().isAlive()) {
                    throw failure("sentinel on port " + port() + " ended (" + process().exitStatus() + ")");
                }
                last = call("PING");
                if (last.equals("+PONG")) {
                    return this;
                }
                Children.sleep(20);
            }
            throw failure("sentinel on port " + port() + " did not answer PONG: " + last);
        }

        String call(String... command) {
            return Resp.text(HOST, port(), null, command);
        }

        @Override
        String moreTail() {
            return "\n" + Children.tail(out, 10);
        }

        @Override
        public String toString() {
            return "sentinel " + port() + " of " + masterName;
        }
    }

    /** Builds a {@link RedisSentinelSet}; nothing starts before {@link RedisSentinelSet#start()}. */
    public static final class Builder {
        private String masterName = "mymaster";
        private String monitorHost = HOST;
        private String replicaAnnounce;
        private String alsoBind;
        private int sentinels = 3;
        private final List<String> masterArgs = new ArrayList<>();
        private final List<String> replicaArgs = new ArrayList<>();

        private Builder() {}

        /** More arguments for the replica's redis-server (e.g. {@code --appendonly yes}, so the promoted one keeps its data too). */
        public Builder replicaArgs(String... args) {
            replicaArgs.addAll(List.of(args));
            return this;
        }

        /** More arguments for the master's redis-server (e.g. {@code --enable-debug-command yes}). */
        public Builder masterArgs(String... args) {
            masterArgs.addAll(List.of(args));
            return this;
        }

        /** The name the sentinels monitor the master by (default {@code mymaster}). */
        public Builder masterName(String name) {
            this.masterName = name;
            return this;
        }

        /**
         * The address the sentinels monitor the master at (default 127.0.0.1); a non-loopback one
         * makes every server and sentinel listen on it too.
         */
        public Builder monitorAt(String host) {
            this.monitorHost = host;
            if (!host.equals(HOST)) {
                this.alsoBind = host;
            }
            return this;
        }

        /** Servers and sentinels also listen on {@code address} (a non-loopback address of this machine). */
        public Builder alsoBind(String address) {
            this.alsoBind = address;
            return this;
        }

        /** The replica announces this address ({@code replica-announce-ip}); after a failover the sentinels announce it. */
        public Builder replicaAnnounceIp(String ip) {
            this.replicaAnnounce = ip;
            return this;
        }

        public RedisSentinelSet build() {
            return new RedisSentinelSet(this);
        }
    }
}
