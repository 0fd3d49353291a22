package dev.guard.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A TCP proxy on a free 127.0.0.1 port in front of a real server, switchable at runtime:
 * {@link Mode#FORWARD} pipes both ways, {@link Mode#REFUSE} really closes the listening socket
 * (connects get ECONNREFUSED) and drops open connections, {@link Mode#BLACKHOLE} accepts and
 * reads but never answers and never forwards.
 *
 * <p>The port comes from {@link FreePorts#next()}, which holds it for the JVM's life: while the
 * proxy refuses, no other process on the machine can bind it, so a connect in REFUSE is
 * refused however busy the machine is, and leaving REFUSE always gets the same port back.
 *
 * <p>Connections forwarded before a switch to BLACKHOLE hang too: bytes read in either
 * direction are held back, not lost, and delivered when the proxy goes back to FORWARD (like
 * a network partition that heals). Connections accepted during BLACKHOLE never reach the
 * server; they stay silent until the client gives up, or the proxy refuses or closes.
 */
public final class TcpProxy implements AutoCloseable {

    /** What the proxy does with connections. */
    public enum Mode {
        /** Pipe bytes both ways to the target. */
        FORWARD,
        /** Listening port closed: connect gets ECONNREFUSED; open connections are dropped. */
        REFUSE,
        /** Accept and read, never answer, never forward. */
        BLACKHOLE
    }

    private static final String HOST = "127.0.0.1";

    private final String targetHost;
    private final int targetPort;
    private final Set<Socket> sockets = ConcurrentHashMap.newKeySet();
    private final Object modeLock = new Object();
    private volatile Mode mode = Mode.REFUSE;
    private volatile ServerSocket server;
    private volatile Thread acceptor;
    private volatile int port;
    private volatile boolean closed;

    TcpProxy(String targetHost, int targetPort) {
        this.targetHost = targetHost;
        this.targetPort = targetPort;
    }

    /** A proxy on a free 127.0.0.1 port to {@code host:port}, already forwarding. */
    public static TcpProxy forward(String host, int port) {
        TcpProxy proxy = new TcpProxy(host, port);
        proxy.mode(Mode.FORWARD);
        return proxy;
    }

    /** Switches mode now; leaving REFUSE binds the same port again. */
    public TcpProxy mode(Mode newMode) {
        synchronized (modeLock) {
            if (closed) {
                throw new IllegalStateException(this + " is closed");
            }
            if (newMode == Mode.REFUSE) {
                mode = Mode.REFUSE;
                closeServer();
                closeConnections();
            } else {
                if (server == null) {
                    bind();
                }
                mode = newMode;
                modeLock.notifyAll();
            }
            return this;
        }
    }

    public Mode mode() {
        return mode;
    }

    public int port() {
        return port;
    }

    public String host() {
        return HOST;
    }

    /** Closes the port and every connection. Idempotent. */
    @Override
    public void close() {
        synchronized (modeLock) {
            if (closed) {
                return;
            }
            closed = true;
            mode = Mode.REFUSE;
            closeServer();
            closeConnections();
            modeLock.notifyAll();
        }
    }

    @Override
    public String toString() {
        return "TcpProxy[" + HOST + ":" + port + " -> " + targetHost + ":" + targetPort + ", " + mode + "]";
    }

    private void bind() {
        try {
            ServerSocket socket = new ServerSocket();
            socket.setReuseAddress(true); // the port is held by FreePorts; SO_REUSEADDR lets us listen on it
            int wanted = port == 0 ? FreePorts.next() : port;
            try {
                socket.bind(new InetSocketAddress(InetAddress.getByName(HOST), wanted), 50);
            } catch (IOException e) {
                socket.close();
                throw new IllegalStateException("TcpProxy could not bind " + HOST + ":" + wanted
                        + " (held for it by FreePorts, so nothing else should listen there): " + e, e);
            }
            port = socket.getLocalPort();
            server = socket;
            Thread thread = new Thread(() -> acceptLoop(socket), "tcp-proxy-accept-" + port);
            thread.setDaemon(true);
            acceptor = thread;
            thread.start();
        } catch (IOException e) {
            throw new IllegalStateException("TcpProxy could not open a server socket: " + e, e);
        }
    }

    private void acceptLoop(ServerSocket socket) {
        while (!socket.isClosed()) {
            Socket client;
            try {
                client = socket.accept();
            } catch (IOException e) {
                return; // closed by REFUSE / close()
            }
            sockets.add(client);
            if (mode == Mode.FORWARD) {
                startForwarding(client);
            } else {
                daemon("tcp-proxy-blackhole-" + port, () -> swallow(client)).start();
            }
        }
    }

    private void startForwarding(Socket client) {
        Socket upstream = new Socket();
        try {
            upstream.connect(new InetSocketAddress(targetHost, targetPort), 5000);
        } catch (IOException e) {
            closeQuietly(client);
            closeQuietly(upstream);
            return; // the client sees the connection closed, as with a dead server behind a proxy
        }
        sockets.add(upstream);
        daemon("tcp-proxy-up-" + port, () -> pump(client, upstream)).start();
        daemon("tcp-proxy-down-" + port, () -> pump(upstream, client)).start();
    }

    private void pump(Socket from, Socket to) {
        byte[] buffer = new byte[16 * 1024];
        try {
            InputStream in = from.getInputStream();
            OutputStream out = to.getOutputStream();
            int n;
            while ((n = in.read(buffer)) >= 0) {
                awaitNotBlackholed();
                if (closed || mode == Mode.REFUSE) {
                    break;
                }
                out.write(buffer, 0, n);
                out.flush();
            }
        } catch (IOException e) {
            // either side closed
        } finally {
            closeQuietly(from);
            closeQuietly(to);
        }
    }

    private void awaitNotBlackholed() {
        synchronized (modeLock) {
            while (mode == Mode.BLACKHOLE && !closed) {
                try {
                    modeLock.wait();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }
    }

    private void swallow(Socket client) {
        byte[] buffer = new byte[4096];
        try {
            InputStream in = client.getInputStream();
            while (in.read(buffer) >= 0) {
                // black hole: read and drop
            }
        } catch (IOException e) {
            // closed
        } finally {
            closeQuietly(client);
        }
    }

    /**
     * Closes the listening socket and returns only once the kernel has stopped listening. While
     * the acceptor thread sits in accept(2), that call holds the socket open: close() only
     * signals the thread, and until it wakes (late, on a busy machine) the socket is still
     * LISTENing and completes the handshake of every connect. So wait for the acceptor to end.
     */
    private void closeServer() {
        ServerSocket current = server;
        Thread thread = acceptor;
        server = null;
        acceptor = null;
        if (current != null) {
            try {
                current.close();
            } catch (IOException e) {
                // already closed
            }
        }
        if (thread != null && thread != Thread.currentThread()) {
            try {
                thread.join(Patience.PROCESS.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            if (thread.isAlive()) {
                throw new IllegalStateException(this + ": the accept thread did not end within "
                        + Patience.PROCESS.toSeconds() + " s of closing the listening socket");
            }
        }
    }

    private void closeConnections() {
        for (Socket socket : Set.copyOf(sockets)) {
            closeQuietly(socket);
        }
    }

    private void closeQuietly(Socket socket) {
        sockets.remove(socket);
        try {
            socket.close();
        } catch (IOException e) {
            // already closed
        }
    }

    private static Thread daemon(String name, Runnable body) {
        Thread thread = new Thread(body, name);
        thread.setDaemon(true);
        return thread;
    }
}
