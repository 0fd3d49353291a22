package dev.guard.testing;

import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The container engine the engine tests run against (guard-init's ImageEngineIT, the examples'
 * ComposeStackIT): podman's CLI and its Docker API socket (which docker-compose talks to). {@link #require()} fails, saying how to provide one, where
 * none answers; no engine test skips.
 */
public final class Engine {
    /** Where .ci/engine serves the Docker API. */
    public static final Path PODMAN_SOCKET = Path.of("/run/podman/podman.sock");
    /** Hang guard for one engine command: loading an image or starting a container takes seconds. */
    public static final Duration COMMAND_BOUND = Duration.ofMinutes(5);

    public final String dockerHost;

    private Engine(String dockerHost) {
        this.dockerHost = dockerHost;
    }

    /** The engine of this machine; throws an AssertionError naming what is missing. */
    public static Engine require() {
        String host = System.getenv("DOCKER_HOST");
        return require(host == null || host.isBlank() ? "unix://" + PODMAN_SOCKET : host);
    }

    /** The engine at {@code host} ({@code unix:///path}); throws an AssertionError naming what is missing. */
    public static Engine require(String host) {
        String how = " Provide one with .ci/engine (as root: installs Debian's podman and docker-compose, serves "
                + "the Docker API on " + PODMAN_SOCKET + "), or point DOCKER_HOST at a Docker engine.";
        if (!host.startsWith("unix://")) {
            throw new AssertionError("DOCKER_HOST=" + host + ": the engine tests need a unix socket." + how);
        }
        Path socket = Path.of(host.substring("unix://".length()));
        String ping = ping(socket);
        if (!ping.startsWith("HTTP/1.1 200")) {
            throw new AssertionError("no container engine answers on " + socket + " (" + ping + ")." + how);
        }
        for (String tool : List.of("podman", "docker-compose")) {
            if (!Files.isExecutable(Path.of("/usr/bin", tool))) {
                throw new AssertionError(tool + " is not installed (/usr/bin/" + tool + ")." + how);
            }
        }
        return new Engine(host);
    }

    /** GET /_ping on the API socket: the status line, or what went wrong. */
    private static String ping(Path socket) {
        if (!Files.exists(socket)) {
            return "no socket file";
        }
        try (SocketChannel ch = SocketChannel.open(StandardProtocolFamily.UNIX)) {
            ch.connect(UnixDomainSocketAddress.of(socket));
            ch.write(ByteBuffer.wrap("GET /_ping HTTP/1.1\r\nHost: d\r\nConnection: close\r\n\r\n"
                    .getBytes(StandardCharsets.US_ASCII)));
            ByteBuffer buf = ByteBuffer.allocate(256);
            ch.read(buf);
            String reply = new String(buf.array(), 0, buf.position(), StandardCharsets.US_ASCII);
            int eol = reply.indexOf('\r');
            return eol < 0 ? reply : reply.substring(0, eol);
        } catch (IOException e) {
            return e.toString();
        }
    }

    /** {@code podman ARGS}; the result whatever the exit code. */
    public BoundedRun.Result podman(String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of("podman"));
        cmd.addAll(List.of(args));
        return BoundedRun.run(cmd, COMMAND_BOUND);
    }

    /** {@code podman ARGS}, which must exit 0; returns its output. */
    public String podmanOk(String... args) throws IOException, InterruptedException {
        BoundedRun.Result r = podman(args);
        if (r.exit() != 0) {
            throw new AssertionError("podman " + String.join(" ", args) + " exited " + r.exit() + ": " + r.output());
        }
        return r.output();
    }

    /** Loads an OCI image tarball the build wrote; fails naming the build step when it is missing. */
    public void load(Path tarball) throws IOException, InterruptedException {
        if (!Files.isRegularFile(tarball)) {
            throw new AssertionError(tarball + " does not exist: build it with ./mvnw package (without -Dguard.image.skip)");
        }
        podmanOk("load", "-q", "-i", tarball.toString());
    }

    /** {@code docker-compose ARGS} against this engine, in {@code dir}; the result whatever the exit code. */
    public BoundedRun.Result compose(Path dir, Map<String, String> env, Duration bound, List<String> args)
            throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of("/usr/bin/docker-compose"));
        cmd.addAll(args);
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(dir.toFile());
        pb.environment().put("DOCKER_HOST", dockerHost);
        pb.environment().put("COMPOSE_INTERACTIVE_NO_CLI", "1");
        pb.environment().putAll(env);
        return BoundedRun.run(pb, bound);
    }
}
