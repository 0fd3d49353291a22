package dev.guard.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A private {@code redis-server} child process on a free port of 127.0.0.1, in its own
 * temp dir, with an optional password. Can be killed and restarted on the same port, and can
 * run in <em>loading mode</em>: preloaded with keys and restarted with a per-key load delay
 * so that for a few seconds it accepts connections but answers {@code -LOADING}.
 *
 * <p>Persistence is off ({@code --save ""}, no AOF); only loading mode writes one RDB
 * snapshot (explicit {@code SAVE}), which every restart then loads again.
 */
public final class RedisServer extends LocalServer<RedisServer> {

    /** Timestamp of a Redis log line: {@code 30 Nov 2026 09:30:01.123} (local time). */
    private static final Pattern LOG_TIME = Pattern.compile("(\\d{2} \\w{3} \\d{4} \\d{2}:\\d{2}:\\d{2}\\.\\d{3})");
    private static final DateTimeFormatter LOG_TIME_FORMAT =
            DateTimeFormatter.ofPattern("dd MMM yyyy HH:mm:ss.SSS", Locale.ROOT);
    private static final Duration START_TIMEOUT = Duration.ofSeconds(20); // generous: 2 cores shared by many builds
    /**
     * Per-key load delay of {@link Builder#heldLoading()}: with 40,000 keys at least 80 s of
     * LOADING (a hang guard, never waited out: the test ends it with {@link #finishLoading()}).
     * Redis still answers every 1024 loaded bytes, about 25 keys: within about 50 ms.
     */
    static final int HELD_DELAY_MICROS = 2000;
    /** Bound of the command that ends a held load: a busy machine may delay the reply, never this long. */
    private static final int RELEASE_TIMEOUT_MILLIS = 30_000;
    /** The image used where no local redis-server exists but Docker runs; same version as on the CI machine. */
    static final String IMAGE = "redis:7.0.15";

    private final String password;
    private final int preloadKeys;
    private final int keyLoadDelayMicros;
    /** Server options added to every start but the preload one ({@code --cluster-enabled yes}, {@code --replicaof ...}). */
    private final List<String> extraArgs;
    /** Addresses it listens on besides 127.0.0.1 (a non-loopback address of this machine). */
    private final List<String> alsoBind;
    /** Words before the local redis-server's command line ({@code taskset -c 0}); empty for none. */
    private final List<String> launcher;
    /** The local redis-server, or null when the server runs in a container ({@value #IMAGE}). */
    private final Path binary;
    private final Path outFile;

    private boolean loadingMode;
    private boolean populated;
    private long logOffset;
    private Instant loadingObservedAt;

    RedisServer(Builder builder) {
        super("redis-server", builder.port, "redis-", "redis.log", Duration.ofSeconds(10), 20);
        this.password = builder.password;
        this.preloadKeys = builder.preloadKeys;
        this.keyLoadDelayMicros = builder.keyLoadDelayMicros;
        this.extraArgs = List.copyOf(builder.extraArgs);
        this.alsoBind = List.copyOf(builder.alsoBind);
        this.launcher = List.copyOf(builder.launcher);
        this.binary = builder.localOnly ? localBinary()
                : Children.localOrDocker("redis-server", "apt-get install redis-server").orElse(null);
        this.outFile = dir().resolve("redis.out");
    }

    /** The installed redis-server; topologies (replicas, sentinels, a cluster) need one on this machine's network. */
    static Path localBinary() {
        return Children.findBinary("redis-server").orElseThrow(() -> new IllegalStateException(
                "redis-server not found in PATH, /usr/sbin, /usr/bin or /usr/local/bin: replication, Sentinel and Cluster "
                + "fixtures start local servers that reach each other; install it (apt-get install redis-server)"));
    }

    /**
     * Sends a command to this server now (AUTH first when it has a password) and returns the
     * reply as text, an array as its elements one per line; {@code "no connection: ..."} when
     * nothing answers.
     */
    public String command(String... command) {
        return Resp.text(HOST, port(), password, command);
    }

    /**
     * A field of {@code cmdstat_<command>} in this server's {@code INFO commandstats} now ({@code calls},
     * {@code usec}, {@code rejected_calls}, ...); 0 before the command's first call.
     */
    public long commandStat(String command, String field) {
        return commandStat(command("INFO", "commandstats"), command, field);
    }

