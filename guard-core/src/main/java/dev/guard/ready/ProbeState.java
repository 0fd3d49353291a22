package dev.guard.ready;

import java.util.Locale;

/**
 * What one check of a dependency found. Every probe maps every outcome, including every
 * exception, to exactly one of these.
 */
public enum ProbeState {
    /** The dependency answered the protocol's own health exchange (PONG, a channel, ...). */
    READY(true, "ready"),
    /** It answers, but is not serving yet (Redis {@code -LOADING}, HTTP 503, ...). */
    LOADING(true, "wait: it is starting up; raise the deadline if it needs longer"),
    /** Nothing listens there (connection refused). */
    REFUSED(true, "start the service, or fix the host/port if it runs elsewhere"),
    /** The host name does not resolve. */
    DNS(true, "check the host name (in Compose/Kubernetes: the service name) and that this container is on the same network"),
    /** Connected (or tried to), but no answer within the attempt timeout. */
    TIMEOUT(true, "a firewall drops packets or the server is stuck; check the port is the service's own port and raise the attempt timeout if the server is slow"),
    /** Credentials rejected; waiting cannot fix it. */
    AUTH(false, "fix the user/password (or token) in the URL; the service rejected them"),
    /** TLS handshake failed (certificate rejected, or TLS against a plain port); waiting cannot fix it. */
    TLS(false, "check the scheme (rediss/amqps/tls vs plain) and that this process trusts the server's certificate"),
    /** Something else answers on that port. */
    PROTOCOL(true, "something else answers on that port: check the port belongs to this service"),
    /** Reachable, but a required key, queue, exchange, stream or topic is not there yet. */
    MISSING(true, "create it, or let the service that creates it start first; raise the deadline if it comes later"),
    /**
     * The servers answer, but the replication set or cluster does not serve yet: a failover is
     * under way or due (the sentinels disagree, see the master down, or point at a replica), or
     * the cluster reports {@code cluster_state:fail} or slots without a live master.
     */
    TOPOLOGY(true, "wait: a failover is under way or due; if it persists, bring back the node that is down or check "
            + "that the sentinels (or cluster nodes) can reach each other"),
    /**
     * Sentinel or the Cluster announces an address this client cannot use: a loopback address
     * while the client came in by another one (the address Sentinel monitors the master at, a
     * replica's {@code replica-announce-ip}, a node's {@code cluster-announce-ip}). Waiting
     * cannot fix it: clients on any other host would connect to themselves.
     */
    ANNOUNCED(false, "the URL the worker resolved is right, but what Sentinel or the Cluster announces is not: make the "
            + "servers announce an address other hosts reach (sentinel monitor <name> <address>, replica-announce-ip, "
            + "cluster-announce-ip: the pod or service address, never 127.0.0.1)"),
    /** Malformed URL, unknown scheme or missing client library; waiting cannot fix it. */
    CONFIG(false, "fix the target URL or add the client library named above");

    private final boolean retryable;
    private final String action;

    ProbeState(boolean retryable, String action) {
        this.retryable = retryable;
        this.action = action;
    }

    /** False when waiting cannot change the outcome (AUTH, TLS, CONFIG): the gate stops at once. */
    public boolean retryable() {
        return retryable;
    }

    /** What an operator should do when a target ends in this state. */
    public String action() {
        return action;
    }

    /** Lower-case name as printed in logs and reports ({@code loading}, {@code refused}). */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}
