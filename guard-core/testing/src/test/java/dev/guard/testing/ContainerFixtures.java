package dev.guard.testing;

/**
 * Puts this JVM's fixtures on their container path ({@code guard.fixtures.backend=docker}) for the
 * container ITs, after checking that an engine answers and that the images they run exist (built
 * by compose/standins/build.sh from this machine's packages where no registry is reachable).
 */
final class ContainerFixtures {
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
        Checkout.buildStandIns("redis", "nats"); // RedisServer.IMAGE, NatsServer.IMAGE
        ready = true;
    }
}
