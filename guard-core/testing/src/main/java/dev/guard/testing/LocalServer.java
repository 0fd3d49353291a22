package dev.guard.testing;

import java.nio.file.Path;
import java.time.Duration;

/**
 * A server the tests run as a child (a local process, or a container where Docker runs) on a port of
 * 127.0.0.1 reserved when it is built, in a directory of its own: what {@link RedisServer},
 * {@link NatsServer}, {@link KafkaBroker} and a Sentinel share. {@link #stop()} is SIGTERM and a
 * wait (then SIGKILL), {@link #kill()} SIGKILL, {@link #restart()} a stop and a start on the same
 * port and directory (data kept), {@link #close()} a kill and the directory deleted. A failure
 * message names the server and ends with its log's last lines.
 *
 * @param <S> the server's own type, so {@code start()} and {@code restart()} chain
 */
public abstract class LocalServer<S extends LocalServer<S>> implements AutoCloseable {

    static final String HOST = "127.0.0.1";

    private final String kind;
    private final int port;
    private final Path dir;
    private final Path logFile;
    private final Duration stopGrace;
    private final int tailLines;
    /** The running child, or null; set by a subclass's start, guarded by this. */
    private Child process;
    private boolean closed;

    /**
     * @param kind      what it is, for messages ({@code redis-server})
     * @param port      its client port; 0 picks a free one
     * @param dirPrefix the prefix of its temporary directory
     * @param logName   its log file's name in that directory
     * @param stopGrace how long {@link #stop()} waits after SIGTERM before SIGKILL
     * @param tailLines how many of the log's last lines a failure shows
     */
    LocalServer(String kind, int port, String dirPrefix, String logName, Duration stopGrace, int tailLines) {
        this.kind = kind;
        this.port = port == 0 ? FreePorts.next() : requirePort(port);
        this.dir = Children.tempDir(dirPrefix + this.port + "-");
        this.logFile = dir.resolve(logName);
        this.stopGrace = stopGrace;
        this.tailLines = tailLines;
    }

    /** For the builders' {@code port(int)}: a port, or 0 for a free one at {@code build()}; throws otherwise. */
    static int requirePort(int port) {
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("port must be 0..65535, was " + port);
        }
        return port;
    }

    /** Starts it and returns once it serves, else throws with the log tail. */
    public abstract S start();

    /** Stops it if running, then starts it again on the same port and directory. */
    public synchronized S restart() {
        stop();
        return start();
    }

    /** SIGTERM (the server shuts down its own way), wait up to the grace, then SIGKILL; returns once it is gone. */
    public synchronized void stop() {
        if (process != null) {
            process.terminate(stopGrace);
            process = null;
        }
    }

    /** SIGKILL: it dies at once, mid-whatever. */
    public synchronized void kill() {
        if (process != null) {
            process.kill();
            process = null;
        }
    }

    /** True while the child is alive. */
    public synchronized boolean isRunning() {
        return process != null && process.isAlive();
    }

    public int port() {
        return port;
    }

    public String host() {
        return HOST;
    }

    public Path logFile() {
        return logFile;
    }

    /** The server's own directory (data, logs). */
    public Path dir() {
        return dir;
    }

    /** Kills it and deletes its directory. Idempotent. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        kill();
        closed = true;
        Children.deleteTree(dir);
    }

    /** For a subclass's start: throws when closed or already running. */
    final synchronized void requireStartable() {
        requireOpen();
        if (isRunning()) {
            throw new IllegalStateException(kind + " on port " + port + " is already running");
        }
    }

    final synchronized void requireOpen() {
        if (closed) {
            throw new IllegalStateException(this + " is closed");
        }
    }

    /** The running child, or null. */
    final synchronized Child process() {
        return process;
    }

    /** Records the child a subclass's start spawned. */
    final synchronized void started(Child child) {
        this.process = child;
    }

    /** An exception for {@code message}, naming this server and its log, with the log's last lines. */
    IllegalStateException failure(String message) {
        return new IllegalStateException(message + " [" + this + ", log " + logFile + "]. Log tail:\n"
                + Children.tail(logFile, tailLines) + moreTail());
    }

    /** What a failure shows besides the log's tail (a server's stdout); empty by default. */
    String moreTail() {
        return "";
    }
}
