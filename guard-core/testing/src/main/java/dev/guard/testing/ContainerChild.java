package dev.guard.testing;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.model.Bind;
import com.github.dockerjava.api.model.ExposedPort;
import com.github.dockerjava.api.model.HostConfig;
import com.github.dockerjava.api.model.PortBinding;
import com.github.dockerjava.api.model.Ports;
import com.github.dockerjava.api.model.Volume;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.List;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.wait.strategy.AbstractWaitStrategy;
import org.testcontainers.utility.DockerImageName;

/**
 * A fixture server in a Testcontainers container, used only where no local binary exists and
 * a Docker engine answers. The container publishes the same port on 127.0.0.1 (so restarts
 * keep the port) and mounts the fixture's dir at {@code /data} (so restarts keep the data).
 * Only this class touches Testcontainers: the local path never loads it.
 */
final class ContainerChild implements Child {

    /** The path the fixture dir is mounted at inside the container. */
    static final String DATA = "/data";

    private final GenericContainer<?> container;
    private volatile Long exitCode;

    private ContainerChild(GenericContainer<?> container) {
        this.container = container;
    }

    /** True iff Testcontainers finds a Docker engine that answers. */
    static boolean dockerAvailable() {
        try {
            return DockerClientFactory.instance().isDockerAvailable();
        } catch (Throwable e) {
            return false;
        }
    }

    /** Starts {@code image} with {@code command}, publishing {@code port} on 127.0.0.1 and mounting {@code dir} at /data. */
    static ContainerChild start(String image, List<String> command, int port, Path dir, Path output) {
        GenericContainer<?> container = new GenericContainer<>(DockerImageName.parse(image));
        container.withCommand(command.toArray(String[]::new))
                .withCreateContainerCmdModifier(cmd -> {
                    ExposedPort exposed = ExposedPort.tcp(port);
                    cmd.withExposedPorts(exposed);
                    HostConfig hostConfig = cmd.getHostConfig() == null ? new HostConfig() : cmd.getHostConfig();
                    hostConfig.withPortBindings(new PortBinding(Ports.Binding.bindIpAndPort("127.0.0.1", port), exposed))
                            .withBinds(new Bind(dir.toAbsolutePath().toString(), new Volume(DATA)));
                    cmd.withHostConfig(hostConfig);
                })
                .withLogConsumer(frame -> append(output, frame.getUtf8String()))
                .waitingFor(new AbstractWaitStrategy() {
                    @Override
                    protected void waitUntilReady() {
                        // the fixture waits for its own protocol-level answer (PONG, INFO)
                    }
                });
        container.start();
        return new ContainerChild(container);
    }

    @Override
    public boolean isAlive() {
        if (container.getContainerId() == null) {
            return false;
        }
        try {
            Boolean running = client().inspectContainerCmd(container.getContainerId()).exec().getState().getRunning();
            if (Boolean.TRUE.equals(running)) {
                return true;
            }
            exitCode = client().inspectContainerCmd(container.getContainerId()).exec().getState().getExitCodeLong();
            return false;
        } catch (RuntimeException e) {
            return false;
        }
    }

    @Override
    public String exitStatus() {
        return exitCode == null ? "container gone" : "exit code " + exitCode;
    }

    @Override
    public void terminate(Duration grace) {
        if (container.getContainerId() != null) {
            try {
                client().stopContainerCmd(container.getContainerId()).withTimeout((int) grace.toSeconds()).exec();
            } catch (RuntimeException e) {
                // already stopped
            }
        }
        container.stop();
    }

    @Override
    public void kill() {
        if (container.getContainerId() != null) {
            try {
                client().killContainerCmd(container.getContainerId()).exec();
            } catch (RuntimeException e) {
                // already dead
            }
        }
        container.stop();
    }

    @Override
    public String toString() {
        return "container " + container.getContainerId() + " (" + container.getDockerImageName() + ")";
    }

    private DockerClient client() {
        return container.getDockerClient();
    }

    private static void append(Path output, String text) {
        try {
            Files.writeString(output, text, StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        } catch (IOException e) {
            // container output is only for failure messages
        }
    }
}
