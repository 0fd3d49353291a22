package dev.guard.testing;

import io.nats.client.Connection;
import io.nats.client.JetStreamApiException;
import io.nats.client.JetStreamManagement;
import io.nats.client.Nats;
import io.nats.client.Options;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * A cluster of private {@code nats-server} processes with JetStream on 127.0.0.1 (or every
 * address, {@link #start(int, String)}): each with a name, a route port, and routes to the others,
 * so that a stream with replicas 3 has a leader and two followers and survives one server's
 * death. Kill and restart keep each server's port and store. Needs jnats on the class path.
 */
public final class NatsCluster implements AutoCloseable {

    private static final Duration READY = Duration.ofSeconds(30);

    private final String name;
    private final List<NatsServer> servers;

    private NatsCluster(String name, List<NatsServer> servers) {
        this.name = name;
        this.servers = servers;
    }

    /**
     * Starts {@code size} servers listening on {@code listenAddress} (127.0.0.1, or 0.0.0.0 for a
     * worker in another network namespace) and returns once JetStream answers through every one
     * of them (its meta leader is elected).
     */
    public static NatsCluster start(int size, String listenAddress) {
        String name = "guard-" + Long.toString(System.nanoTime(), 36);
        List<Integer> routes = new ArrayList<>();
        for (int i = 0; i < size; i++) {
            routes.add(FreePorts.next());
        }
        List<NatsServer> servers = new ArrayList<>();
        NatsCluster cluster = new NatsCluster(name, servers);
        try {
            for (int i = 0; i < size; i++) {
                int own = routes.get(i);
                servers.add(NatsServer.builder().listenOn(listenAddress)
                        .cluster(name, "n" + (i + 1), own, routes.stream().filter(p -> p != own).toList()).build());
            }
            for (NatsServer s : servers) {
                s.start();
            }
            for (NatsServer s : servers) {
                cluster.awaitJetStream(s, READY);
            }
            return cluster;
        } catch (RuntimeException e) {
            cluster.close();
            throw e;
        }
    }

    /** The servers, in order n1, n2, ... */
    public List<NatsServer> servers() {
        return List.copyOf(servers);
    }

    /** The server called {@code serverName}. */
    public NatsServer server(String serverName) {
        return servers.stream().filter(s -> serverName.equals(s.serverName())).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no server '" + serverName + "' in " + this));
    }

    /** {@code nats://host:p1,nats://host:p2,...}: every server, for a client that fails over between them. */
    public String url(String host) {
        return servers.stream().map(s -> "nats://" + host + ":" + s.port()).collect(Collectors.joining(","));
    }

    /** The name of the server that leads {@code stream} now, asked through any server that answers. */
    public String leaderOf(String stream) throws IOException, InterruptedException {
        IOException last = null;
        for (NatsServer s : servers) {
            if (!s.isRunning()) {
                continue;
            }
            try (Connection c = Nats.connect(new Options.Builder().server(s.url()).connectionTimeout(Duration.ofSeconds(2))
                    .maxReconnects(0).build())) {
                JetStreamManagement jsm = c.jetStreamManagement();
                return jsm.getStreamInfo(stream).getClusterInfo().getLeader();
            } catch (JetStreamApiException | IOException e) {
                last = e instanceof IOException io ? io : new IOException(e);
            }
        }
        throw new IOException("no server of " + this + " told the leader of stream '" + stream + "'", last);
    }

    /** Waits until JetStream answers an account-info request through {@code server}. */
    private void awaitJetStream(NatsServer server, Duration max) {
        long deadline = System.nanoTime() + max.toNanos();
        String last = "no answer yet";
        while (System.nanoTime() < deadline) {
            try (Connection c = Nats.connect(new Options.Builder().server(server.url())
                    .connectionTimeout(Duration.ofSeconds(2)).maxReconnects(0).build())) {
                c.jetStreamManagement().getAccountStatistics();
                return;
            } catch (JetStreamApiException | IOException e) {
                last = e.toString();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for JetStream of " + this, e);
            }
            Children.sleep(200);
        }
        throw new IllegalStateException("JetStream of " + this + " did not answer through " + server + " within "
                + max.toSeconds() + " s (last: " + last + ")\n" + logs());
    }

    /** The tail of every server's log, for a failure message. */
    public String logs() {
        return servers.stream().map(s -> "--- " + s.serverName() + " (" + s.logFile() + ")\n" + Children.tail(s.logFile(), 15))
                .collect(Collectors.joining("\n"));
    }

    @Override
    public void close() {
        for (NatsServer s : servers) {
            s.close();
        }
    }

    @Override
    public String toString() {
        return "NatsCluster[" + name + ", " + servers.size() + " servers]";
    }
}
