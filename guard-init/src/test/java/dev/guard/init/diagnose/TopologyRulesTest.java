package dev.guard.init.diagnose;

import static dev.guard.init.diagnose.RulesTest.diagnose;
import static dev.guard.init.diagnose.RulesTest.files;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Sentinel and Cluster on small in-memory captures: failovers, the announced-address trap, clients
 * that do not follow the topology. Pure logic; the texts are shaped like Redis 7.0's own log lines
 * and the clients' exceptions (the real ones are in the corpus, {@code *-sen-*} and {@code *-cl-*}).
 */
class TopologyRulesTest {
    private static final String SENTINEL_URL = "redis-sentinel://sentinel:26379,sentinel:26380,sentinel:26381#mymaster";
    private static final String SENTINEL_START = "7:X 02 Dec 2026 03:00:00.000 # oO0OoO0OoO0Oo Redis is starting oO0OoO0OoO0Oo\n"
            + "7:X 02 Dec 2026 03:00:00.001 * Running mode=sentinel, port=26379.\n"
            + "7:X 02 Dec 2026 03:00:00.002 # +monitor master mymaster 10.0.0.5 6379 quorum 2\n";
    private static final String SENTINEL_LOG = SENTINEL_START
            + "7:X 02 Dec 2026 03:00:10.100 # +sdown master mymaster 10.0.0.5 6379\n"
            + "7:X 02 Dec 2026 03:00:10.200 # +odown master mymaster 10.0.0.5 6379 #quorum 3/2\n"
            + "7:X 02 Dec 2026 03:00:11.300 # +switch-master mymaster 10.0.0.5 6379 10.0.0.6 6379\n"
            + "7:X 02 Dec 2026 03:00:11.301 * +slave slave 10.0.0.5:6379 10.0.0.5 6379 @ mymaster 10.0.0.6 6379\n";

    private static String jobs(int from, int to, String second) {
        StringBuilder b = new StringBuilder();
        for (int i = from; i <= to; i++) {
            b.append("2026-12-02T03:00:").append(second).append(".").append(String.format("%03d", i))
                    .append("Z INFO worker - job j-").append(i).append(" received\n");
            b.append("2026-12-02T03:00:").append(second).append(".").append(String.format("%03d", i + 500))
                    .append("Z INFO worker - job j-").append(i).append(" processed\n");
        }
        return b.toString();
    }

    private static String refused(String second, String host, int port) {
        String at = "2026-12-02T03:00:" + second + ".000Z ";
        return at + "ERROR worker - attempt 1 failed, retrying in 1s\n"
                + at + "io.lettuce.core.RedisConnectionException: Unable to connect to " + host + "/<unresolved>:" + port + "\n"
                + at + "Caused by: io.netty.channel.AbstractChannel$AnnotatedConnectException: Connection refused: "
                + host + "/" + host + ":" + port + "\n";
    }

    @Test
    void errorsThroughASentinelFailoverThatStopAreTheFailoverNotTheRace() {
        String worker = "2026-12-02T03:00:00.000Z INFO worker - worker starting, redis url " + SENTINEL_URL + "\n"
                + jobs(1, 4, "05") + refused("10", "10.0.0.5", 6379) + refused("11", "10.0.0.5", 6379) + jobs(5, 9, "13");
        Diagnosis d = diagnose(files("worker.log", worker, "sentinel-0.log", SENTINEL_LOG), "sentinel:26379");
        assertEquals(List.of("failover"), d.causes());
        String text = d.groups().toString();
        assertTrue(text.contains("Sentinel switched master mymaster from 10.0.0.5:6379 to 10.0.0.6:6379"), text);
        assertTrue(text.contains("+switch-master mymaster 10.0.0.5 6379 10.0.0.6 6379"), "the line is evidence: " + text);
    }

