package dev.guard.init.diagnose;

/**
 * The causes diagnose can name, declared in fix order: connectivity first, then config, then
 * contract (the runbook's order). {@link #id()} is what the report prints.
 */
public enum Cause {
    OOM_OR_PROBE_KILL("oom-or-probe-kill", Stage.CONNECTIVITY,
            "A container was killed. OOMKilled or exit 137: raise its memory limit. A Liveness or Startup "
                    + "probe failed while Redis was loading: make failureThreshold x periodSeconds (or a "
                    + "startupProbe) cover the load. A longer gate on the worker does not fix this."),
    DEPENDENCY_DOWN("dependency-down", Stage.CONNECTIVITY,
            "The errors name the right service and never stop: the service is down, restarting or "
                    + "unreachable. Check its container/pod status and log, its Service endpoints and any "
                    + "NetworkPolicy between worker and service."),
    NETWORK_BLOCKED("network-blocked", Stage.CONNECTIVITY,
            "Connect timeouts on every attempt: a NetworkPolicy or firewall drops the packets, or the "
                    + "worker resolved a URL that routes nowhere. Check the policy and the URL the worker "
                    + "logged at boot."),
    REDIS_LOADING("redis-loading", Stage.CONNECTIVITY,
            "Redis is up but answered LOADING on every attempt. First rule out a mid-load restart (two "
                    + "'Redis is starting' without 'Ready to accept connections', OOMKilled, probe kills), "
                    + "then size the gate (Compose start_period, initContainer timeout) and the client's "
                    + "retry window to the load time."),
    STARTUP_RACE("startup-race", Stage.CONNECTIVITY,
            "The worker started before its dependency was ready and gave up or lost the first jobs. Gate "
                    + "it on a real readiness check (Compose: condition: service_healthy with "
                    + "'redis-cli ping | grep -q PONG'; Kubernetes: a 'guard-init wait' initContainer) and "
                    + "retry with backoff to a deadline. Not a sleep."),
    FAILOVER("failover", Stage.CONNECTIVITY,
            "The Redis master failed and a replica took over (Sentinel's +switch-master, a Cluster replica's "
                    + "'Failover election won'); the errors workers logged around it are that failover. Find why the master died (its "
                    + "log, OOMKilled, the node). Replication is asynchronous: writes the old master acknowledged just "
                    + "before it died can be gone and a job taken but not acknowledged can run again, so reconcile "
                    + "received against processed (guard's ledger, a crash-safe queue). To shorten the window: a "
                    + "Sentinel URL or cluster topology refresh, and a command timeout."),
    ENV_DRIFT("env-drift", Stage.CONFIG,
            "The worker never got the right URL or credentials and fell back to a default. Use one "
                    + "variable name on both sides (e.g. REDIS_URL), drop the localhost fallback, and run "
                    + "'guard-init check-env' at boot so a missing or loopback value fails fast."),
    ANNOUNCED_ADDRESS("announced-address", Stage.CONFIG,
            "The URL the worker resolved at boot is right; the address it then failed on was announced to it: "
                    + "by Sentinel (a 'sentinel monitor' with 127.0.0.1, a replica's replica-announce-ip), by a "
                    + "Cluster (nodes created or announced with 127.0.0.1, cluster-announce-ip) or by Kafka "
                    + "(advertised.listeners). Inside the worker's container that address is the container itself. "
                    + "Fix what the topology announces (an address every client can reach), not the worker's URL; "
                    + "'guard-init wait' on the Sentinel or Cluster URL fails at once with state 'announced'."),
    TOPOLOGY_NOT_FOLLOWED("topology-not-followed", Stage.CONFIG,
            "The worker talks to one Redis node while Sentinel or a Cluster decides where the data is: READONLY "
                    + "means it writes to a replica (pinned to a node a failover demoted), MOVED/ASK that a client "
                    + "without cluster mode talks to a Cluster, errors naming the old master after a failover that "
                    + "it never asks Sentinel. Connect through Sentinel (redis-sentinel://...#master) or with the "
                    + "client's cluster mode, not to one node's address."),
    PERMISSION("permission", Stage.CONFIG,
            "A write was denied. Check the volume mount the named path is on, its owner against the "
                    + "container user (runAsUser/fsGroup) and readOnlyRootFilesystem."),
    NO_JOBS("no-jobs", Stage.CONFIG,
            "The worker received nothing. Check the URL the worker resolved at boot (a drifted URL can "
                    + "reach a different, empty Redis) and whether the backend had enqueued anything "
                    + "before the worker started."),
    SCHEMA_SKEW("schema-skew", Stage.CONTRACT,
            "Connections are clean but fewer jobs were processed than received and no error accounts "
                    + "for the gap: jobs are dropped silently. Confirm with one dropped payload's keys (a "
                    + "renamed field) or by logging the broad except for one run, then validate payloads "
                    + "at the consumer boundary."),
    HEALTHY("healthy", Stage.NONE,
            "Nothing to fix in these logs: no connection errors, every received job was processed."),
    UNKNOWN("unknown", Stage.NONE,
            "No rule decided. Capture the worker's log with timestamps (current and --previous), its "
                    + "boot line with the URL it resolved, the dependency's log and the pod/container "
                    + "status, and run diagnose again; pass the right endpoints with --endpoint.");

    /** Where a cause sits in the fix order. */
    public enum Stage {
        CONNECTIVITY, CONFIG, CONTRACT, NONE;

        public String label() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    private final String id;
    private final Stage stage;
    private final String next;

    Cause(String id, Stage stage, String next) {
        this.id = id;
        this.stage = stage;
        this.next = next;
    }

    /** The identifier printed on the {@code cause:} line. */
    public String id() {
        return id;
    }

    public Stage stage() {
        return stage;
    }

    /** What to do next, in the runbook's words. */
    public String next() {
        return next;
    }

    /** The cause with this identifier. */
    public static Cause ofId(String id) {
        for (Cause c : values()) {
            if (c.id.equals(id)) {
                return c;
            }
        }
        throw new IllegalArgumentException("unknown cause id '" + id + "'");
    }
}
