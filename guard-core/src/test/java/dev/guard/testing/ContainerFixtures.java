package dev.guard.testing;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * Puts this JVM's fixtures on their container path ({@code guard.fixtures.backend=docker}) for the
 * container ITs, after checking that an engine answers and that the images they run exist (built
 * by compose/standins/build.sh from this machine's packages where no registry is reachable).
 */
final class ContainerFixtures {
    /** Hang guard for building the stand-in images (seconds when they are up to date, a minute when not). */
    static final Duration STANDINS_BOUND = Duration.ofMinutes(10);
    private static boolean ready;

    private ContainerFixtures() {}

    static synchronized void require() throws Exception {
        System.setProperty("guard.fixtures.backend", "docker");
        if (ready) {
            return;
        }
        if (!ContainerChild.dockerAvailable()) {
            throw new AssertionError("no Docker engine answers Testcontainers (DOCKER_HOST=" + System.getenv("DOCKER_HOST")
                    + "): the container fixtures need one. Provide it with .ci/engine (podman, serving "
                    + "unix:///run/podman/podman.sock, which failsafe passes as DOCKER_HOST), or -Dguard.docker.host=... "
                    + "for another engine");
        }
        Path script = repoRoot().resolve("compose/standins/build.sh");
        BoundedRun.Result r = BoundedRun.run(List.of("bash", script.toString(), "redis", "nats"), STANDINS_BOUND);
        if (r.exit() != 0) {
            throw new AssertionError(script + " (the images " + RedisServer.IMAGE + " and " + NatsServer.IMAGE
                    + ") failed: " + r.output());
        }
        ready = true;
    }

    static Path repoRoot() {
        Path dir = Path.of(System.getProperty("user.dir")).toAbsolutePath();
        for (Path d = dir; d != null; d = d.getParent()) {
            if (Files.isRegularFile(d.resolve("compose/standins/build.sh"))) {
                return d;
            }
        }
        throw new IllegalStateException("compose/standins/build.sh not found above " + dir);
    }
}