    /** {@link #commandStat(String, String)} read from an {@code INFO commandstats} reply taken once. */
    public static long commandStat(String commandstats, String command, String field) {
        Matcher m = Pattern.compile("cmdstat_" + Pattern.quote(command) + ":[^\\r\\n]*\\b" + Pattern.quote(field)
                + "=(\\d+)").matcher(commandstats);
        return m.find() ? Long.parseLong(m.group(1)) : 0;
    }

    /** A builder: free port, no password, loading mode with 40,000 keys and 20 µs per key. */
    public static Builder builder() {
        return new Builder();
    }

    /** Starts a plain server; returns once it answers PONG (at most 20 s, else throws with the log tail). */
    @Override
    public synchronized RedisServer start() {
        requireStartable();
        spawn(false, false);
        awaitPong(START_TIMEOUT, "start");
        return this;
    }

    /**
     * Starts in loading mode: preloads {@code preloadKeys} keys (once), saves an RDB, then
     * restarts on the same dir and port with {@code --key-load-delay}. Returns as soon as a
     * real {@code -LOADING} reply has been observed; throws if the server answered PONG
     * (loading already over) or never answered.
     */
    public synchronized RedisServer startLoading() {
        requireStartable();
        loadingMode = true;
        if (!populated) {
            populate();
        }
        spawn(true, true);
        awaitLoadingReply();
        return this;
    }

    private void populate() {
        spawn(false, true);
        awaitPong(START_TIMEOUT, "start (to preload keys)");
        String populate = call(60_000, "DEBUG", "POPULATE", Integer.toString(preloadKeys), "guard:preload", "16");
        if (!populate.startsWith("+OK")) {
            throw new IllegalStateException("DEBUG POPULATE " + preloadKeys + " on port " + port() + " answered '"
                    + populate + "'; it needs --enable-debug-command yes (Redis 7). Log tail:\n" + Children.tail(logFile(), 20));
        }
        String save = call(60_000, "SAVE");
        if (!save.startsWith("+OK")) {
            throw new IllegalStateException("SAVE on port " + port() + " answered '" + save + "'. Log tail:\n"
                    + Children.tail(logFile(), 20));
        }
        stop();
        if (!Files.exists(dir().resolve("dump.rdb"))) {
            throw new IllegalStateException("SAVE answered OK but " + dir().resolve("dump.rdb") + " is missing");
        }
        populated = true;
    }

    private void awaitLoadingReply() {
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        String last = "no reply yet";
        while (System.nanoTime() < deadline) {
            if (!process().isAlive()) {
                throw failure("redis-server ended (" + process().exitStatus() + ") before answering -LOADING");
            }
            try {
                String reply = Resp.call(HOST, port(), password, 1000, "PING");
                if (reply.startsWith("-LOADING")) {
                    loadingObservedAt = Instant.now();
                    return;
                }
                if (reply.startsWith("+PONG")) {
                    throw failure("redis-server answered PONG before any -LOADING reply was seen: loading of "
                            + preloadKeys + " keys with key-load-delay " + keyLoadDelayMicros
                            + " us was too short to observe; raise preloadKeys or keyLoadDelayMicros");
                }
                last = reply;
            } catch (IOException e) {
                last = e.toString();
            }
            Children.sleep(5);
        }
        throw failure("no -LOADING reply within " + START_TIMEOUT.toSeconds() + " s (last: " + last + ")");
    }

    /**
     * Lets a load finish now: {@code CONFIG SET key-load-delay 0}, which Redis serves while it
     * loads, so the rest of the dataset loads at full speed. With {@link Builder#heldLoading()}
     * a test keeps the server LOADING for as long as it needs to observe that, then calls this:
     * the end of loading is the test's decision, not a race against the machine's speed.
     * A later loading-mode {@link #restart()} holds again.
     */
    public void finishLoading() {
        String reply = call(RELEASE_TIMEOUT_MILLIS, "CONFIG", "SET", "key-load-delay", "0");
        if (!reply.startsWith("+OK")) {
            throw failure("CONFIG SET key-load-delay 0 answered '" + reply + "'");
        }
    }

    /** Sends PING now: true iff the reply is {@code -LOADING}; false on any other reply or no connection. */
    public boolean isLoading() {
        try {
            return Resp.call(HOST, port(), password, 2000, "PING").startsWith("-LOADING");
        } catch (IOException e) {
            return false;
        }
    }

