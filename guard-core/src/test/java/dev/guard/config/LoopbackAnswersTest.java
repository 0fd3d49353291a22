package dev.guard.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.guard.endpoint.Loopback;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The loopback rule against real sockets: a listener on this machine's loopback stands for a
 * sidecar in the pod (or a Redis published into a development container), a closed port for the
 * seeds' worker that fell back to localhost inside its own container.
 */
class LoopbackAnswersTest {

    private static ConfigReport check(int port, boolean container, String... allowed) {
        return ConfigGuard.builder().environment(Map.of("REDIS_URL", "redis://localhost:" + port))
                .requireEnv("REDIS_URL").inContainer(container).allowLoopback(allowed).build().check();
    }

    private static List<String> verdicts(ConfigReport r) {
        return r.violations().stream().map(v -> v.rule() + " " + v.severity()).toList();
    }

    @Test
    void somethingListeningOnLoopbackIsASidecarGuardStartsAndSaysHowToSayItIsMeant() throws Exception {
        try (ServerSocket sidecar = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            int port = sidecar.getLocalPort();
            assertTrue(Loopback.answers("localhost", port, Duration.ofMillis(300)));
            assertTrue(Loopback.answers("127.1", port, Duration.ofMillis(300)), "a spelling the JDK may not resolve");

            ConfigReport inPod = check(port, true);
            assertEquals(List.of("LOOPBACK WARNING"), verdicts(inPod), inPod.render());
            assertTrue(inPod.ok());
            String m = inPod.violations().get(0).message();
            assertTrue(m.contains("and something answers there: a sidecar in the same pod"), m);
            assertTrue(m.contains("allowLoopback(\"REDIS_URL\")"), m);

            assertEquals(List.of(), verdicts(check(port, true, "REDIS_URL")), "allowed and answering: nothing to say");
            assertEquals(List.of("LOOPBACK WARNING"), verdicts(check(port, false)), "outside a container it warns too");
        }
    }

    @Test
    void nothingListeningOnLoopbackInAContainerIsTheSeedsDriftAndStopsTheStart() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            port = s.getLocalPort();
        }
        assertTrue(!Loopback.answers("localhost", port, Duration.ofMillis(300)));
        ConfigReport inPod = check(port, true);
        assertEquals(List.of("LOOPBACK ERROR"), verdicts(inPod), inPod.render());
        String m = inPod.violations().get(0).message();
        assertTrue(m.contains("and nothing answers there: localhost is not the Redis service there"), m);
        assertTrue(m.contains("if a sidecar or a server on this pod will serve it (it is not up yet), allow loopback for it"), m);

        ConfigReport allowed = check(port, true, "REDIS_URL");
        assertEquals(List.of("LOOPBACK WARNING"), verdicts(allowed), "allowed: the readiness wait decides");
        assertTrue(allowed.ok());
        assertEquals(List.of(), verdicts(check(port, false, "*")), "allowed outside a container: local development");
        assertTrue(check(port, false).render().contains("ERROR LOOPBACK"));
    }
}
