package dev.guard.init.diagnose;

/**
 * What the host a connection error names says about it, against the known endpoints: the
 * runbook's first question. {@link #label()} is what the report prints.
 */
enum Category {
    /** localhost, 127.x, ::1, 0.0.0.0 or a placeholder: the worker's default, not the service. */
    LOOPBACK("loopback"),
    /** A name that is none of the endpoints. */
    NOT_AN_ENDPOINT("not-an-endpoint"),
    /** An address that cannot be checked against the endpoints' names. */
    UNVERIFIED("unverified"),
    /** One of the endpoints (or any host, when none are known). */
    SERVICE("service"),
    /** A connect timeout to the service, or one naming no host. */
    TIMEOUT("timeout"),
    /** Redis answered LOADING. */
    LOADING("loading"),
    /** The broker refused the credentials. */
    AUTH("auth"),
    /** A Sentinel or Cluster topology answered elsewhere: READONLY (a replica), MOVED/ASK (another node). */
    TOPOLOGY("topology"),
    /** guard's gate found Sentinel or the Cluster announcing an address other hosts cannot reach. */
    ANNOUNCED("announced"),
    /** An error that names no host and follows no boot line. */
    NO_HOST("no-host");

    private final String label;

    Category(String label) {
        this.label = label;
    }

    String label() {
        return label;
    }

    static Category of(Signal.Type type, String host, int port, KnownEndpoints endpoints) {
        if (type == Signal.Type.LOADING) {
            return LOADING;
        }
        if (type == Signal.Type.AUTH) {
            return AUTH;
        }
        if (type == Signal.Type.ANNOUNCED) {
            return ANNOUNCED;
        }
        if (type == Signal.Type.READONLY || type == Signal.Type.REDIRECT) {
            return TOPOLOGY;
        }
        if (host == null) {
            return type == Signal.Type.TIMEOUT ? TIMEOUT : NO_HOST;
        }
        if (Hosts.isLoopback(host)) {
            // CLUSTERDOWN is a node's answer: whatever its address, the worker reached a node of the Cluster
            return type == Signal.Type.CLUSTER_DOWN ? SERVICE : LOOPBACK;
        }
        boolean known = endpoints.matches(host, port);
        if (!endpoints.isEmpty() && !known) {
            return Hosts.isIpLiteral(host) ? UNVERIFIED : NOT_AN_ENDPOINT;
        }
        if (type == Signal.Type.TIMEOUT) {
            return TIMEOUT;
        }
        return endpoints.isEmpty() || Hosts.isIpLiteral(host) && !known ? UNVERIFIED : SERVICE;
    }
}
