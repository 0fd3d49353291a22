package dev.guard.init;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.guard.ExitCodes;
import dev.guard.testing.LocalAddress;
import dev.guard.testing.NoLeakedProcesses;
import dev.guard.testing.RedisClusterSet;
import dev.guard.testing.RedisSentinelSet;
import dev.guard.init.diagnose.Diagnoser;
import dev.guard.init.diagnose.Diagnosis;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@code guard-init wait} and {@code healthcheck} on Sentinel and Cluster targets, against real
 * topologies started from the installed redis-server: the report lists what Sentinel and the
 * Cluster announced, the loopback trap exits 78 at once, and {@code --redis-key} reaches both.
 */
@ExtendWith(NoLeakedProcesses.class)
class WaitRedisTopologyTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void sentinelTargetWaitsAndReportsTheSentinelsAndTheMaster() throws Exception {
        try (RedisSentinelSet set = RedisSentinelSet.builder().build().start()) {
            Cli.Result ok = Cli.run(Map.of(), "wait", set.uri(), "--timeout", WaitCommandTest.READY_DEADLINE, "--json");
            assertEquals(0, ok.code(), ok.toString());
            JsonNode t = JSON.readTree(ok.out()).get("targets").get(0);
            assertEquals("redis-sentinel", t.get("kind").asText());
            assertEquals("ready", t.get("state").asText());
            assertEquals(4, t.get("nodes").size(), t.toString());
            assertEquals("127.0.0.1:" + set.master().port(), t.get("nodes").get(3).get("address").asText());
            // the key flag goes into the query, before the master name
            Cli.Result missing = Cli.run(Map.of(), "healthcheck", set.uri(), "--redis-key", "jobs");
            assertEquals(1, missing.code(), missing.toString());
            assertTrue(missing.err().contains("has no key 'jobs' yet"), missing.toString());
        }
    }

    @Test
    void sentinelAnnouncingLoopbackExits78AtOnceNamingWhatItAnnounced() {
        String outside = LocalAddress.nonLoopback();
        try (RedisSentinelSet set = RedisSentinelSet.builder().alsoBind(outside).build().start()) {
            // attempts of 10 s, not 2: on a loaded machine (the build's other module beside this one) the
            // just-started sentinels once let a 2 s first attempt time out, and the captured log then
            // held a connect timeout that diagnose read as a second cause
            Cli.Result r = Cli.run(Map.of(), "wait", set.uri(outside), "--timeout", WaitCommandTest.READY_DEADLINE,
                    "--attempt-timeout", "10s");
            assertEquals(ExitCodes.CONFIG, r.code(), r.toString());
            String all = r.out() + r.err();
            assertTrue(all.contains("announced"), all);
            assertTrue(all.contains("announce master 'mymaster' at 127.0.0.1:" + set.master().port() + ", a loopback address"), all);
            assertTrue(all.contains("node master 127.0.0.1:" + set.master().port() + " announced"), all);
            assertTrue(all.contains("without retrying"), all);
            // the same output, captured as an initContainer's log, is what diagnose calls the announced address
            Diagnosis d = Diagnoser.builder().endpoint(outside + ":" + set.sentinelPorts().get(0)).build()
                    .diagnoseTexts(Map.of("worker-init.log", all));
            assertEquals(List.of("announced-address"), d.causes(), d.groups().toString());
        }
    }

    @Test
    void clusterTargetListsItsNodesAndTheLoopbackTrapExits78() throws Exception {
        String outside = LocalAddress.nonLoopback();
        try (RedisClusterSet cluster = RedisClusterSet.builder().alsoBind(outside).build().start()) {
            Cli.Result ok = Cli.run(Map.of(), "wait", cluster.uri(), "--timeout", WaitCommandTest.READY_DEADLINE, "--json");
            assertEquals(0, ok.code(), ok.toString());
            JsonNode t = JSON.readTree(ok.out()).get("targets").get(0);
            assertEquals("redis-cluster", t.get("kind").asText());
            assertEquals(6, t.get("nodes").size(), t.toString());
            Cli.Result trap = Cli.run(Map.of(), "wait", cluster.uri(outside), "--timeout", WaitCommandTest.READY_DEADLINE,
                    "--attempt-timeout", "10s"); // as above
            assertEquals(ExitCodes.CONFIG, trap.code(), trap.toString());
            assertTrue((trap.out() + trap.err()).contains("announces its nodes at 127.0.0.1:"), trap.toString());
            Diagnosis d = Diagnoser.builder().endpoint(outside + ":" + cluster.nodes().get(0).port()).build()
                    .diagnoseTexts(Map.of("worker-init.log", trap.out() + trap.err()));
            assertEquals(List.of("announced-address"), d.causes(), d.groups().toString());
        }
    }
}