    @Test
    void withoutTheSentinelsLogErrorsMidRunOnASentinelUrlAreStillAFailoverAndSaySo() {
        String worker = "2026-12-02T03:00:00.000Z INFO worker - worker starting, redis url " + SENTINEL_URL + "\n"
                + jobs(1, 4, "05") + refused("10", "10.0.0.5", 6379) + jobs(5, 9, "13");
        Diagnosis d = diagnose(files("worker.log", worker), "sentinel:26379");
        assertEquals(List.of("failover"), d.causes());
        assertTrue(d.groups().toString().contains("most likely a failover"), d.groups().toString());
        // the same errors before any job are the race, Sentinel or not
        String atStart = "2026-12-02T03:00:00.000Z INFO worker - worker starting, redis url " + SENTINEL_URL + "\n"
                + refused("01", "10.0.0.5", 6379) + jobs(1, 4, "05");
        assertEquals(List.of("startup-race"), diagnose(files("worker.log", atStart), "sentinel:26379").causes());
    }

    @Test
    void aLoopbackMasterThatSentinelAnnouncesIsTheAnnouncedAddressNotDrift() {
        String sentinel = SENTINEL_START.replace("10.0.0.5 6379 quorum", "127.0.0.1 6379 quorum");
        String worker = "2026-12-02T03:00:00.000Z INFO worker - worker starting, redis url " + SENTINEL_URL + "\n"
                + refused("01", "127.0.0.1", 6379) + refused("02", "127.0.0.1", 6379) + refused("03", "127.0.0.1", 6379);
        Diagnosis d = diagnose(files("worker.log", worker, "sentinel-0.log", sentinel), "sentinel:26379");
        assertEquals(List.of("announced-address"), d.causes());
        String text = d.groups().toString();
        assertTrue(text.contains("a sentinel announces 127.0.0.1:6379 as the master (sentinel-0.log:3)"), text);
        assertTrue(text.contains("sentinel:26379"), "names the URL the worker resolved: " + text);
        // without the sentinels' log the Sentinel URL alone says the address was discovered
        d = diagnose(files("worker.log", worker), "sentinel:26379");
        assertEquals(List.of("announced-address"), d.causes());
        assertTrue(d.groups().toString().contains("the worker's URL is a Sentinel URL"), d.groups().toString());
    }

    @Test
    void clusterNodesAnnouncedOnLoopbackAreTheAnnouncedAddress() {
        String worker = "2026-12-02T03:00:00.000Z INFO worker - worker starting, redis url redis://redis:7000\n"
                + "2026-12-02T03:00:00.500Z ERROR worker - attempt 1 failed, retrying in 1s\n"
                + "io.lettuce.core.RedisConnectionException: Unable to connect to 127.0.0.1/<unresolved>:7001\n"
                + "\tat io.lettuce.core.cluster.RedisClusterClient.connect(RedisClusterClient.java:402)\n";
        assertEquals(List.of("announced-address"), diagnose(files("worker.log", worker), "redis:7000").causes());
    }

    @Test
    void aWorkerThatResolvedLocalhostItselfIsStillDriftAndAKubernetesDomainIsNoCluster() {
        String ownLoopback = "worker starting, redis url " + SENTINEL_URL.replace("sentinel:", "localhost:") + "\n"
                + refused("01", "localhost", 26379);
        assertEquals(List.of("env-drift"), diagnose(files("worker.log", ownLoopback), "sentinel:26379").causes());
        String k8s = "worker starting, redis url redis://redis.jobs.svc.cluster.local:6379\n" + refused("01", "localhost", 6379);
        assertEquals(List.of("env-drift"), diagnose(files("worker.log", k8s), "redis:6379").causes());
    }

    @Test
    void movedRepliesToTheEndAreAClientThatDoesNotFollowTheCluster() {
        String attempt = "ERROR worker - attempt 1 failed, retrying in 1s\n"
                + "redis.clients.jedis.exceptions.JedisMovedDataException: MOVED 9631 10.0.0.5:7001\n";
        String worker = "worker starting, redis url redis://redis:7000/0\n" + attempt.repeat(5);
        Diagnosis d = diagnose(files("worker.log", worker), "redis:7000");
        assertEquals(List.of("topology-not-followed"), d.causes());
        assertTrue(d.groups().toString().contains("does not follow redirects"), d.groups().toString());
        assertEquals("MOVED/ASK to 10.0.0.5:7001", d.hosts().get(0).target());
        assertEquals("topology", d.hosts().get(0).category());
    }

