package dev.guard.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A private RabbitMQ node of the installed {@code rabbitmq-server} (Debian's package), beside the
 * machine's own: its own node name ({@code guard<port>@localhost}), AMQP port, distribution port,
 * Mnesia directory and log, no plugins; {@code guest} may connect from any address (a worker in a
 * {@link NetworkNamespace} comes from another one). So a test can kill it (SIGKILL of the whole
 * process tree: {@code su}, the shell, {@code beam.smp}) and start it again on the same data,
 * which it must not do to the machine's node that other tests share. About 6 s to start on 2
 * cores. Local only: there is no container path (the node needs the machine's Erlang).
 */
public final class RabbitMqNode extends LocalServer<RabbitMqNode> {

    private static final Duration START_TIMEOUT = Duration.ofSeconds(90);

    private final String listenAddress;
    private final int distPort = FreePorts.next();
    private final String nodeName;
    private final java.nio.file.Path binary;
    /** Every node of its cluster ({@link RabbitMqCluster}), itself included; empty for a node alone. */
    private List<String> clusterNodes = List.of();

    RabbitMqNode(Builder builder) {
        super("rabbitmq-server", builder.port, "rabbitmq-", "rabbitmq.out", Duration.ofSeconds(20), 30);
        this.listenAddress = builder.listenAddress;
        this.nodeName = "guard" + port() + "@localhost";
        this.binary = Children.findBinary("rabbitmq-server").orElseThrow(() -> new IllegalStateException(
                "RabbitMqNode runs the installed rabbitmq-server, which is not in PATH, /usr/sbin, /usr/bin or "
                        + "/usr/local/bin. Debian: apt-get install rabbitmq-server"));
    }

    /** A builder: free port, listening on 127.0.0.1. */
    public static Builder builder() {
        return new Builder();
    }

    /** Starts the node (data kept from an earlier start) and returns once it answers the AMQP handshake. */
    @Override
    public synchronized RabbitMqNode start() {
        requireStartable();
        try {
            Files.createDirectories(dir().resolve("mnesia"));
            Files.createDirectories(dir().resolve("log"));
            StringBuilder conf = new StringBuilder("listeners.tcp.1 = " + listenAddress + ":" + port()
                    + "\nloopback_users = none\n");
            if (!clusterNodes.isEmpty()) {
                // peer discovery from a list (RabbitMQ's "Config File Peer Discovery Backend"): on its first
                // boot a node joins the first listed node it reaches, or forms the cluster when it reaches none
                conf.append("cluster_formation.peer_discovery_backend = classic_config\n");
                for (int i = 0; i < clusterNodes.size(); i++) {
                    conf.append("cluster_formation.classic_config.nodes.").append(i + 1).append(" = ")
                            .append(clusterNodes.get(i)).append('\n');
                }
            }
            Files.writeString(dir().resolve("rabbitmq.conf"), conf.toString(), StandardCharsets.UTF_8);
            Files.writeString(dir().resolve("enabled_plugins"), "[].\n", StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("could not write the node's files in " + dir(), e);
        }
        // Debian's wrapper runs the node as the rabbitmq user (su), which must own its directories
        chown();
        List<String> cmd = new ArrayList<>(List.of("env",
                "RABBITMQ_NODENAME=" + nodeName,
                "RABBITMQ_CONFIG_FILE=" + dir().resolve("rabbitmq.conf"),
                "RABBITMQ_DIST_PORT=" + distPort,
                "RABBITMQ_MNESIA_BASE=" + dir().resolve("mnesia"),
                "RABBITMQ_LOG_BASE=" + dir().resolve("log"),
                "RABBITMQ_ENABLED_PLUGINS_FILE=" + dir().resolve("enabled_plugins"),
                binary.toString()));
        started(Child.local(Children.spawn(cmd, dir(), logFile())));
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        String last = "no answer yet";
        while (System.nanoTime() < deadline) {
            if (!process().isAlive()) {
                throw failure("rabbitmq-server ended (" + process().exitStatus() + ") before serving AMQP; node log: "
                        + dir().resolve("log").resolve(nodeName + ".log"));
            }
            try {
                if (answersAmqp(HOST.equals(listenAddress) || "0.0.0.0".equals(listenAddress) ? HOST : listenAddress)) {
                    return this;
                }
                last = "the handshake was not answered with connection.start";
            } catch (IOException e) {
                last = e.toString();
            }
            Children.sleep(100);
        }
        throw failure("no AMQP handshake within " + START_TIMEOUT.toSeconds() + " s (last: " + last + "); node log: "
                + dir().resolve("log").resolve(nodeName + ".log"));
    }

    /** {@code amqp://guest:guest@127.0.0.1:port}. */
    public String uri() {
        return uri(HOST);
    }

    /** {@code amqp://guest:guest@host:port}: the node reached by another address of this machine. */
    public String uri(String host) {
        return "amqp://guest:guest@" + host + ":" + port();
    }

    /** Makes this node one of {@code nodes} (their Erlang names, its own included), before its first start. */
    synchronized void joinCluster(List<String> nodes) {
        this.clusterNodes = List.copyOf(nodes);
    }

    /** Runs {@code rabbitmqctl -n <this node> args...} (as the rabbitmq user, whose cookie every node shares); its output. */
    public String ctl(String... args) {
        List<String> cmd = new ArrayList<>(List.of(binary.resolveSibling("rabbitmqctl").toString(), "-n", nodeName));
        cmd.addAll(List.of(args));
        return Children.run(true, cmd.toArray(String[]::new));
    }

    /** The node's Erlang name. */
    public String nodeName() {
        return nodeName;
    }

    @Override
    public String toString() {
        return "RabbitMqNode[" + nodeName + ", " + listenAddress + ":" + port() + "]";
    }

    private void chown() {
        try {
            Children.run(true, "chown", "-R", "rabbitmq:rabbitmq", dir().toString());
        } catch (IllegalStateException e) {
            throw failure("could not give " + dir() + " to the rabbitmq user: " + e.getMessage());
        }
    }

    /** Sends the AMQP 0-9-1 protocol header; true when a method frame (connection.start) comes back. */
    private boolean answersAmqp(String host) throws IOException {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(host, port()), 1000);
            socket.setSoTimeout(2000);
            socket.getOutputStream().write(new byte[] {'A', 'M', 'Q', 'P', 0, 0, 9, 1});
            InputStream in = socket.getInputStream();
            return in.read() == 1; // frame type 1: a method frame
        }
    }

    /** Builds a {@link RabbitMqNode}; the ports are reserved at {@code build()}, nothing starts until {@code start()}. */
    public static final class Builder {
        private int port;
        private String listenAddress = HOST;

        Builder() {}

        /** The AMQP port; 0 (default) picks a free one at {@code build()}. */
        public Builder port(int port) {
            this.port = LocalServer.requirePort(port);
            return this;
        }

        /** Listen on {@code address} instead of 127.0.0.1 ({@code 0.0.0.0}: every address). */
        public Builder listenOn(String address) {
            this.listenAddress = Objects.requireNonNull(address, "address");
            return this;
        }

        public RabbitMqNode build() {
            return new RabbitMqNode(this);
        }
    }
}
