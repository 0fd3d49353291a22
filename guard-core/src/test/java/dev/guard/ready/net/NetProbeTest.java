package dev.guard.ready.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import dev.guard.ready.ProbeResult;
import dev.guard.ready.ProbeState;
import dev.guard.ready.Probes;
import dev.guard.testing.FreePorts;
import dev.guard.testing.MachineServices;
import dev.guard.testing.Patience;
import dev.guard.testing.TcpProxy;
import java.net.InetSocketAddress;
import java.net.URI;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** TCP and HTTP probes against real sockets: the JDK's HTTP server, the machine's Redis, a TCP proxy. */
class NetProbeTest {

    /** The machine's Redis (GUARD_TEST_REDIS_URL or 127.0.0.1:6379): a real TCP service that is not HTTP. */
    private static URI redis() {
        return URI.create("tcp://" + MachineServices.hostPort(MachineServices.redisUri()));
    }

    @Test
    void tcpClassifiesReadyRefusedDnsAndTimeout() {
        URI redis = redis();
        assertEquals(ProbeState.READY, Probes.tcp(redis.getHost(), redis.getPort()).check(Patience.REPLY).state());
        int free = FreePorts.next();
        ProbeResult refused = Probes.tcp("127.0.0.1", free).check(Patience.REPLY);
        assertEquals(ProbeState.REFUSED, refused.state(), refused.toString());
        assertEquals("nothing accepts connections on 127.0.0.1:" + free, refused.detail());
        ProbeResult dns = Probes.forUrl("tcp://no-such-host.invalid:80").check(Patience.REPLY);
        assertEquals(ProbeState.DNS, dns.state(), dns.toString());
        assertEquals("host 'no-such-host.invalid' does not resolve", dns.detail());
        // a TCP probe cannot see a black hole: the proxy accepts, so it is "ready" (why protocol probes exist)
        try (TcpProxy proxy = TcpProxy.forward(redis.getHost(), redis.getPort())) {
            proxy.mode(TcpProxy.Mode.BLACKHOLE);
            assertEquals(ProbeState.READY, Probes.tcp("127.0.0.1", proxy.port()).check(Patience.REPLY).state());
        }
    }

    @Test
    void httpStatusIsClassified() throws Exception {
        AtomicInteger status = new AtomicInteger(503);
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/health", ex -> {
            ex.sendResponseHeaders(status.get(), -1);
            ex.close();
        });
        server.start();
        try {
            String url = "http://127.0.0.1:" + server.getAddress().getPort() + "/health?token=s3cret-tok";
            var probe = Probes.http(url);
            assertEquals("http://127.0.0.1:" + server.getAddress().getPort() + "/health?token=****", probe.target());
            ProbeResult r = probe.check(Patience.REPLY);
            assertEquals(ProbeState.LOADING, r.state(), r.toString());
            assertEquals("HTTP 503: answers, but not healthy yet", r.detail());
            status.set(401);
            assertEquals(ProbeState.AUTH, probe.check(Patience.REPLY).state());
            status.set(404);
            assertEquals(ProbeState.MISSING, probe.check(Patience.REPLY).state());
            status.set(204);
            r = probe.check(Patience.REPLY);
            assertEquals(ProbeState.READY, r.state(), r.toString());
            assertEquals("HTTP 204", r.detail());
        } finally {
            server.stop(0);
        }
    }

    @Test
    void httpAgainstOtherProtocolsAndBlackHoles() {
        URI redis = redis();
        ProbeResult notHttp = Probes.http("http://" + redis.getHost() + ":" + redis.getPort() + "/").check(Patience.REPLY);
        assertEquals(ProbeState.PROTOCOL, notHttp.state(), notHttp.toString());
        ProbeResult refused = Probes.http("http://127.0.0.1:" + FreePorts.next() + "/").check(Patience.REPLY);
        assertEquals(ProbeState.REFUSED, refused.state(), refused.toString());
        try (TcpProxy proxy = TcpProxy.forward(redis.getHost(), redis.getPort())) {
            proxy.mode(TcpProxy.Mode.BLACKHOLE);
            ProbeResult hole = Probes.http("http://127.0.0.1:" + proxy.port() + "/").check(Duration.ofMillis(400));
            assertEquals(ProbeState.TIMEOUT, hole.state(), hole.toString());
        }
    }
}