    @Test
    void aWorkerPinnedToTheOldMasterGetsReadonlyAfterTheFailover() {
        String worker = "2026-12-02T03:00:00.000Z INFO worker - worker starting, redis url redis://redis:6379/0\n"
                + jobs(1, 4, "05") + refused("10", "redis", 6379) + refused("11", "redis", 6379)
                + ("2026-12-02T03:00:15.000Z ERROR worker - attempt 1 failed, retrying in 1s\n"
                + "2026-12-02T03:00:15.000Z io.lettuce.core.RedisReadOnlyException: READONLY You can't write against a read "
                + "only replica.\n").repeat(4);
        String restarted = "9:C 02 Dec 2026 03:00:13.000 # oO0OoO0OoO0Oo Redis is starting oO0OoO0OoO0Oo\n"
                + "9:S 02 Dec 2026 03:00:13.100 * Ready to accept connections\n";
        Diagnosis d = diagnose(files("worker.log", worker, "sentinel-0.log", SENTINEL_LOG, "redis-0.log", restarted),
                "redis:6379");
        assertEquals(List.of("failover", "topology-not-followed"), d.causes(), d.groups() + "\n" + d.hosts());
        assertTrue(d.groups().toString().contains("4 READONLY replies (writes sent to a replica) to the end of the log"),
                d.groups().toString());
        assertEquals(List.of("redis:6379", "READONLY"), d.hosts().stream().map(HostErrors::target).toList());
    }

    @Test
    void errorsNamingTheOldMasterToTheEndArePinningNotAnOutage() {
        String worker = "2026-12-02T03:00:00.000Z INFO worker - worker starting, redis url redis://redis:6379/0\n"
                + jobs(1, 4, "05") + refused("10", "redis", 6379) + refused("11", "redis", 6379) + refused("14", "redis", 6379);
        Diagnosis d = diagnose(files("worker.log", worker, "sentinel-0.log", SENTINEL_LOG), "redis:6379");
        assertEquals(List.of("failover", "topology-not-followed"), d.causes());
        assertTrue(d.groups().toString().contains("pinned to the old master's address"), d.groups().toString());
    }

    @Test
    void clusterdownToTheEndIsTheClusterDownAndSaysCLUSTERDOWN() {
        String worker = "worker starting, redis url redis://redis:7000\n"
                + ("ERROR worker - attempt 1 failed, retrying in 1s\n"
                + "io.lettuce.core.RedisCommandExecutionException: CLUSTERDOWN The cluster is down\n").repeat(4);
        Diagnosis d = diagnose(files("worker.log", worker), "redis:7000");
        assertEquals(List.of("dependency-down"), d.causes());
        assertTrue(d.groups().toString().contains("CLUSTERDOWN"), d.groups().toString());
    }

    @Test
    void aClusterReplicaWinningTheElectionMakesErrorsThatStopAFailover() {
        String node = "5:S 02 Dec 2026 03:00:00.000 # oO0OoO0OoO0Oo Redis is starting oO0OoO0OoO0Oo\n"
                + "5:S 02 Dec 2026 03:00:00.100 * Ready to accept connections\n"
                + "5:S 02 Dec 2026 03:00:10.500 # Cluster state changed: fail\n"
                + "5:S 02 Dec 2026 03:00:11.400 # Failover election won: I'm the new master.\n"
                + "5:M 02 Dec 2026 03:00:11.401 # Cluster state changed: ok\n";
        String worker = "2026-12-02T03:00:00.000Z INFO worker - worker starting, redis url redis://redis:7000\n"
                + jobs(1, 4, "05") + "2026-12-02T03:00:10.600Z ERROR worker - attempt 1 failed, retrying in 1s\n"
                + "io.lettuce.core.RedisCommandExecutionException: CLUSTERDOWN The cluster is down\n" + jobs(5, 9, "13");
        Diagnosis d = diagnose(files("worker.log", worker, "redis-5.log", node), "redis:7000");
        assertEquals(List.of("failover"), d.causes());
        assertTrue(d.groups().toString().contains("a Cluster replica won the failover election"), d.groups().toString());
    }

