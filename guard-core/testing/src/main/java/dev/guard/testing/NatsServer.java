package dev.guard.testing;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * A private {@code nats-server} child process (JetStream on by default) on a port of
 * 127.0.0.1 reserved at {@code build()}, so a test can point a client at {@link #url()}
 * before {@link #start()} (a server that starts late). Kill and restart keep port and store.
 */
public final class NatsServer extends LocalServer<NatsServer> {

    /** The image used where no local nats-server exists but Docker runs; same version as on the CI machine. */
    static final String IMAGE = "nats:2.9.10";
    private static final Duration START_TIMEOUT = Duration.ofSeconds(20); // generous: 2 cores shared by many builds

    private final boolean jetStream;
    private final String user;
    private final String password;
    private final String listenAddress;
    private final Cluster cluster;
    /** The local nats-server, or null when the server runs in a container ({@value #IMAGE}). */
    private final Path binary;

    NatsServer(Builder builder) {
        super("nats-server", builder.port, "nats-", "nats.log", Duration.ofSeconds(10), 20);
        this.jetStream = builder.jetStream;
        this.user = builder.user;
        this.password = builder.password;
        this.listenAddress = builder.listenAddress;
        this.cluster = builder.cluster;
        this.binary = Children.localOrDocker("nats-server", "apt-get install nats-server").orElse(null);
    }

    /** A builder: free port, JetStream on, no auth. */
    public static Builder builder() {
        return new Builder();
    }

    /** Starts it; returns once it sends its INFO line (at most 20 s, else throws with the log tail). */
    @Override
    public synchronized NatsServer start() {
        requireStartable();
        boolean inContainer = binary == null;
        List<String> cmd = new ArrayList<>();
        if (!inContainer) {
            cmd.add(binary.toString()); // the nats image's entrypoint is nats-server itself
        }
        cmd.addAll(List.of("-a", inContainer ? "0.0.0.0" : listenAddress, "-p", Integer.toString(port())));
        if (jetStream) {
            String store = inContainer ? ContainerChild.DATA + "/jetstream" : dir().resolve("jetstream").toString();
            cmd.addAll(List.of("-js", "-sd", store));
        }
        if (user != null) {
            cmd.addAll(List.of("--user", user, "--pass", password));
        }
        if (cluster != null) {
            if (inContainer) {
                throw new IllegalStateException("a clustered NatsServer needs a local nats-server (apt-get install nats-server)");
            }
            cmd.addAll(List.of("--server_name", cluster.serverName(), "--cluster_name", cluster.name(),
                    "--cluster", "nats://" + HOST + ":" + cluster.port(), "--routes", String.join(",",
                            cluster.routePorts().stream().map(p -> "nats://" + HOST + ":" + p).toList())));
        }
        started(inContainer ? ContainerChild.start(IMAGE, cmd, port(), dir(), logFile())
                : Child.local(Children.spawn(cmd, dir(), logFile())));
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        String last = "no reply yet";
        while (System.nanoTime() < deadline) {
            if (!process().isAlive()) {
                throw failure("nats-server ended (" + process().exitStatus() + ") before sending INFO");
            }
            try {
                String line = readInfoLine(HOST, port(), 1000);
                if (line.startsWith("INFO ")) {
                    return this;
                }
                last = line;
            } catch (IOException e) {
                last = e.toString();
            }
            Children.sleep(20);
        }
        throw failure("no INFO line within " + START_TIMEOUT.toSeconds() + " s (last: " + last + ")");
    }

    /** The server's name in its cluster; null when it is not clustered. */
    public String serverName() {
        return cluster == null ? null : cluster.serverName();
    }

    /** {@code nats://[user:pass@]127.0.0.1:port}; mask before printing. */
    public String url() {
        String auth = user == null ? ""
                : URLEncoder.encode(user, StandardCharsets.UTF_8) + ":" + URLEncoder.encode(password, StandardCharsets.UTF_8) + "@";
        return "nats://" + auth + HOST + ":" + port();
    }

    @Override
    public String toString() {
        return "NatsServer[" + Masking.url(url()) + (jetStream ? ", JetStream" : "") + "]";
    }

    /** Connects and reads the first line a NATS server sends ({@code INFO {...}}). */
    static String readInfoLine(String host, int port, int timeoutMillis) throws IOException {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(host, port), timeoutMillis);
            socket.setSoTimeout(timeoutMillis);
            return Resp.readLine(socket.getInputStream());
        }
    }

    /** Cluster membership: the cluster's name, this server's name, its route port and its peers' route ports. */
    record Cluster(String name, String serverName, int port, List<Integer> routePorts) {
    }

    /** Builds a {@link NatsServer}; the port is reserved at {@code build()}, nothing starts until {@code start()}. */
    public static final class Builder {
        private int port;
        private boolean jetStream = true;
        private String user;
        private String password;
        private String listenAddress = HOST;
        private Cluster cluster;

        Builder() {}

        /**
         * A member of cluster {@code name}, called {@code serverName}, taking routes on 127.0.0.1:{@code port}
         * and connecting to its peers' route ports (JetStream clustering needs both names).
         */
        public Builder cluster(String name, String serverName, int port, List<Integer> peerRoutePorts) {
            this.cluster = new Cluster(name, serverName, LocalServer.requirePort(port), List.copyOf(peerRoutePorts));
            return this;
        }

        /**
         * Listen on {@code address} instead of 127.0.0.1 ({@code 0.0.0.0}: every address, so that a
         * worker in another network namespace reaches it); {@link NatsServer#url()} still names 127.0.0.1.
         */
        public Builder listenOn(String address) {
            this.listenAddress = java.util.Objects.requireNonNull(address, "address");
            return this;
        }

        /** The port; 0 (default) picks a free one at {@code build()}. */
        public Builder port(int port) {
            this.port = LocalServer.requirePort(port);
            return this;
        }

        /** JetStream on (default) or off. */
        public Builder jetStream(boolean on) {
            this.jetStream = on;
            return this;
        }

        /** Require this user and password. */
        public Builder user(String user, String password) {
            if (user == null || password == null) {
                throw new IllegalArgumentException("user and password must both be set");
            }
            this.user = user;
            this.password = password;
            return this;
        }

        public NatsServer build() {
            return new NatsServer(this);
        }
    }
}
