package dev.guard.testing;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Three (or more) private RabbitMQ nodes of the installed {@code rabbitmq-server} ({@link RabbitMqNode})
 * formed into one cluster by config-file peer discovery, so that a quorum queue has a leader and
 * followers on different nodes and survives one node's death. Each node has its own ports, data
 * and log; they share the Erlang cookie of the {@code rabbitmq} user they run as. Kill and restart
 * keep each node's data. About 6 s per node on 2 cores.
 */
public final class RabbitMqCluster implements AutoCloseable {

    private static final Duration FORMED = Duration.ofSeconds(60);

    private final List<RabbitMqNode> nodes;

    private RabbitMqCluster(List<RabbitMqNode> nodes) {
        this.nodes = nodes;
    }

    /** Starts {@code size} nodes listening on {@code listenAddress}; returns once the first sees all of them running. */
    public static RabbitMqCluster start(int size, String listenAddress) {
        List<RabbitMqNode> nodes = new ArrayList<>();
        RabbitMqCluster cluster = new RabbitMqCluster(nodes);
        try {
            for (int i = 0; i < size; i++) {
                nodes.add(RabbitMqNode.builder().listenOn(listenAddress).build());
            }
            List<String> names = nodes.stream().map(RabbitMqNode::nodeName).toList();
            for (RabbitMqNode n : nodes) {
                n.joinCluster(names);
            }
            for (RabbitMqNode n : nodes) {
                n.start();
            }
            cluster.awaitRunning(size);
            return cluster;
        } catch (RuntimeException e) {
            cluster.close();
            throw e;
        }
    }

    public List<RabbitMqNode> nodes() {
        return List.copyOf(nodes);
    }

    /** The node with this Erlang name. */
    public RabbitMqNode node(String nodeName) {
        return nodes.stream().filter(n -> n.nodeName().equals(nodeName)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no node " + nodeName + " in " + this));
    }

    /** {@code amqp://guest:guest@host:p1,host:p2,...}: every node, for a client that tries them in turn. */
    public String uri(String host) {
        return "amqp://guest:guest@" + nodes.stream().map(n -> host + ":" + n.port()).collect(Collectors.joining(","));
    }

    /** The Erlang name of the node leading quorum queue {@code queue}, asked through a running node. */
    public String leaderOf(String queue) {
        RuntimeException last = null;
        for (RabbitMqNode n : nodes) {
            if (!n.isRunning()) {
                continue;
            }
            try {
                for (String line : n.ctl("list_queues", "name", "leader", "--quiet", "--no-table-headers").split("\n")) {
                    String[] cols = line.trim().split("\t");
                    if (cols.length == 2 && cols[0].equals(queue)) {
                        return cols[1].trim();
                    }
                }
                return null;
            } catch (RuntimeException e) {
                last = e;
            }
        }
        throw new IllegalStateException("no running node of " + this + " told the leader of " + queue, last);
    }

    private void awaitRunning(int size) {
        long deadline = System.nanoTime() + FORMED.toNanos();
        String last = "";
        while (System.nanoTime() < deadline) {
            try {
                last = nodes.get(0).ctl("eval", "length(rabbit_nodes:all_running()).").trim();
                if (last.equals(Integer.toString(size))) {
                    return;
                }
            } catch (RuntimeException e) {
                last = e.getMessage();
            }
            Children.sleep(500);
        }
        throw new IllegalStateException(this + " did not have " + size + " running nodes within " + FORMED.toSeconds()
                + " s (last: " + last + ")");
    }

    @Override
    public void close() {
        for (RabbitMqNode n : nodes) {
            n.close();
        }
    }

    @Override
    public String toString() {
        return "RabbitMqCluster[" + nodes.stream().map(RabbitMqNode::nodeName).collect(Collectors.joining(", ")) + "]";
    }
}
