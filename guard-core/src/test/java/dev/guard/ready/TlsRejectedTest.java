package dev.guard.ready;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.guard.testing.SelfSigned;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLServerSocket;
import javax.net.ssl.SSLSocket;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A real TLS server (the JDK's, with a self-signed certificate made by keytool: {@link SelfSigned}) that this JVM
 * does not trust: https, rediss and amqps probes must say TLS and the gate must not retry.
 */
class TlsRejectedTest {

    private static Path dir;
    private static SSLServerSocket server;
    private static Thread acceptor;

    @BeforeAll
    static void startUntrustedTlsServer() throws Exception {
        dir = Files.createTempDirectory("guard-tls-");
        SSLContext ctx = SelfSigned.make(dir, "server", "127.0.0.1").serverContext();
        server = (SSLServerSocket) ctx.getServerSocketFactory().createServerSocket(0, 50, InetAddress.getByName("127.0.0.1"));
        acceptor = new Thread(() -> {
            while (!server.isClosed()) {
                try (Socket s = server.accept()) {
                    s.setSoTimeout(2000);
                    ((SSLSocket) s).startHandshake(); // the client rejects the certificate here
                } catch (Exception e) {
                    // expected: handshake failures; the loop ends when the socket is closed
                }
            }
        }, "untrusted-tls-server");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    @AfterAll
    static void stop() throws Exception {
        server.close();
        acceptor.join(5000);
        try (var files = Files.list(dir)) {
            for (Path p : files.toList()) {
                Files.delete(p);
            }
        }
        Files.delete(dir);
    }

    @Test
    void untrustedCertificateIsTlsForHttpsRedissAndAmqps() {
        int port = server.getLocalPort();
        for (Probe p : Probes.forUrls(List.of("https://127.0.0.1:" + port + "/health", "rediss://127.0.0.1:" + port,
                "amqps://guest:guest@127.0.0.1:" + port))) {
            try {
                ProbeResult r = p.check(Duration.ofSeconds(10));
                assertEquals(ProbeState.TLS, r.state(), r.toString());
                assertTrue(r.cause().contains("SSLHandshakeException") || r.cause().contains("PKIX")
                        || r.cause().contains("unable to find valid certification path"), r.cause());
            } finally {
                p.close();
            }
        }
    }

    @Test
    void gateStopsAtOnceOnTlsWithoutRetrying() {
        try (ReadinessGate gate = ReadinessGate.builder()
                .probe(Probes.http("https://127.0.0.1:" + server.getLocalPort() + "/"))
                .deadline(Duration.ofSeconds(60)).attemptTimeout(Duration.ofSeconds(10)).build()) {
            ReadinessReport report = gate.await();
            assertEquals(ReadinessReport.Outcome.NOT_RETRYABLE, report.outcome());
            assertEquals(1, report.results().get(0).attempt());
            assertTrue(report.render().contains("without retrying: http https://127.0.0.1:" + server.getLocalPort()
                    + "/ is tls, which waiting cannot fix"), report.render());
            assertTrue(report.render().contains("do: check the scheme (rediss/amqps/tls vs plain) and that this process trusts the server's certificate"),
                    report.render());
        }
    }
}
