package dev.guard.testing.coldstart;

import dev.guard.testing.FreePorts;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.FixedHostPortGenericContainer;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.wait.strategy.Wait;
import org.testcontainers.utility.MountableFile;

/**
 * Testcontainers path: Redis and RabbitMQ in containers on host ports fixed before they start
 * (so a worker started first meets a refused port). Chosen by {@link StackServices#auto} where no
 * local redis-server is installed and a Docker engine answers, or forced; run in CI by
 * ContainerColdStartIT against the engine of .ci/engine. Same guarantees as the local path: a
 * start returns only once a real {@code -LOADING} reply was seen, and the server's log is kept.
 *
 * <p>The images are the ones compose/docker-compose.yml names (the official images where a
 * registry is reachable, compose/standins/build.sh's where not).
 */
final class ContainerServices implements StackServices {
  static final String REDIS_IMAGE = "redis:7.0.15";
  static final String RABBIT_IMAGE = "rabbitmq:3.10.8";

  private final int preloadKeys;
  private ContainerRedis redis;
  private ContainerBroker broker;
  private JetStreamBroker jetStream;
  private KafkaBrokerHandle kafka;

  ContainerServices(int preloadKeys) {
    this.preloadKeys = preloadKeys;
  }

  static String images() {
    return REDIS_IMAGE + ", " + RABBIT_IMAGE;
  }

  /** Throws, saying how to provide one, unless a Docker engine answers ({@code why}: what chose this path). */
  static void requireEngine(String why) {
    if (!dockerAvailable()) {
      throw new IllegalStateException("the cold-start servers are to run in containers (" + why + "), but no Docker "
          + "engine answers Testcontainers. Provide one: .ci/engine (podman; then DOCKER_HOST=unix:///run/podman/podman.sock "
          + "TESTCONTAINERS_RYUK_DISABLED=true TESTCONTAINERS_HOST_OVERRIDE=localhost), or install redis-server and "
          + "use -D" + StackServices.PROPERTY + "=local");
    }
  }

  /** True if a Docker engine answers (Testcontainers' own check); false on any error. */
  static boolean dockerAvailable() {
    String host = System.getenv("DOCKER_HOST");
    if ((host == null || host.isBlank()) && !java.nio.file.Files.exists(Path.of("/var/run/docker.sock"))
        && !java.nio.file.Files.exists(Path.of(System.getProperty("user.home"), ".testcontainers.properties"))) {
      return false; // no engine to ask: skip Testcontainers' own probe and its error log
    }
    try {
      return DockerClientFactory.instance().isDockerAvailable();
    } catch (Throwable e) {
      return false;
    }
  }

  @Override
  public synchronized RedisHandle redis() {
    if (redis == null) {
      redis = new ContainerRedis(FreePorts.next(), preloadKeys);
    }
    return redis;
  }

  @Override
  public synchronized BrokerHandle broker(JobBroker kind) {
    return switch (kind) {
      case AMQP -> {
        if (broker == null) {
          broker = new ContainerBroker(FreePorts.next());
        }
        yield broker;
      }
      // the NATS fixture runs in a container itself where no nats-server is installed
      case JETSTREAM -> {
        if (jetStream == null) {
          jetStream = new JetStreamBroker();
        }
        yield jetStream;
      }
      // a KRaft broker JVM from the class path's Kafka jars, in both paths
      case KAFKA -> {
        if (kafka == null) {
          kafka = new KafkaBrokerHandle();
        }
        yield kafka;
      }
      case REDIS_LIST -> throw new IllegalArgumentException("a Redis list is carried by the run's Redis, not a broker");
    };
  }

  @Override
  public String describe() {
    return "Testcontainers containers (" + REDIS_IMAGE + ", " + RABBIT_IMAGE + ")";
  }

  @Override
  public synchronized void close() {
    if (redis != null) {
      redis.stop();
      redis.deleteFiles();
    }
    if (broker != null) {
      broker.stop();
    }
    if (jetStream != null) {
      jetStream.close();
    }
    if (kafka != null) {
      kafka.close();
    }
  }

  /**
   * From the container's port listening to its first reply (LOADING or PONG): milliseconds on an
   * idle machine, seconds when a 2-core machine is busy; only a Redis that never answers waits
   * this long.
   */
  private static final Duration FIRST_REPLY_BOUND = Duration.ofSeconds(60);

  private static final class ContainerRedis implements RedisHandle {
    private final int port;
    private final int preloadKeys;
    private Path dataset;
    private GenericContainer<?> container;
    private Instant loadingObservedAt;
    private Path logFile;

    ContainerRedis(int port, int preloadKeys) {
      this.port = port;
      this.preloadKeys = preloadKeys;
    }

    @Override
    public String uri() {
      return "redis://127.0.0.1:" + port;
    }

    @Override
    public synchronized void prepare() {
      if (dataset != null) {
        return;
      }
      try (GenericContainer<?> seed = new GenericContainer<>(REDIS_IMAGE)
          .withCommand("redis-server", "--save", "", "--appendonly", "no", "--enable-debug-command", "yes")
          .withExposedPorts(6379)
          .waitingFor(Wait.forListeningPort())) {
        seed.start();
        String host = seed.getHost();
        int mapped = seed.getMappedPort(6379);
        expectOk(call(host, mapped, 60_000, "DEBUG", "POPULATE", Integer.toString(preloadKeys), "guard:preload", "16"),
            "DEBUG POPULATE " + preloadKeys);
        expectOk(call(host, mapped, 60_000, "SAVE"), "SAVE");
        Path file = Files.createTempFile("coldstart-dump-", ".rdb");
        seed.copyFileFromContainer("/data/dump.rdb", file.toString());
        dataset = file;
      } catch (IOException e) {
        throw new UncheckedIOException("could not prepare the Redis dataset in a container", e);
      }
    }

