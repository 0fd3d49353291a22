package dev.guard.examples.stack;

import dev.guard.queue.redis.WorkerRedis;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import com.rabbitmq.client.MessageProperties;
import dev.guard.config.Redaction;
import dev.guard.testing.coldstart.StackContract;
import dev.failsafe.Failsafe;
import dev.failsafe.RetryPolicy;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The example backend: waits for Redis (and the broker), populates Redis (a few seconds of work),
 * sets the {@value StackContract#READY_MARKER_KEY} marker, writes the job manifest, then
 * enqueues the jobs as the producer would, some with schema skew. Exits 0 when all are enqueued.
 *
 * <p>Reads {@code REDIS_URL}, {@code JOB_BROKER}, {@code AMQP_URL}, {@code JOB_QUEUE},
 * {@code JOB_COUNT}, {@code JOB_SKEWED}, {@code RUN_ID}, {@code JOB_MANIFEST},
 * {@code BACKEND_POPULATE_MS} (see {@link StackContract}).
 */
public final class Backend {
  private static final Logger LOG = LoggerFactory.getLogger("backend");
  private static final Duration CONNECT_BUDGET = Duration.ofSeconds(60);

  private Backend() {}

  /** Runs the backend on the process environment. */
  public static void main(String[] args) {
    WorkerRedis.shortDnsCache(); // before any lookup
    System.exit(run(System.getenv()));
  }

  /** Runs the backend on {@code env}; returns the exit code. */
  public static int run(Map<String, String> env) {
    String redisUrl = env.get(StackContract.REDIS_URL);
    if (redisUrl == null || redisUrl.isBlank()) {
      LOG.error("REDIS_URL is not set: the backend needs the Redis it populates. Set REDIS_URL=redis://host:port");
      return 78;
    }
    String queue = env.getOrDefault(StackContract.JOB_QUEUE, "jobs");
    String broker = env.getOrDefault(StackContract.JOB_BROKER, "redis");
    int count = Integer.parseInt(env.getOrDefault(StackContract.JOB_COUNT, "100"));
    int skewed = Integer.parseInt(env.getOrDefault(StackContract.JOB_SKEWED, "3"));
    String runId = env.getOrDefault(StackContract.RUN_ID, "run");
    long populateMs = Long.parseLong(env.getOrDefault(StackContract.BACKEND_POPULATE_MS, "1500"));
    String manifest = env.get(StackContract.JOB_MANIFEST);

    LOG.info("backend starting: redis {} broker {} queue {}", Redaction.maskText(redisUrl), broker, queue);
    WorkerRedis stackRedis = WorkerRedis.create(redisUrl);
    RedisClient client = stackRedis.client();
    try (StatefulRedisConnection<String, String> connection = connectWhenReady(client, redisUrl)) {
      RedisCommands<String, String> redis = connection.sync();
      populate(redis, populateMs);
      long readyAt = System.currentTimeMillis();
      redis.set(StackContract.READY_MARKER_KEY, Long.toString(readyAt));
      LOG.info("ready marker set at {}", readyAt);

      List<ThumbnailJobs.Job> jobs = ThumbnailJobs.generate(runId, count, skewed);
      if (manifest != null) {
        writeManifest(Path.of(manifest), jobs);
      }
      if ("amqp".equals(broker)) {
        publishAmqp(env.get(StackContract.AMQP_URL), queue, jobs);
      } else if ("kafka".equals(broker)) {
        publishKafka(env.get(StackContract.KAFKA_URL), queue, jobs);
      } else if ("jetstream".equals(broker)) {
        publishJetStream(env.get(StackContract.NATS_URL), env.get(StackContract.JOB_STREAM), queue, jobs);
      } else {
        for (ThumbnailJobs.Job job : jobs) {
          redis.lpush(queue, job.json());
        }
      }
      long skewedCount = jobs.stream().filter(j -> j.skew() != ThumbnailJobs.Skew.NONE).count();
      LOG.info("enqueued {} jobs to {} {} ({} with schema skew)", jobs.size(), broker, queue, skewedCount);
      return 0;
    } catch (Exception e) {
      LOG.error("backend failed: {}", Redaction.maskText(String.valueOf(e)), e);
      return 70;
    } finally {
      stackRedis.close();
    }
  }

  /** Retries connect + PING until Redis answers PONG (not refused, not LOADING). */
  private static StatefulRedisConnection<String, String> connectWhenReady(RedisClient client, String url) {
    RetryPolicy<Object> retry = RetryPolicy.builder()
        .handle(Exception.class)
        .withBackoff(Duration.ofMillis(50), Duration.ofMillis(500))
        .withMaxDuration(CONNECT_BUDGET)
        .withMaxRetries(-1)
        .onRetry(e -> {
          if (e.getAttemptCount() == 1 || e.getAttemptCount() % 10 == 0) {
            LOG.info("waiting for redis {}: {}", Redaction.maskText(url),
                Redaction.maskText(String.valueOf(e.getLastException().getMessage())));
          }
        })
        .build();
    return Failsafe.with(retry).get(() -> {
      StatefulRedisConnection<String, String> c = client.connect();
      try {
        c.sync().ping();
        return c;
      } catch (RuntimeException e) {
        c.close();
        throw e;
      }
    });
  }

  /** A few seconds of work: writes cache entries in batches, as a real backend warms a cache. */
  private static void populate(RedisCommands<String, String> redis, long populateMs) throws InterruptedException {
    long started = System.nanoTime();
    int batches = 10;
    for (int b = 0; b < batches; b++) {
      Map<String, String> entries = new HashMap<>();
      for (int i = 0; i < 100; i++) {
        entries.put("cache:item:" + (b * 100 + i), "v" + i);
      }
      redis.mset(entries);
      Thread.sleep(populateMs / batches);
    }
    LOG.info("populated redis: 1000 cache entries in {} ms", (System.nanoTime() - started) / 1_000_000);
  }

  private static void writeManifest(Path file, List<ThumbnailJobs.Job> jobs) throws IOException {
    StringBuilder out = new StringBuilder();
    for (ThumbnailJobs.Job job : jobs) {
      out.append(job.id()).append(' ').append(job.skew().label()).append('\n');
    }
    Files.createDirectories(file.toAbsolutePath().getParent());
    Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
    Files.writeString(tmp, out.toString(), StandardCharsets.UTF_8);
    Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
  }

  /**
   * Publishes to a JetStream subject, each publish acknowledged by the stream; declares the stream
   * (the subject and its dead-letter subject, as guard's NatsQueue does) unless the worker did first.
   */
  private static void publishJetStream(String natsUrl, String stream, String subject, List<ThumbnailJobs.Job> jobs)
      throws Exception {
    if (natsUrl == null || natsUrl.isBlank() || stream == null || stream.isBlank()) {
      throw new IllegalStateException("JOB_BROKER=jetstream but NATS_URL or JOB_STREAM is not set");
    }
    io.nats.client.Options options = new io.nats.client.Options.Builder().server(natsUrl)
        .connectionTimeout(Duration.ofSeconds(2)).maxReconnects(0).build();
    RetryPolicy<Object> retry = RetryPolicy.builder()
        .handle(Exception.class)
        .withBackoff(Duration.ofMillis(50), Duration.ofMillis(500))
        .withMaxDuration(CONNECT_BUDGET)
        .withMaxRetries(-1)
        .onRetry(e -> LOG.info("waiting for nats {}: {}", Redaction.maskText(natsUrl),
            Redaction.maskText(String.valueOf(e.getLastException()))))
        .build();
    try (io.nats.client.Connection connection = Failsafe.with(retry).get(() -> {
      io.nats.client.Connection c = io.nats.client.Nats.connect(options);
      try {
        declareStream(c, stream, subject); // JetStream still recovering answers 503: retried too
        return c;
      } catch (Exception e) {
        c.close();
        throw e;
      }
    })) {
      io.nats.client.JetStream js = connection.jetStream();
      for (ThumbnailJobs.Job job : jobs) {
        js.publish(io.nats.client.impl.NatsMessage.builder().subject(subject)
            .headers(new io.nats.client.impl.Headers().add("Nats-Msg-Id", job.id()))
            .data(job.json().getBytes(StandardCharsets.UTF_8)).build());
      }
    }
  }

  /**
   * Produces to a Kafka topic (created by the broker on first use), every send acknowledged by all
   * replicas; a broker that is not up yet is waited for by the producer itself (max.block.ms).
   */
  private static void publishKafka(String kafkaUrl, String topic, List<ThumbnailJobs.Job> jobs) throws Exception {
    if (kafkaUrl == null || kafkaUrl.isBlank()) {
      throw new IllegalStateException("JOB_BROKER=kafka but KAFKA_URL is not set");
    }
    Map<String, Object> config = Map.of(
        "bootstrap.servers", kafkaUrl.replaceFirst("^kafka://", ""),
        "acks", "all",
        "enable.idempotence", true,
        "max.block.ms", (int) CONNECT_BUDGET.toMillis(),
        "delivery.timeout.ms", (int) CONNECT_BUDGET.toMillis());
    try (org.apache.kafka.clients.producer.KafkaProducer<String, String> producer =
        new org.apache.kafka.clients.producer.KafkaProducer<>(config,
            new org.apache.kafka.common.serialization.StringSerializer(),
            new org.apache.kafka.common.serialization.StringSerializer())) {
      List<java.util.concurrent.Future<org.apache.kafka.clients.producer.RecordMetadata>> sent = new java.util.ArrayList<>();
      for (ThumbnailJobs.Job job : jobs) {
        sent.add(producer.send(new org.apache.kafka.clients.producer.ProducerRecord<>(topic, job.id(), job.json())));
      }
      producer.flush();
      for (java.util.concurrent.Future<org.apache.kafka.clients.producer.RecordMetadata> f : sent) {
        f.get(); // a send that failed fails the backend, with the reason
      }
    }
  }

  private static void declareStream(io.nats.client.Connection connection, String stream, String subject)
      throws Exception {
    io.nats.client.JetStreamManagement jsm = connection.jetStreamManagement();
    if (!jsm.getStreamNames().contains(stream)) {
      try {
        jsm.addStream(io.nats.client.api.StreamConfiguration.builder().name(stream)
            .subjects(subject, subject + ".dead").build());
      } catch (io.nats.client.JetStreamApiException e) {
        if (!jsm.getStreamNames().contains(stream)) {
          throw e; // not the worker's declare winning the race
        }
      }
    }
  }

  private static void publishAmqp(String amqpUrl, String queue, List<ThumbnailJobs.Job> jobs) throws Exception {
    if (amqpUrl == null || amqpUrl.isBlank()) {
      throw new IllegalStateException("JOB_BROKER=amqp but AMQP_URL is not set");
    }
    ConnectionFactory factory = new ConnectionFactory();
    factory.setUri(amqpUrl);
    factory.setAutomaticRecoveryEnabled(false);
    RetryPolicy<Object> retry = RetryPolicy.builder()
        .handle(Exception.class)
        .withBackoff(Duration.ofMillis(50), Duration.ofMillis(500))
        .withMaxDuration(CONNECT_BUDGET)
        .withMaxRetries(-1)
        .onRetry(e -> LOG.info("waiting for amqp {}: {}", Redaction.maskText(amqpUrl),
            String.valueOf(e.getLastException())))
        .build();
    try (Connection connection = Failsafe.with(retry).get(() -> factory.newConnection("backend"));
        Channel channel = connection.createChannel()) {
      channel.queueDeclare(queue, true, false, false, null);
      channel.confirmSelect();
      for (ThumbnailJobs.Job job : jobs) {
        channel.basicPublish("", queue, MessageProperties.PERSISTENT_TEXT_PLAIN,
            job.json().getBytes(StandardCharsets.UTF_8));
      }
      channel.waitForConfirmsOrDie(10_000);
    }
  }
}
