package dev.guard.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A process in the namespace reaches a server of this machine by {@link NetworkNamespace#hostAddress()};
 * a cut black-holes that port (the client hangs until its own timeout: no reset), other ports
 * still pass, and a heal gives the link back. Needs root and iptables, as the partition cells do.
 */
@ExtendWith(NoLeakedProcesses.class)
class NetworkNamespaceTest {

    @Test
    void aCutBlackHolesOnePortUntilHealed() throws Exception {
        try (NetworkNamespace ns = NetworkNamespace.create();
                RedisServer cut = RedisServer.builder().alsoBind(ns.hostAddress()).build().start();
                RedisServer other = RedisServer.builder().alsoBind(ns.hostAddress()).build().start()) {
            assertEquals("PONG", ping(ns, cut.port()));
            ns.cut(cut.port());
            assertTrue(ns.isCut());
            long t0 = System.nanoTime();
            String reply = ping(ns, cut.port());
            long waited = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
            assertFalse(reply.contains("PONG"), "the cut port still answered: " + reply);
            assertTrue(waited >= 1500, "the client gave up after " + waited + " ms: something answered (a reset?)"
                    + " where a black hole sends nothing; it said: " + reply);
            assertEquals("PONG", ping(ns, other.port()), "a port that was not cut");
            ns.heal();
            assertFalse(ns.isCut());
            assertEquals("PONG", ping(ns, cut.port()));
        }
    }

    /** A degraded link still carries (TCP retransmits what is dropped), through real rules and a real qdisc. */
    @Test
    void aDegradedLinkDropsSomePacketsAndIsRateLimitedUntilHealed() throws Exception {
        try (NetworkNamespace ns = NetworkNamespace.create();
                RedisServer redis = RedisServer.builder().alsoBind(ns.hostAddress()).build().start()) {
            ns.degrade(0.2, "256kbit", redis.port());
            assertTrue(ns.isCut());
            assertTrue(inside(ns, "iptables", "-S").contains("--probability 0.2"), inside(ns, "iptables", "-S"));
            assertTrue(inside(ns, "tc", "qdisc", "show").contains("tbf"), inside(ns, "tc", "qdisc", "show"));
            String reply = "";
            for (int attempt = 0; attempt < 5 && !reply.equals("PONG"); attempt++) {
                reply = ping(ns, redis.port());
            }
            assertEquals("PONG", reply, "a lossy link should still carry a PING within five tries of 3 s");
            ns.heal();
            assertFalse(ns.isCut());
            assertFalse(inside(ns, "iptables", "-S").contains("statistic"), inside(ns, "iptables", "-S"));
            assertFalse(inside(ns, "tc", "qdisc", "show").contains("tbf"), inside(ns, "tc", "qdisc", "show"));
        }
    }

    private static String inside(NetworkNamespace ns, String... command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(ns.wrap(List.of(command))).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        p.waitFor(20, TimeUnit.SECONDS);
        return out;
    }

    /** PING from inside the namespace with redis-cli, given 3 s in all ({@code timeout 3}); its output. */
    private static String ping(NetworkNamespace ns, int port) throws IOException, InterruptedException {
        String cli = Children.findBinary("redis-cli").map(Object::toString).orElse("redis-cli");
        List<String> cmd = ns.wrap(new ArrayList<>(List.of("timeout", "3", cli, "-h", ns.hostAddress(), "-p",
                Integer.toString(port), "PING")));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        p.waitFor(20, TimeUnit.SECONDS);
        return out;
    }
}
