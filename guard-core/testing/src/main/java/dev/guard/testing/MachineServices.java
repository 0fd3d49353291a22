package dev.guard.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * The machine's shared services (Redis, RabbitMQ, NATS), as tests find them: from an env
 * var, else the default local address. Each accessor checks the service really answers and
 * fails (never skips) with a message saying how to start it. Shared services: isolate
 * with {@link #uniqueName(String)} or {@link #amqpVhost(String)}.
 */
public final class MachineServices {

    public static final String REDIS_ENV = "GUARD_TEST_REDIS_URL";
    public static final String AMQP_ENV = "GUARD_TEST_AMQP_URL";
    public static final String NATS_ENV = "GUARD_TEST_NATS_URL";

    public static final String REDIS_START = "redis-server --daemonize yes --bind 127.0.0.1 -::1 --port 6379 --save \"\" "
            + "--appendonly no --dir /var/lib/redis --logfile /var/log/redis/ci.log";
    static final String AMQP_START = "rabbitmq-server -detached";
    static final String NATS_START = "start-stop-daemon --start --oknodo --background --exec /usr/sbin/nats-server -- "
            + "-a 127.0.0.1 -p 4222 -js -sd /var/lib/nats-server -l /var/log/nats-server.log";

    private static final SecureRandom RANDOM = new SecureRandom();
    private static final Map<String, Boolean> CHECKED = new ConcurrentHashMap<>();

    private MachineServices() {}

    /** {@code host:port} of a service URL as the CLI prints it (the scheme's default port when the URL has none). */
    public static String hostPort(String url) {
        URI u = URI.create(url);
        int port = u.getPort();
        if (port < 0) {
            port = switch (u.getScheme()) {
                case "redis", "rediss" -> 6379;
                case "amqp" -> 5672;
                case "amqps" -> 5671;
                case "nats" -> 4222;
                default -> throw new IllegalArgumentException("no default port known for " + u.getScheme());
            };
        }
        return u.getHost() + ":" + port;
    }

    /** The shared Redis ({@code GUARD_TEST_REDIS_URL} or {@code redis://127.0.0.1:6379}), checked to answer PONG. */
    public static String redisUri() {
        return checkRedis(fromEnv(REDIS_ENV, "redis://127.0.0.1:6379"), origin(REDIS_ENV));
    }

    static String checkRedis(String uri, String origin) {
        if (CHECKED.containsKey(uri)) {
            return uri;
        }
        URI parsed = URI.create(uri);
        String host = parsed.getHost() == null ? "127.0.0.1" : parsed.getHost();
        int port = parsed.getPort() < 0 ? 6379 : parsed.getPort();
        String password = null;
        if (parsed.getRawUserInfo() != null) {
            String info = parsed.getRawUserInfo();
            password = URLDecoder.decode(info.substring(info.indexOf(':') + 1), StandardCharsets.UTF_8);
        }
        String found;
        try {
            found = Resp.call(host, port, password, 3000, "PING");
        } catch (IOException e) {
            found = e.toString();
        }
        if (!found.startsWith("+PONG")) {
            throw unavailable("Redis", uri, origin, "did not answer PING with PONG: " + found, REDIS_START);
        }
        CHECKED.put(uri, true);
        return uri;
    }

    /** The shared RabbitMQ ({@code GUARD_TEST_AMQP_URL} or {@code amqp://guest:guest@127.0.0.1:5672}), checked to speak AMQP. */
    public static String amqpUri() {
        return checkAmqp(fromEnv(AMQP_ENV, "amqp://guest:guest@127.0.0.1:5672"), origin(AMQP_ENV));
    }

    static String checkAmqp(String uri, String origin) {
        if (CHECKED.containsKey(uri)) {
            return uri;
        }
        URI parsed = URI.create(uri);
        String host = parsed.getHost() == null ? "127.0.0.1" : parsed.getHost();
        boolean tls = "amqps".equalsIgnoreCase(parsed.getScheme());
        int port = parsed.getPort() < 0 ? (tls ? 5671 : 5672) : parsed.getPort();
        String found;
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(host, port), 3000);
            socket.setSoTimeout(3000);
            if (tls) {
                found = "accepts TCP";
            } else {
                OutputStream out = socket.getOutputStream();
                out.write(new byte[] {'A', 'M', 'Q', 'P', 0, 0, 9, 1});
                out.flush();
                InputStream in = socket.getInputStream();
                int frameType = in.read();
                found = frameType == 1 ? "connection.start" : "first byte " + frameType + " (not an AMQP 0-9-1 frame)";
            }
        } catch (IOException e) {
            found = e.toString();
        }
        if (!found.equals("connection.start") && !found.equals("accepts TCP")) {
            throw unavailable("RabbitMQ", uri, origin, "did not answer the AMQP 0-9-1 header with connection.start: "
                    + found, AMQP_START);
        }
        CHECKED.put(uri, true);
        return uri;
    }

    /** The shared NATS ({@code GUARD_TEST_NATS_URL} or {@code nats://127.0.0.1:4222}), checked to send its INFO line. */
    public static String natsUrl() {
        return checkNats(fromEnv(NATS_ENV, "nats://127.0.0.1:4222"), origin(NATS_ENV));
    }

    static String checkNats(String url, String origin) {
        if (CHECKED.containsKey(url)) {
            return url;
        }
        URI parsed = URI.create(url);
        String host = parsed.getHost() == null ? "127.0.0.1" : parsed.getHost();
        int port = parsed.getPort() < 0 ? 4222 : parsed.getPort();
        String found;
        try {
            found = NatsServer.readInfoLine(host, port, 3000);
        } catch (IOException e) {
            found = e.toString();
        }
        if (!found.startsWith("INFO ")) {
            throw unavailable("NATS", url, origin, "did not send its INFO line: " + found, NATS_START);
        }
        CHECKED.put(url, true);
        return url;
    }

    /** {@code prefix} plus a short random suffix ({@code prefix-1a2b3c4d}), for per-test queues, keys, subjects. */
    public static String uniqueName(String prefix) {
        return prefix + "-" + Integer.toHexString(RANDOM.nextInt() | 0x10000000);
    }

    /**
     * Creates vhost {@code name} on the shared RabbitMQ (rabbitmqctl add_vhost, then
     * set_permissions for guest) and returns {@link #amqpUri()} pointing at it. Fails with
     * how-to when rabbitmqctl is missing or refuses.
     */
    public static String amqpVhost(String name) {
        String base = amqpUri();
        String ctl = Children.findBinary("rabbitmqctl").map(Object::toString).orElseThrow(() -> new IllegalStateException(
                "amqpVhost(" + name + "): rabbitmqctl not found in PATH, /usr/sbin or /usr/bin, so no vhost can be "
                        + "created. Run the tests on the machine that runs RabbitMQ (apt-get install rabbitmq-server; "
                        + AMQP_START + "), or isolate by queue names with MachineServices.uniqueName(...) instead."));
        String user = userOf(base);
        rabbitmqctl(ctl, "add_vhost", name);
        rabbitmqctl(ctl, "set_permissions", "-p", name, user, ".*", ".*", ".*");
        URI parsed = URI.create(base);
        String authority = parsed.getRawAuthority();
        return parsed.getScheme() + "://" + authority + "/" + URLEncoder.encode(name, StandardCharsets.UTF_8);
    }

    /** Deletes a vhost made by {@link #amqpVhost(String)} (and all its queues). */
    public static void deleteAmqpVhost(String name) {
        String ctl = Children.findBinary("rabbitmqctl").map(Object::toString)
                .orElseThrow(() -> new IllegalStateException("deleteAmqpVhost(" + name + "): rabbitmqctl not found"));
        rabbitmqctl(ctl, "delete_vhost", name);
    }

    private static String userOf(String amqpUri) {
        String info = URI.create(amqpUri).getRawUserInfo();
        if (info == null) {
            return "guest";
        }
        int colon = info.indexOf(':');
        return URLDecoder.decode(colon < 0 ? info : info.substring(0, colon), StandardCharsets.UTF_8);
    }

    private static void rabbitmqctl(String ctl, String... args) {
        List<String> cmd = new ArrayList<>();
        cmd.add(ctl);
        cmd.addAll(List.of(args));
        try {
            Process process = new ProcessBuilder(cmd).redirectErrorStream(true).start();
            byte[] output = process.getInputStream().readAllBytes();
            if (!process.waitFor(60, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new IllegalStateException(String.join(" ", cmd) + " did not finish within 60 s");
            }
            if (process.exitValue() != 0) {
                throw new IllegalStateException(String.join(" ", cmd) + " exited with " + process.exitValue() + ": "
                        + new String(output, StandardCharsets.UTF_8).trim()
                        + ". Run the tests as a user allowed to use rabbitmqctl (root here), or isolate by queue "
                        + "names with MachineServices.uniqueName(...).");
            }
        } catch (IOException e) {
            throw new IllegalStateException(String.join(" ", cmd) + " could not run: " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while running rabbitmqctl", e);
        }
    }

    private static String fromEnv(String name, String fallback) {
        String value = System.getenv(name);
        return value == null || value.isBlank() ? fallback : value.trim();
    }

    private static String origin(String env) {
        String value = System.getenv(env);
        return value == null || value.isBlank() ? "default; set " + env + " to use another" : "from env " + env;
    }

    private static AssertionError unavailable(String service, String uri, String origin, String found, String startCommand) {
        return new AssertionError(service + " at " + Masking.url(uri) + " (" + origin + ") " + found
                + ". These tests need the machine's " + service + ": start it with `" + startCommand
                + "` (as in .ci/run), or point the env var at a running one.");
    }
}