    @Test
    void aFailoverInTheSentinelsLogIsNamedEvenWhenTheWorkerFollowedItSilently() {
        String worker = "2026-12-02T03:00:00.000Z INFO worker - worker starting, redis url " + SENTINEL_URL + "\n"
                + jobs(1, 4, "05") + jobs(5, 9, "13");
        Diagnosis d = diagnose(files("worker.log", worker, "sentinel-0.log", SENTINEL_LOG), "sentinel:26379");
        assertEquals(List.of("failover"), d.causes());
        assertEquals(List.of("sentinel"), d.next().get(0).groups(), "the sentinels' log decided it, not the worker");
        assertEquals(List.of("healthy"), d.groups().get(0).causes(), "the worker itself lost nothing");
    }

    @Test
    void aSentinelRestartIsNotARedisKilledMidLoad() {
        String twice = SENTINEL_START + SENTINEL_START.replace("03:00:", "03:01:");
        String worker = "2026-12-02T03:00:00.000Z INFO worker - worker starting, redis url " + SENTINEL_URL + "\n"
                + jobs(1, 4, "05");
        Diagnosis d = diagnose(files("worker.log", worker, "sentinel-0.log", twice), "sentinel:26379");
        assertFalse(d.causes().contains("oom-or-probe-kill"), d.causes().toString());
        assertEquals(List.of("healthy"), d.causes());
    }

    @Test
    void guardsOwnGateLinesForSentinelAndClusterTargetsAreRead() {
        // the forms guard-init wait prints (ReadinessGate's progress line, ReadinessReport's FAIL line)
        String refused = "guard-init wait: 1 targets (from arguments), deadline 60s\n"
                + ("  [1.1s] redis-sentinel sentinel:26379,sentinel:26380#mymaster: refused (none of the 2 sentinels answered: "
                + "sentinel:26379 refused, sentinel:26380 refused), attempt 1\n").repeat(3);
        Diagnosis d = diagnose(files("worker.log", refused), "sentinel:26379");
        assertEquals(List.of("dependency-down"), d.causes());
        assertEquals("sentinel:26379", d.hosts().get(0).target());
        String announced = "  FAIL redis-sentinel sentinel:26379,sentinel:26380#mymaster: announced (the sentinels (reached at "
                + "sentinel:26379,sentinel:26380) announce master 'mymaster' at 127.0.0.1:6379, a loopback address), attempt 1, 0.2s\n";
        d = diagnose(files("worker.log", announced), "sentinel:26379");
        assertEquals(List.of("announced-address"), d.causes());
        assertTrue(d.groups().toString().contains("guard's readiness gate reached sentinel:26379"), d.groups().toString());
        String cluster = ("  [2.0s] redis-cluster redis:7000: topology (cluster_state:fail, 10923 of 16384 slots ok), attempt 4\n")
                .repeat(2) + "  [4.1s] redis-cluster redis:7000: ready (cluster_state:ok, 16384 of 16384 slots ok), attempt 6\n";
        assertEquals(List.of("startup-race"), diagnose(files("worker.log", cluster), "redis:7000").causes());
    }

