package dev.guard.init;

import dev.guard.testing.RedisServer;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/**
 * A private redis-server held in LOADING until the test releases it, so a test that needs a
 * client (or the CLI) to meet a loading Redis does not race the load on a busy machine.
 *
 * <p>The server loads its RDB with a long per-key delay ({@code --key-load-delay}), which makes
 * the load last minutes; as soon as the test has seen what it needs, {@link #release} sets the
 * delay to 0 at runtime ({@code CONFIG SET} is served while loading) and the rest of the load
 * takes well under a second. The hold time is a hang guard, never waited for.
 */
public final class LoadingHold {

    /** Keys in the RDB: with {@link #HOLD_DELAY_MICROS} that is about 200 s of LOADING, far beyond any CLI start. */
    public static final int KEYS = 100_000;
    /**
     * Per-key load delay while held. Redis serves clients every 1024 loaded bytes (RedisServer
     * sets {@code loading-process-events-interval-bytes}), about 25 keys here: replies while
     * held come within about 50 ms.
     */
    public static final int HOLD_DELAY_MICROS = 2000;
    /** Bound of the release command: a loaded machine may delay the reply, never for this long. */
    private static final int RELEASE_TIMEOUT_MILLIS = 30_000;

    private LoadingHold() {}

    /** Starts a private Redis and returns once it has answered -LOADING; it stays loading until {@link #release}. */
    public static RedisServer start() {
        return RedisServer.builder().preloadKeys(KEYS).keyLoadDelayMicros(HOLD_DELAY_MICROS).build().startLoading();
    }

    /** Lets the load finish now ({@code CONFIG SET key-load-delay 0}); fails unless Redis says OK. */
    public static void release(RedisServer redis) {
        String reply = call(redis, "CONFIG", "SET", "key-load-delay", "0");
        if (!reply.startsWith("+OK")) {
            throw new IllegalStateException("CONFIG SET key-load-delay 0 on " + redis + " answered '" + reply
                    + "'; log " + redis.logFile());
        }
    }

    private static String call(RedisServer redis, String... command) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(redis.host(), redis.port()), RELEASE_TIMEOUT_MILLIS);
            socket.setSoTimeout(RELEASE_TIMEOUT_MILLIS);
            OutputStream out = socket.getOutputStream();
            InputStream in = socket.getInputStream();
            if (redis.password() != null) {
                out.write(encode("AUTH", redis.password()));
                out.flush();
                String auth = readLine(in);
                if (!auth.startsWith("+OK")) {
                    return auth;
                }
            }
            out.write(encode(command));
            out.flush();
            return readLine(in);
        } catch (IOException e) {
            throw new UncheckedIOException(String.join(" ", command) + " to " + redis + " failed; log " + redis.logFile(), e);
        }
    }

    private static byte[] encode(String... args) {
        StringBuilder b = new StringBuilder("*").append(args.length).append("\r\n");
        for (String a : args) {
            b.append('$').append(a.getBytes(StandardCharsets.UTF_8).length).append("\r\n").append(a).append("\r\n");
        }
        return b.toString().getBytes(StandardCharsets.UTF_8);
    }

    private static String readLine(InputStream in) throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        for (int c; (c = in.read()) != -1; ) {
            if (c == '\n') {
                break;
            }
            if (c != '\r') {
                line.write(c);
            }
        }
        return line.toString(StandardCharsets.UTF_8);
    }
}
