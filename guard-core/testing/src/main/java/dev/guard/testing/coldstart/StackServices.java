package dev.guard.testing.coldstart;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.function.Consumer;

/**
 * Where the stack's servers come from: local child processes (the fixtures: a private
 * {@code redis-server}, a TCP proxy in front of the machine's RabbitMQ) or Testcontainers
 * containers. {@link #auto} picks local processes where {@code redis-server} is installed,
 * containers where it is not and a Docker engine answers, and says which; system property
 * {@value #PROPERTY} = {@code local} or {@code containers} forces one.
 *
 * <p>Each server's address is fixed before it starts, so a worker started first really meets a
 * refused connection, then (Redis) {@code LOADING}, then a ready server.
 */
public interface StackServices extends AutoCloseable {

  /** Redis with a dataset it takes seconds to load; one instance reused across runs. */
  RedisHandle redis();

  /** The broker of that kind (not {@link JobBroker#REDIS_LIST}), unreachable until {@link BrokerHandle#start()}. */
  BrokerHandle broker(JobBroker kind);

  /** A one-line description for the narration ("local redis-server processes", ...). */
  String describe();

  /** Stops everything and deletes temp dirs. Idempotent. */
  @Override
  void close();

  /** Forces a path: {@code local}, {@code containers} or {@code auto} (the default). */
  String PROPERTY = "guard.stack.services";

  /**
   * Local processes where {@code redis-server} is installed, else containers where a Docker engine
   * answers; {@value #PROPERTY} forces either. Tells {@code say} which path and why; throws naming
   * what to provide when the chosen path cannot run.
   */
  static StackServices auto(int redisPreloadKeys, Consumer<String> say) {
    String forced = System.getProperty(PROPERTY, "auto").trim().toLowerCase(java.util.Locale.ROOT);
    boolean localRedis = dev.guard.testing.Children.findBinary("redis-server").isPresent();
    switch (forced) {
      case "local" -> {
        say.accept("servers: local processes (" + PROPERTY + "=local)");
        return new LocalServices(redisPreloadKeys);
      }
      case "containers" -> {
        ContainerServices.requireEngine(PROPERTY + "=containers");
        say.accept("servers: Testcontainers containers (" + PROPERTY + "=containers): " + ContainerServices.images());
        return new ContainerServices(redisPreloadKeys);
      }
      case "auto" -> {
        if (localRedis) {
          say.accept("servers: local processes (redis-server is installed; -D" + PROPERTY + "=containers for containers)");
          return new LocalServices(redisPreloadKeys);
        }
        ContainerServices.requireEngine("no local redis-server");
        say.accept("servers: Testcontainers containers (no local redis-server, a Docker engine answers): "
            + ContainerServices.images());
        return new ContainerServices(redisPreloadKeys);
      }
      default -> throw new IllegalArgumentException(PROPERTY + "=" + forced + ": expected local, containers or auto");
    }
  }

  /** Local processes (the fixtures in {@code dev.guard.testing}). */
  static StackServices local(int redisPreloadKeys) {
    return new LocalServices(redisPreloadKeys);
  }

  /** A Redis whose address is known before it starts. */
  interface RedisHandle {
    /** {@code redis://host:port} (no password), valid before {@link #start()}. */
    String uri();

    /** Writes the dataset it will load; called once, before the first run and any stack process. */
    void prepare();

    /** Starts it from its on-disk dataset; returns once it answers (LOADING). */
    void start();

    /** When {@link #start()} first saw a {@code LOADING} reply. */
    Instant loadingObservedAt();

    /** Waits until it answers PONG; returns when loading ended. */
    Instant awaitLoaded(Duration max);

    /** Stops it (nothing persisted: the next start loads the same dataset again). */
    void stop();

    /** Its log, for a failed run's directory; null if none. */
    Path logFile();
  }

  /** A broker whose address is known before it "starts" (accepts connections). */
  interface BrokerHandle {
    /** {@code amqp://user:pass@host:port}, {@code nats://host:port}, valid before {@link #start()}. */
    String uri();

    /** The run variable that carries {@link #uri()} ({@link StackContract#AMQP_URL}, {@code NATS_URL}). */
    String variable();

    /** From now on connections reach the broker; returns once they do. */
    void start();

    /**
     * True for a broker whose start takes seconds by nature (a Kafka broker JVM): the run starts it
     * on its own thread and goes on with the order meanwhile. False (the default): the order waits
     * for it, as it does for Redis.
     */
    default boolean startsSlowly() {
      return false;
    }

    /** Connections are refused again. */
    void stop();

    /** Deletes what the run left on a shared broker (its queues); nothing for a private one. */
    void cleanUp(String queue);
  }
}