    @Override
    @SuppressWarnings({"resource", "deprecation"})
    public synchronized void start() {
      loadingObservedAt = null;
      container = new FixedHostPortGenericContainer<>(REDIS_IMAGE)
          .withFixedExposedPort(port, 6379)
          .withCopyFileToContainer(MountableFile.forHostPath(dataset), "/data/dump.rdb")
          .withCommand("redis-server", "--dir", "/data", "--save", "", "--appendonly", "no",
              // 150 us a key: about 3 s of loading for the default 20,000 keys, as the local path's;
              // at 20 us (0.4 s) two stress CI runs saw the container answer PONG before its first
              // LOADING reply could be seen (the port forward came up after the load)
              "--key-load-delay", "150", "--loading-process-events-interval-bytes", "1024")
          .withLogConsumer(frame -> appendLog(frame.getUtf8String()))
          .waitingFor(Wait.forListeningPort());
      container.start();
      long deadline = System.nanoTime() + FIRST_REPLY_BOUND.toNanos();
      while (System.nanoTime() < deadline) {
        String reply = ping();
        if (reply.startsWith("-LOADING")) {
          loadingObservedAt = Instant.now();
          return;
        }
        if (reply.startsWith("+PONG")) {
          // as the local path: a start that saw no LOADING phase is not the cold start it claims to be
          throw new IllegalStateException("Redis container on port " + port + " answered PONG before any LOADING reply: "
              + "its " + preloadKeys + " keys loaded before the first PING; raise the preload, or check the container's "
              + "log " + logFile);
        }
        sleep(5);
      }
      throw new IllegalStateException("Redis container on port " + port + " never answered PING within "
          + FIRST_REPLY_BOUND.toSeconds() + " s of its port listening; container logs: " + container.getLogs());
    }

    @Override
    public synchronized Instant loadingObservedAt() {
      return loadingObservedAt;
    }

    @Override
    public Instant awaitLoaded(Duration max) {
      long deadline = System.nanoTime() + max.toNanos();
      while (System.nanoTime() < deadline) {
        if (ping().startsWith("+PONG")) {
          return Instant.now();
        }
        sleep(20);
      }
      throw new IllegalStateException("Redis container on port " + port + " still not answering PONG after " + max);
    }

    @Override
    public synchronized void stop() {
      if (container != null) {
        container.stop();
        container = null;
      }
    }

    synchronized void deleteFiles() {
      for (Path p : new Path[] {dataset, logFile}) {
        try {
          if (p != null) {
            Files.deleteIfExists(p);
          }
        } catch (IOException e) {
          // a temp file left behind
        }
      }
    }

    @Override
    public synchronized Path logFile() {
      return logFile;
    }

    private void appendLog(String text) {
      try {
        synchronized (this) {
          if (logFile == null) {
            logFile = Files.createTempFile("coldstart-redis-container-", ".log");
          }
        }
        Files.writeString(logFile, text, StandardCharsets.UTF_8, java.nio.file.StandardOpenOption.APPEND);
      } catch (IOException e) {
        // the log is for a failed run's directory; the run itself does not depend on it
      }
    }

    private String ping() {
      try {
        return call("127.0.0.1", port, 1000, "PING");
      } catch (IOException e) {
        return e.toString();
      }
    }
  }

  private static final class ContainerBroker implements BrokerHandle {
    private final int port;
    private GenericContainer<?> container;

    ContainerBroker(int port) {
      this.port = port;
    }

    @Override
    public String uri() {
      return "amqp://guest:guest@127.0.0.1:" + port;
    }

    @Override
    @SuppressWarnings({"resource", "deprecation"})
    public synchronized void start() {
      container = new FixedHostPortGenericContainer<>(RABBIT_IMAGE)
          .withFixedExposedPort(port, 5672)
          .waitingFor(Wait.forLogMessage(".*Server startup complete.*", 1));
      container.start();
    }

    @Override
    public synchronized void stop() {
      if (container != null) {
        container.stop();
        container = null;
      }
    }

    @Override
    public String variable() {
      return StackContract.AMQP_URL;
    }

    @Override
    public synchronized void cleanUp(String queue) {
      if (container != null) {
        AmqpQueues.delete(uri(), queue, queue + StackContract.DEAD_SUFFIX);
      }
    }
  }

  private static void expectOk(String reply, String command) {
    if (!reply.startsWith("+OK")) {
      throw new IllegalStateException("preparing the Redis dataset in a container: " + command + " answered '" + reply
          + "' (expected +OK)");
    }
  }

  /** One RESP command on a fresh connection; returns the first reply line. */
  static String call(String host, int port, int timeoutMillis, String... command) throws IOException {
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress(host, port), timeoutMillis);
      socket.setSoTimeout(timeoutMillis);
      StringBuilder out = new StringBuilder("*").append(command.length).append("\r\n");
      for (String part : command) {
        out.append('$').append(part.getBytes(StandardCharsets.UTF_8).length).append("\r\n").append(part).append("\r\n");
      }
      OutputStream os = socket.getOutputStream();
      os.write(out.toString().getBytes(StandardCharsets.UTF_8));
      os.flush();
      InputStream in = socket.getInputStream();
      StringBuilder line = new StringBuilder();
      int c;
      while ((c = in.read()) != -1 && c != '\n') {
        if (c != '\r') {
          line.append((char) c);
        }
      }
      return line.toString();
    }
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    }
  }
}
