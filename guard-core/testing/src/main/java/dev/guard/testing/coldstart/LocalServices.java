package dev.guard.testing.coldstart;

import dev.guard.testing.MachineServices;
import dev.guard.testing.RedisServer;
import dev.guard.testing.TcpProxy;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;

/** Local child processes: a private loading {@code redis-server}, a TCP proxy to the machine's RabbitMQ. */
final class LocalServices implements StackServices {
  private final int preloadKeys;
  private LocalRedis redis;
  private LocalBroker broker;
  private JetStreamBroker jetStream;
  private KafkaBrokerHandle kafka;

  LocalServices(int preloadKeys) {
    this.preloadKeys = preloadKeys;
  }

  @Override
  public synchronized RedisHandle redis() {
    if (redis == null) {
      redis = new LocalRedis(RedisServer.builder().preloadKeys(preloadKeys).build());
    }
    return redis;
  }

  @Override
  public synchronized BrokerHandle broker(JobBroker kind) {
    return switch (kind) {
      case AMQP -> {
        if (broker == null) {
          broker = new LocalBroker(MachineServices.amqpUri());
        }
        yield broker;
      }
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
    return "local processes (a private redis-server; the machine's RabbitMQ behind a TCP proxy; a private "
        + "nats-server for JetStream)";
  }

  @Override
  public synchronized void close() {
    if (redis != null) {
      redis.server.close();
    }
    if (broker != null) {
      broker.proxy.close();
    }
    if (jetStream != null) {
      jetStream.close();
    }
    if (kafka != null) {
      kafka.close();
    }
  }

  private static final class LocalRedis implements RedisHandle {
    private final RedisServer server;
    private boolean prepared;

    LocalRedis(RedisServer server) {
      this.server = server;
    }

    @Override
    public String uri() {
      return server.uri();
    }

    @Override
    public synchronized void start() {
      if (!prepared) {
        throw new IllegalStateException("prepare() the dataset before the first run");
      }
      server.restart();
    }

    /** Writes the dataset once (preload, SAVE, one load), then stops the server. */
    @Override
    public synchronized void prepare() {
      if (!prepared) {
        server.startLoading();
        server.stop();
        prepared = true;
      }
    }

    @Override
    public Instant loadingObservedAt() {
      return server.loadingObservedAt();
    }

    @Override
    public Instant awaitLoaded(Duration max) {
      return server.awaitLoaded(max);
    }

    @Override
    public void stop() {
      server.stop();
    }

    @Override
    public Path logFile() {
      return server.logFile();
    }
  }

  private static final class LocalBroker implements BrokerHandle {
    private final String realUri;
    private final TcpProxy proxy;
    private final String proxiedUri;

    LocalBroker(String realUri) {
      this.realUri = realUri;
      URI parsed = URI.create(realUri);
      int port = parsed.getPort() < 0 ? 5672 : parsed.getPort();
      this.proxy = TcpProxy.forward(parsed.getHost(), port);
      this.proxy.mode(TcpProxy.Mode.REFUSE);
      String userInfo = parsed.getRawUserInfo() == null ? "" : parsed.getRawUserInfo() + "@";
      String path = parsed.getRawPath() == null ? "" : parsed.getRawPath();
      this.proxiedUri = "amqp://" + userInfo + proxy.host() + ":" + proxy.port() + path;
    }

    @Override
    public String uri() {
      return proxiedUri;
    }

    @Override
    public void start() {
      proxy.mode(TcpProxy.Mode.FORWARD);
    }

    @Override
    public void stop() {
      proxy.mode(TcpProxy.Mode.REFUSE);
    }

    @Override
    public String variable() {
      return StackContract.AMQP_URL;
    }

    @Override
    public void cleanUp(String queue) {
      AmqpQueues.delete(realUri, queue, queue + StackContract.DEAD_SUFFIX);
    }
  }
}
