package dev.guard.testing.coldstart;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.command.InspectContainerResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.startupcheck.StartupCheckStrategy;
import org.testcontainers.containers.wait.strategy.AbstractWaitStrategy;
import org.testcontainers.utility.DockerImageName;

/**
 * A part of the stack that is a container ({@link ProcessSpec#container}): started through
 * Testcontainers on the host's network with the run's variables, its output appended to its log,
 * stopped with the engine's stop (SIGTERM, SIGKILL after 10 s). Only this class touches
 * Testcontainers for the stack's parts: a run of processes never loads it.
 */
final class ContainerPart implements Part {
  private static final int STOP_SECONDS = 10;

  private final GenericContainer<?> container;
  private final String id;
  private volatile Integer exit;

  private ContainerPart(GenericContainer<?> container) {
    this.container = container;
    this.id = container.getContainerId();
  }

  /** Starts {@code spec}'s image with the contract's variables and its own (which may name the contract's). */
  @SuppressWarnings("resource") // stopped by stop()
  static ContainerPart start(ProcessSpec spec, Map<String, String> contract, Path log) {
    Map<String, String> env = new LinkedHashMap<>(contract);
    spec.env().forEach((k, v) -> env.put(k, ChildProcesses.substitute(v, contract)));
    GenericContainer<?> container = new GenericContainer<>(DockerImageName.parse(spec.image().orElseThrow()))
        .withNetworkMode("host")
        .withEnv(env)
        .withLogConsumer(frame -> append(log, frame.getUtf8String()))
        // started is enough: a worker that exits at once (a config error) is the run's to report
        .withStartupCheckStrategy(new StartupCheckStrategy() {
          @Override
          public StartupStatus checkStartupState(DockerClient client, String containerId) {
            return StartupStatus.SUCCESSFUL;
          }
        })
        .waitingFor(new AbstractWaitStrategy() {
          @Override
          protected void waitUntilReady() {
            // the harness watches the stack's outcomes, not a port
          }
        });
    if (!spec.commandLine().isEmpty()) {
      container.withCommand(spec.commandLine().toArray(String[]::new));
    }
    try {
      container.start();
    } catch (RuntimeException e) {
      throw new IllegalStateException("could not start " + spec + ": " + e.getMessage() + " (is the image on the "
          + "engine? podman load -i <image tar>, or podman images)", e);
    }
    return new ContainerPart(container);
  }

  @Override
  public boolean isAlive() {
    if (exit != null) {
      return false;
    }
    try {
      InspectContainerResponse.ContainerState state = client().inspectContainerCmd(id).exec().getState();
      if (Boolean.TRUE.equals(state.getRunning())) {
        return true;
      }
      Long code = state.getExitCodeLong();
      exit = code == null ? -1 : code.intValue();
    } catch (RuntimeException e) {
      exit = -1; // gone
    }
    return false;
  }

  @Override
  public Optional<Integer> exit() {
    return isAlive() ? Optional.empty() : Optional.of(exit);
  }

  @Override
  public String describe() {
    return "container " + id.substring(0, Math.min(12, id.length()));
  }

  @Override
  public void stop(String name, Consumer<String> say) {
    if (isAlive()) {
      try {
        client().stopContainerCmd(id).withTimeout(STOP_SECONDS).exec();
      } catch (RuntimeException e) {
        say.accept(name + ": the engine's stop failed (" + e.getMessage() + "); removing the container");
      }
      isAlive(); // records the exit code before the container is removed
    }
    container.stop();
  }

  private DockerClient client() {
    return container.getDockerClient();
  }

  private static void append(Path log, String text) {
    try {
      Files.writeString(log, text, StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
    } catch (IOException e) {
      // the container's output is for the run's log only
    }
  }
}
