package dev.guard.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The Sentinel and Cluster fixtures build what they say, and a killed master is really failed over. */
class RedisTopologyTest {

    @Test
    void sentinelsFailOverToTheReplicaWhenTheMasterIsKilled() {
        try (RedisSentinelSet set = RedisSentinelSet.builder().build().start()) {
            assertEquals("127.0.0.1\n" + set.master().port(), set.masterAddressSeenBy(0));
            assertTrue(set.replica().command("ROLE").startsWith("slave"), set.replica().command("ROLE"));
            set.master().kill();
            set.awaitMasterPort(set.replica().port(), Patience.WAIT);
            assertEquals("127.0.0.1\n" + set.replica().port(), set.masterAddressSeenBy(1));
        }
    }

    @Test
    void clusterOfThreeMastersWithAReplicaEach() {
        try (RedisClusterSet cluster = RedisClusterSet.builder().build().start()) {
            assertEquals(3, cluster.masters().size(), cluster.table());
            assertEquals(3, cluster.replicas().size(), cluster.table());
            RedisServer master = cluster.masters().get(0);
            RedisServer replica = cluster.replicaOf(master).orElseThrow();
            assertTrue(replica.command("ROLE").startsWith("slave"), replica.command("ROLE"));
            master.kill();
            long deadline = System.nanoTime() + Patience.WAIT.toNanos();
            while (!replica.command("ROLE").startsWith("master") && System.nanoTime() < deadline) {
                Children.sleep(100);
            }
            assertTrue(replica.command("ROLE").startsWith("master"), cluster.table());
            cluster.awaitState("ok", Duration.ofSeconds(60));
        }
    }
}