    /**
     * Sends PING now (with AUTH when a password is set) and returns the raw reply line:
     * {@code +PONG}, {@code -LOADING Redis is loading the dataset in memory}, ...; or
     * {@code "no connection: <cause>"} when nothing answers.
     */
    public String ping() {
        try {
            return Resp.call(HOST, port(), password, 2000, "PING");
        } catch (IOException e) {
            return "no connection: " + e;
        }
    }

    /** When {@link #startLoading()} (or a loading-mode restart) first saw {@code -LOADING}; null before. */
    public synchronized Instant loadingObservedAt() {
        return loadingObservedAt;
    }

    /**
     * Waits (at most {@code max}) until the server answers PONG and returns when loading
     * ended: the time of the log line {@code DB loaded from disk}, or the instant of the first
     * PONG if the log has no such line (e.g. nothing was loaded).
     */
    public Instant awaitLoaded(Duration max) {
        Instant pong = awaitPong(max, "awaitLoaded");
        return loadedAtFromLog().orElse(pong);
    }

    private java.util.Optional<Instant> loadedAtFromLog() {
        long offset;
        synchronized (this) {
            offset = logOffset;
        }
        try {
            byte[] bytes = Files.readAllBytes(logFile());
            String text = new String(bytes, (int) Math.min(offset, bytes.length),
                    (int) (bytes.length - Math.min(offset, bytes.length)), StandardCharsets.UTF_8);
            for (String line : text.split("\n")) {
                if (line.contains("DB loaded from disk")) {
                    Matcher m = LOG_TIME.matcher(line);
                    if (m.find()) {
                        return java.util.Optional.of(LocalDateTime.parse(m.group(1), LOG_TIME_FORMAT)
                                .atZone(ZoneId.systemDefault()).toInstant());
                    }
                }
            }
            return java.util.Optional.empty();
        } catch (IOException e) {
            throw new UncheckedIOException("could not read " + logFile(), e);
        }
    }

    /** Stops it if running, then starts again on the same port and dir (in loading mode: loading again). */
    @Override
    public synchronized RedisServer restart() {
        stop();
        return loadingMode ? startLoading() : start();
    }

    /** {@code redis://[:password@]127.0.0.1:port}; mask it before printing (the fixtures print it masked). */
    public String uri() {
        String auth = password == null ? "" : ":" + URLEncoder.encode(password, StandardCharsets.UTF_8) + "@";
        return "redis://" + auth + HOST + ":" + port();
    }

    /** The password, or null. */
    public String password() {
        return password;
    }

    /** The server's stdout besides its log: where it says why it could not start. */
    @Override
    String moreTail() {
        return "\n" + Children.tail(outFile, 10);
    }

    @Override
    public String toString() {
        return "RedisServer[" + Masking.url(uri()) + (loadingMode ? ", loading mode" : "") + "]";
    }

    private void spawn(boolean loading, boolean debugCommand) {
        try {
            logOffset = Files.exists(logFile()) ? Files.size(logFile()) : 0;
        } catch (IOException e) {
            logOffset = 0;
        }
        boolean inContainer = binary == null;
        String serverDir = inContainer ? ContainerChild.DATA : dir().toString();
        List<String> cmd = new ArrayList<>(inContainer ? List.of() : launcher);
        cmd.addAll(List.of(inContainer ? "redis-server" : binary.toString(), "--bind"));
        cmd.addAll(inContainer ? List.of("0.0.0.0") : bindList());
        cmd.addAll(List.of("--port", Integer.toString(port()), "--dir", serverDir,
                "--logfile", serverDir + "/redis.log", "--daemonize", "no", "--save", "", "--appendonly", "no",
                "--protected-mode", "no"));
        if (password != null) {
            cmd.add("--requirepass");
            cmd.add(password);
        }
        if (debugCommand) {
            cmd.add("--enable-debug-command");
            cmd.add("yes");
        }
        if (loading) {
            cmd.add("--key-load-delay");
            cmd.add(Integer.toString(keyLoadDelayMicros));
            cmd.add("--loading-process-events-interval-bytes");
            cmd.add("1024");
        }
        if (!debugCommand || loading) {
            // not while preloading: a replica or cluster node would take part in replication and drop the keys;
            // after the loading options, so that args() can override them (the last of a repeated option wins)
            cmd.addAll(extraArgs);
        }
        started(inContainer ? ContainerChild.start(IMAGE, cmd, port(), dir(), outFile)
                : Child.local(Children.spawn(cmd, dir(), outFile)));
    }

