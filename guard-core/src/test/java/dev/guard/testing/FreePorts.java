package dev.guard.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/** Free TCP ports on 127.0.0.1 for private servers and proxies. */
public final class FreePorts {

    /** Ports already handed out in this JVM, so two fixtures built back to back never share one. */
    private static final Set<Integer> HANDED_OUT = ConcurrentHashMap.newKeySet();

    private FreePorts() {}

    /**
     * A TCP port on 127.0.0.1 that is free right now (bound then released) and not handed
     * out before in this JVM. Another process may still take it before the caller binds it.
     */
    public static int next() {
        for (int attempt = 0; attempt < 50; attempt++) {
            try (ServerSocket socket = new ServerSocket()) {
                socket.setReuseAddress(false);
                socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
                int port = socket.getLocalPort();
                if (HANDED_OUT.add(port)) {
                    return port;
                }
            } catch (IOException e) {
                throw new UncheckedIOException("could not bind any free TCP port on 127.0.0.1", e);
            }
        }
        throw new IllegalStateException("no fresh free TCP port on 127.0.0.1 after 50 attempts");
    }
}
