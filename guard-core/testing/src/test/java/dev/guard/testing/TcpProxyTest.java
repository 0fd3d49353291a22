package dev.guard.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisCommandTimeoutException;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import java.io.IOException;
import java.io.InputStream;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(NoLeakedProcesses.class)
class TcpProxyTest {

    private static RedisServer redis;

    @BeforeAll
    static void startRedis() {
        redis = RedisServer.builder().build().start();
    }

    @AfterAll
    static void stopRedis() {
        if (redis != null) {
            redis.close();
        }
    }

    @Test
    void forwardCarriesARealRedisPingPong() throws IOException {
        try (TcpProxy proxy = TcpProxy.forward(redis.host(), redis.port())) {
            assertEquals(TcpProxy.Mode.FORWARD, proxy.mode());
            assertTrue(proxy.port() != redis.port());
            assertEquals("+PONG", Resp.call(proxy.host(), proxy.port(), null, 2000, "PING"));
        }
    }

    @Test
    void refuseClosesThePortAndDropsOpenConnections() throws IOException {
        try (TcpProxy proxy = TcpProxy.forward(redis.host(), redis.port());
                Socket open = new Socket(proxy.host(), proxy.port())) {
            open.setSoTimeout(2000);
            open.getOutputStream().write(Resp.encode("PING"));
            assertEquals("+PONG", Resp.readLine(open.getInputStream()));

            proxy.mode(TcpProxy.Mode.REFUSE);
            assertEquals(TcpProxy.Mode.REFUSE, proxy.mode());
            assertThrows(ConnectException.class, () -> {
                try (Socket s = new Socket()) {
                    s.connect(new InetSocketAddress(proxy.host(), proxy.port()), 2000);
                }
            });
            assertDropped(open);

            proxy.mode(TcpProxy.Mode.FORWARD);
            assertEquals("+PONG", Resp.call(proxy.host(), proxy.port(), null, 2000, "PING"), "same port bound again");
        }
    }

    @Test
    void blackholeHangsARawClientUntilItsOwnTimeout() throws IOException {
        try (TcpProxy proxy = TcpProxy.forward(redis.host(), redis.port())) {
            proxy.mode(TcpProxy.Mode.BLACKHOLE);
            try (Socket socket = new Socket()) {
                socket.connect(new InetSocketAddress(proxy.host(), proxy.port()), 2000); // accepted
                socket.setSoTimeout(1000);
                socket.getOutputStream().write(Resp.encode("PING"));
                // only the client's own SO_TIMEOUT ends the read: no reply, no close, no reset
                assertThrows(SocketTimeoutException.class, () -> socket.getInputStream().read());
            }
            proxy.mode(TcpProxy.Mode.FORWARD);
            assertEquals("+PONG", Resp.call(proxy.host(), proxy.port(), null, 2000, "PING"));
        }
    }

    @Test
    void blackholeHangsLettuceUntilItsCommandTimeoutThenForwardHeals() {
        try (TcpProxy proxy = TcpProxy.forward(redis.host(), redis.port())) {
            RedisClient client = RedisClient.create(RedisURI.builder().withHost(proxy.host()).withPort(proxy.port())
                    .withTimeout(Duration.ofSeconds(1)).build());
            try (StatefulRedisConnection<String, String> connection = client.connect()) {
                assertEquals("PONG", connection.sync().ping());
                proxy.mode(TcpProxy.Mode.BLACKHOLE);
                assertThrows(RedisCommandTimeoutException.class, () -> connection.sync().ping());
                proxy.mode(TcpProxy.Mode.FORWARD);
                // the held-back bytes are delivered now: the late PONG is matched to the timed-out command
                assertEquals("PONG", connection.sync().ping());
            } finally {
                client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
            }
        }
    }

    @Test
    void refuseIsInForceTheMomentModeReturnsEveryTime() {
        // the acceptor thread blocked in accept(2) keeps the socket listening after close() until it
        // wakes; a connect in that window used to succeed (seen in CI on a busy machine)
        try (TcpProxy proxy = TcpProxy.forward(redis.host(), redis.port())) {
            for (int i = 0; i < 300; i++) {
                proxy.mode(TcpProxy.Mode.REFUSE);
                int round = i;
                assertThrows(ConnectException.class, () -> {
                    try (Socket s = new Socket()) {
                        s.connect(new InetSocketAddress(proxy.host(), proxy.port()), 2000);
                    }
                }, () -> "connect accepted right after REFUSE, round " + round);
                proxy.mode(TcpProxy.Mode.FORWARD);
            }
        }
    }

    @Test
    void refuseKeepsThePortFromEveryoneElseUntilForwardTakesItBack() throws IOException {
        try (TcpProxy proxy = TcpProxy.forward(redis.host(), redis.port())) {
            proxy.mode(TcpProxy.Mode.REFUSE);
            // what a busy machine does: other builds bind ports of their own, with and without SO_REUSEADDR
            assertThrows(IOException.class, () -> {
                try (java.net.ServerSocket other = new java.net.ServerSocket()) {
                    other.setReuseAddress(false);
                    other.bind(new InetSocketAddress(proxy.host(), proxy.port()));
                }
            }, "another socket took the port of a refusing proxy");
            for (int i = 0; i < 200; i++) {
                try (java.net.ServerSocket other = new java.net.ServerSocket(0, 50, java.net.InetAddress.getByName(proxy.host()))) {
                    assertTrue(other.getLocalPort() != proxy.port(), "bind(0) was given the refusing proxy's port");
                }
            }
            assertThrows(ConnectException.class, () -> {
                try (Socket s = new Socket()) {
                    s.connect(new InetSocketAddress(proxy.host(), proxy.port()), 2000);
                }
            });
            proxy.mode(TcpProxy.Mode.FORWARD);
            assertEquals("+PONG", Resp.call(proxy.host(), proxy.port(), null, 2000, "PING"));
        }
    }

    @Test
    void closeIsIdempotentAndRefusesAfterwards() {
        TcpProxy proxy = TcpProxy.forward(redis.host(), redis.port());
        int port = proxy.port();
        proxy.close();
        proxy.close();
        assertThrows(ConnectException.class, () -> {
            try (Socket s = new Socket()) {
                s.connect(new InetSocketAddress("127.0.0.1", port), 2000);
            }
        });
        assertThrows(IllegalStateException.class, () -> proxy.mode(TcpProxy.Mode.FORWARD));
    }

    private static void assertDropped(Socket open) {
        try {
            InputStream in = open.getInputStream();
            open.getOutputStream().write(Resp.encode("PING"));
            assertEquals(-1, in.read(), "a connection open before REFUSE is closed");
        } catch (SocketTimeoutException e) {
            throw new AssertionError("connection open before REFUSE still hangs instead of being dropped", e);
        } catch (IOException e) {
            // reset: dropped, as wanted
        }
    }
}