    private List<String> bindList() {
        List<String> all = new ArrayList<>(List.of(HOST));
        all.addAll(alsoBind);
        return all;
    }

    /** Polls PING until PONG; returns the instant of the first PONG. */
    private Instant awaitPong(Duration max, String what) {
        long deadline = System.nanoTime() + max.toNanos();
        String last = "no reply yet";
        while (true) {
            Child current;
            synchronized (this) {
                current = process();
            }
            if (current == null) {
                throw failure(what + ": redis-server on port " + port() + " is not running");
            }
            if (!current.isAlive()) {
                throw failure(what + ": redis-server ended (" + current.exitStatus() + ") before answering PONG");
            }
            try {
                String reply = Resp.call(HOST, port(), password, 1000, "PING");
                if (reply.startsWith("+PONG")) {
                    return Instant.now();
                }
                last = reply;
                if (reply.startsWith("-NOAUTH") || reply.startsWith("-WRONGPASS") || reply.startsWith("-ERR")) {
                    throw failure(what + ": PING answered '" + reply + "'");
                }
            } catch (IOException e) {
                last = e.toString();
            }
            if (System.nanoTime() > deadline) {
                throw failure(what + ": no PONG within " + max.toMillis() + " ms (last: " + last + ")");
            }
            Children.sleep(20);
        }
    }

    private String call(int timeoutMillis, String... command) {
        try {
            return Resp.call(HOST, port(), password, timeoutMillis, command);
        } catch (IOException e) {
            throw failure(String.join(" ", command[0]) + " on port " + port() + " failed: " + e);
        }
    }

    /** Builds a {@link RedisServer}; nothing starts until {@code start()} / {@code startLoading()}. */
    public static final class Builder {
        private String password;
        private int port;
        private int preloadKeys = 40_000;
        private int keyLoadDelayMicros = 20;
        private final List<String> extraArgs = new ArrayList<>();
        private final List<String> alsoBind = new ArrayList<>();
        private final List<String> launcher = new ArrayList<>();
        private boolean localOnly;

        Builder() {}

        /**
         * Server options for every start but the preload one of loading mode ({@code "--replicaof", "127.0.0.1",
         * "6380"}); they come last, so they override the loading mode's own ({@code
         * "--loading-process-events-interval-bytes", "2097152"}: Redis's default).
         */
        public Builder args(String... args) {
            extraArgs.addAll(List.of(args));
            return this;
        }

        /** Also listen on {@code address} (besides 127.0.0.1); implies the local redis-server. */
        public Builder alsoBind(String address) {
            alsoBind.add(address);
            localOnly = true;
            return this;
        }

        /** Run the installed redis-server, never a container (servers that must reach each other). */
        public Builder local() {
            localOnly = true;
            return this;
        }

        /**
         * Start the installed redis-server through {@code words} ({@code "taskset", "-c", "0"}: the
         * benchmarks keep it on a core of its own); implies the local redis-server.
         */
        public Builder launcher(String... words) {
            launcher.addAll(List.of(words));
            localOnly = true;
            return this;
        }

        /** Require this password ({@code --requirepass}); null for none. */
        public Builder password(String password) {
            this.password = password;
            return this;
        }

        /** The port; 0 (default) picks a free one at {@code build()}. */
        public Builder port(int port) {
            this.port = LocalServer.requirePort(port);
            return this;
        }

        /** Keys preloaded for loading mode (default 40,000: about 3 s of LOADING on 2 cores). */
        public Builder preloadKeys(int n) {
            if (n < 1) {
                throw new IllegalArgumentException("preloadKeys must be >= 1, was " + n);
            }
            this.preloadKeys = n;
            return this;
        }

        /**
         * Loading mode that lasts until the test calls {@link RedisServer#finishLoading()}
         * ({@code --key-load-delay} {@value RedisServer#HELD_DELAY_MICROS} us; minutes of LOADING).
         */
        public Builder heldLoading() {
            return keyLoadDelayMicros(HELD_DELAY_MICROS);
        }

        /** {@code --key-load-delay} in microseconds per key in loading mode (default 20). */
        public Builder keyLoadDelayMicros(int micros) {
            if (micros < 0) {
                throw new IllegalArgumentException("keyLoadDelayMicros must be >= 0, was " + micros);
            }
            this.keyLoadDelayMicros = micros;
            return this;
        }

        /** Picks the port (if 0) and the dir; finds redis-server or throws saying how to install it. */
        public RedisServer build() {
            return new RedisServer(this);
        }
    }
}
