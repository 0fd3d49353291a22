package dev.guard.init.diagnose;

/**
 * What one log line says, for the rules: a connection error naming a host, a LOADING reply, a
 * per-job line, a Redis start, a pod killed, and so on.
 *
 * @param type what the line says
 * @param line the line
 * @param host the host it names (null when it names none)
 * @param port the port it names (0 when none)
 * @param client which client or component wrote it (redis-py, lettuce, kubernetes, guard, ...)
 * @param detail anything else worth keeping (a count, a path, a setting name)
 */
public record Signal(Type type, LogLine line, String host, int port, String client, String detail) {

    /** What a line says. */
    public enum Type {
        // connection errors of a client
        REFUSED(true), DNS(true), UNAVAILABLE(true), TIMEOUT(true), NO_SERVERS(true), LOADING(true), AUTH(true),
        /** Sentinel could not name a master ({@code No master found}, {@code All sentinels down}). */
        NO_MASTER(true),
        /** A Redis Cluster answered {@code CLUSTERDOWN}: slots without a live master. */
        CLUSTER_DOWN(true),
        // a server that answered where the data is not: the topology moved under the worker
        /** {@code READONLY You can't write against a read only replica}: a write sent to a replica. */
        READONLY(true),
        /** {@code MOVED slot host:port} / {@code ASK}: a Cluster node sent the worker elsewhere (host is that node). */
        REDIRECT(true),
        /** guard's gate: Sentinel or the Cluster announces a loopback address (state {@code announced}). */
        ANNOUNCED(true),
        // a client that got through
        READY(false),
        /** A client announcing the connect it is about to make: Celery's banner ({@code .> transport:   redis://redis:6379/0}). */
        CONNECTING(false),
        /** The URL or host:port the application resolved at boot. */
        BOOT_TARGET(false),
        /** A client saying where Sentinel sent it (Jedis: {@code Created JedisSentinelPool to master at H:P}). */
        DISCOVERED(false),
        CONFIG_VIOLATION(false),
        PERMISSION(false),
        JOB_RECEIVED(false), JOB_PROCESSED(false), LEDGER(false), ENQUEUED(false),
        /** An error line that is none of the above (Traceback, ERROR, Exception). */
        OTHER_ERROR(false),
        APP_FAILED_TO_START(false),
        // a dependency's own log
        SERVER_STARTING(false), SERVER_LOADING(false), SERVER_LOADED(false), SERVER_READY(false),
        SERVER_SIGTERM(false), SERVER_SHUTDOWN_DURING_LOADING(false),
        // Sentinel's and a Cluster node's own log
        /** {@code Running mode=sentinel}: a sentinel, which has no dataset and never logs "Ready to accept connections". */
        SENTINEL_MODE(false),
        /** {@code +monitor master NAME IP PORT}: the master address Sentinel announces (host, port; detail the name). */
        SENTINEL_MONITOR(false),
        /** {@code +sdown master} / {@code +odown master}: Sentinel sees the master down. */
        MASTER_DOWN(false),
        /** {@code +switch-master NAME OLD_IP OLD_PORT NEW_IP NEW_PORT}: host and port the new master, detail "NAME OLD:PORT". */
        SWITCH_MASTER(false),
        /** {@code Running mode=cluster}: a Cluster node. */
        CLUSTER_MODE(false),
        /** A node naming a peer it replicates with ({@code Connecting to MASTER H:P}, {@code Replica H:P asks for ...}). */
        PEER(false),
        /** {@code Cluster state changed: fail}. */
        CLUSTER_FAIL(false),
        /** {@code Cluster state changed: ok}. */
        CLUSTER_OK(false),
        /** {@code Failover election won}: a Cluster replica promoted itself. */
        CLUSTER_FAILOVER(false),
        /** {@code Marking node ... as failing}, {@code FAIL message received}: a Cluster node marked failed. */
        NODE_FAILING(false),
        // the platform
        OOM_KILLED(false), EXIT_137(false), PROBE_KILL(false), CRASH_LOOP(false), RESTARTS(false), POD_RUNNING(false);

        private final boolean connectionError;

        Type(boolean connectionError) {
            this.connectionError = connectionError;
        }

        /** True for the errors the runbook's first question asks about. */
        public boolean connectionError() {
            return connectionError;
        }
    }

    static Signal of(Type type, LogLine line, String client) {
        return new Signal(type, line, null, 0, client, null);
    }

    static Signal at(Type type, LogLine line, String host, int port, String client) {
        return new Signal(type, line, Hosts.clean(host), port, client, null);
    }

    Signal withDetail(String d) {
        return new Signal(type, line, host, port, client, d);
    }

    Signal withType(Type t) {
        return new Signal(t, line, host, port, client, detail);
    }

    Signal withLine(LogLine l) {
        return new Signal(type, l, host, port, client, detail);
    }

    /** {@code host:port}, {@code host}, or null. */
    public String target() {
        if (host == null) {
            return null;
        }
        return port > 0 ? Hosts.withPort(host, port) : host;
    }
}
