package dev.guard.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * TCP ports on 127.0.0.1 for private servers and proxies, and ports that must stay closed.
 *
 * <p>A port handed out here stays <em>held</em> by this JVM until it exits: a socket bound to
 * it (with {@code SO_REUSEADDR}) that never listens. While nothing listens there a connect is
 * refused (ECONNREFUSED), as from a server that is down, and the kernel gives the port to no
 * one else: not to another process's {@code bind(0)}, nor as the source port of an outgoing
 * connection. A server that binds with {@code SO_REUSEADDR}, as redis-server, nats-server, Go
 * and Java server sockets do on Linux, can still listen on it, stop, and listen again. So a
 * test that needs a closed port, or a server that starts late or restarts on the same port,
 * does not race other builds on a busy machine for it.
 */
public final class FreePorts {

    /** The holding sockets by port; never closed before the JVM exits. */
    private static final Map<Integer, Socket> HELD = new ConcurrentHashMap<>();

    private FreePorts() {}

    /**
     * A TCP port on 127.0.0.1, held (refusing connects) until this JVM exits, and never handed
     * out twice in this JVM. A server with {@code SO_REUSEADDR} may listen on it.
     */
    public static int next() {
        Socket holder = new Socket();
        try {
            holder.setReuseAddress(true);
            holder.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        } catch (IOException e) {
            closeQuietly(holder);
            throw new UncheckedIOException("could not bind any free TCP port on 127.0.0.1 (ports held by this JVM: "
                    + HELD.size() + ")", e);
        }
        int port = holder.getLocalPort();
        if (HELD.putIfAbsent(port, holder) != null) {
            // cannot happen while the first holder is open; refuse rather than share a port
            closeQuietly(holder);
            throw new IllegalStateException("port " + port + " handed out twice in this JVM");
        }
        return port;
    }

    /** Whether {@code port} came from {@link #next()} and is held by this JVM. */
    public static boolean isHeld(int port) {
        return HELD.containsKey(port);
    }

    private static void closeQuietly(Socket socket) {
        try {
            socket.close();
        } catch (IOException e) {
            // nothing bound
        }
    }
}