    @Test
    void nodesOfOneGroupStartingTogetherAreNotOneRedisKilledMidLoad() {
        // a Cluster's redis-0 ... redis-N (one group, "redis") start within milliseconds of each other
        String node0 = "2026-12-02T03:00:00.100Z 5:C 02 Dec 2026 03:00:00.100 # oO0OoO0OoO0Oo Redis is starting oO0OoO0OoO0Oo\n"
                + "2026-12-02T03:00:00.300Z 5:M 02 Dec 2026 03:00:00.300 * Ready to accept connections\n";
        String node1 = "2026-12-02T03:00:00.200Z 6:C 02 Dec 2026 03:00:00.200 # oO0OoO0OoO0Oo Redis is starting oO0OoO0OoO0Oo\n"
                + "2026-12-02T03:00:00.400Z 6:M 02 Dec 2026 03:00:00.400 * Ready to accept connections\n";
        String worker = "2026-12-02T03:00:01.000Z INFO worker - worker starting, redis url redis://redis:7000\n" + jobs(1, 2, "05");
        Diagnosis d = diagnose(files("worker.log", worker, "redis-0.log", node0, "redis-1.log", node1), "redis:7000");
        assertEquals(List.of("healthy"), d.causes());
        // one server that starts twice without getting ready is still killed mid-load
        String twice = node0.replace("Ready to accept connections", "Loading RDB produced by version 7.0.15")
                + node0.replace("03:00:00.", "03:00:02.");
        d = diagnose(files("worker.log", worker, "redis-0.log", twice, "redis-1.log", node1), "redis:7000");
        assertEquals(List.of("oom-or-probe-kill"), d.causes());
    }

    @Test
    void aMasterSentinelSeesDownWithNoFailoverIsTheServiceDownAndSaysWhyNothingTookOver() {
        String sentinel = SENTINEL_START + "7:X 02 Dec 2026 03:00:10.100 # +sdown master mymaster 10.0.0.5 6379\n"
                + "7:X 02 Dec 2026 03:00:10.200 # +odown master mymaster 10.0.0.5 6379 #quorum 2/2\n"
                + "7:X 02 Dec 2026 03:00:10.300 # -failover-abort-no-good-slave master mymaster 10.0.0.5 6379\n";
        String worker = "2026-12-02T03:00:00.000Z INFO worker - worker starting, redis url " + SENTINEL_URL + "\n"
                + jobs(1, 4, "05") + refused("10", "10.0.0.5", 6379) + refused("12", "10.0.0.5", 6379)
                + refused("14", "10.0.0.5", 6379);
        Diagnosis d = diagnose(files("worker.log", worker, "sentinel-0.log", sentinel), "sentinel:26379");
        assertEquals(List.of("dependency-down"), d.causes());
        String text = d.groups().toString();
        assertTrue(text.contains("failover aborted: no-good-slave"), text);
        assertTrue(text.contains("no failover followed"), text);
    }

    @Test
    void errorsNamingNoHostFromAClientSentinelSentToLoopbackAreTheAnnouncedAddress() {
        // Jedis 3 says where Sentinel sent it, then fails without naming a host
        String worker = "2026-12-02T03:00:00.000Z [main] INFO worker - worker starting, redis url " + SENTINEL_URL + "\n"
                + "2026-12-02T03:00:00.100Z [main] INFO redis.clients.jedis.JedisSentinelPool - Created JedisSentinelPool to "
                + "master at 127.0.0.1:6379\n"
                + ("2026-12-02T03:00:01.000Z [main] ERROR worker - attempt 1 failed, retrying in 1s\n"
                + "2026-12-02T03:00:01.000Z redis.clients.jedis.exceptions.JedisConnectionException: Could not get a resource "
                + "from the pool\n"
                + "2026-12-02T03:00:01.000Z Caused by: java.net.ConnectException: Connection refused\n").repeat(3);
        Diagnosis d = diagnose(files("worker.log", worker), "sentinel:26379");
        assertEquals(List.of("announced-address"), d.causes(), d.groups().toString());
        assertTrue(d.groups().toString().contains("its client says Sentinel sent it to 127.0.0.1:6379 (worker.log:2)"),
                d.groups().toString());
        // the same errors from a client Sentinel sent to a real address are not the trap
        Diagnosis real = diagnose(files("worker.log", worker.replace("master at 127.0.0.1", "master at 10.0.0.5")),
                "sentinel:26379");
        assertEquals(List.of("dependency-down"), real.causes(), real.groups().toString());
    }
}
