package dev.guard.examples.stack;

import dev.guard.queue.redis.WorkerRedis;
import dev.guard.drain.HealthEndpoints;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import dev.failsafe.Failsafe;
import dev.failsafe.RetryPolicy;
import dev.guard.ExitCodes;
import dev.guard.config.Redaction;
import dev.guard.config.SettingType;
import dev.guard.drain.Drain;
import dev.guard.drain.ForwardingJobSource;
import dev.guard.testing.coldstart.StackContract;
import dev.guard.queue.amqp.AmqpJob;
import dev.guard.queue.amqp.AmqpQueue;
import dev.guard.queue.kafka.KafkaJob;
import dev.guard.queue.kafka.KafkaQueue;
import dev.guard.queue.nats.NatsJob;
import dev.guard.queue.nats.NatsQueue;
import dev.guard.queue.redis.CrashSafeListQueue;
import dev.guard.queue.redis.RedisJob;
import dev.guard.schema.Accepted;
import dev.guard.schema.boundary.Ledger;
import dev.guard.schema.Outcome;
import dev.guard.schema.SourceInfo;
import dev.guard.schema.deadletter.DeadLetterSink;
import dev.guard.schema.deadletter.amqp.AmqpDeadLetters;
import dev.guard.schema.deadletter.kafka.KafkaDeadLetters;
import dev.guard.schema.deadletter.nats.NatsDeadLetters;
import dev.guard.schema.deadletter.redis.RedisListDeadLetters;
import dev.guard.worker.Guard;
import dev.guard.worker.GuardSpec;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisException;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The example worker, guarded end to end by one {@link Guard#boot} call in {@link #main}:
 *
 * <ol>
 *   <li><b>config guard</b> on {@code REDIS_URL} (and {@code AMQP_URL} on the RabbitMQ variant,
 *       {@code NATS_URL} on the JetStream one, {@code KAFKA_URL} on the Kafka one):
 *       missing, placeholder, loopback (unless {@code GUARD_ALLOW_LOOPBACK=true}, for a stack on
 *       one machine) and name drift ({@code CACHE_URL} set instead) stop it before any
 *       connection, exit 78; so does a shell as PID 1 that would keep SIGTERM from it;
 *   <li><b>schema self-test</b> of {@code schemas/thumbnail.schema.json} against an example;
 *   <li><b>drain</b>: from here on SIGTERM only stops the fetching; the job in hand is finished or
 *       handed back within {@code GUARD_GRACE_PERIOD} minus {@code GUARD_SAFETY_MARGIN};
 *   <li><b>readiness gate</b>: waits through refused, {@code LOADING} and a missing
 *       {@value StackContract#READY_MARKER_KEY} marker until Redis (and RabbitMQ or NATS) serve, one log
 *       line per state change, exit 69 at the deadline, 143 on SIGTERM while waiting;
 *   <li><b>the boundary</b>: every payload is checked against the schema; a skewed one is
 *       dead-lettered with its reason (Redis list or AMQP queue {@code <queue>:dead}, JetStream
 *       subject {@code <subject>.dead}) and logged,
 *       never swallowed; the ledger gives every received job exactly one outcome;
 *   <li><b>crash-safe fetch</b>: guard's {@code CrashSafeListQueue} (BLMOVE into a leased processing
 *       list, LREM after the outcome, a reaper for dead workers' jobs) on Redis; guard's
 *       {@code AmqpQueue} (manual ack after the outcome, counted hand-backs) on RabbitMQ; guard's
 *       {@code NatsQueue} (a durable pull consumer, explicit ack after the outcome) on JetStream;
 *       guard's {@code KafkaQueue} (offsets committed after the outcome) on Kafka. Results
 *       are written idempotently (HSET by id).
 * </ol>
 *
 * <p>Prints {@code job <id> received}, {@code job <id> processed},
 * {@code job <id> rejected: <reason>}, {@code job <id> failed: <reason>}; stops after
 * {@code WORKER_IDLE_EXIT_MS} without a job, or on SIGTERM, printing the ledger's summary and the
 * drain receipt; exits 0 after a clean drain (the codes: {@link ExitCodes}).
 * {@code READY_DEADLINE_S} bounds the readiness wait (default 60); {@code JOB_WORK_MS} is the time
 * each accepted job takes (default 0); {@code HEALTH_PORT} serves the probe endpoints
 * ({@link HealthEndpoints}).
 */
public final class GuardedWorker {
  /** Set to {@code true} to accept loopback URLs (a stack on one machine, as the demo runs it). */
  public static final String ALLOW_LOOPBACK = "GUARD_ALLOW_LOOPBACK";
  /** Port of the probe endpoints /readyz and /livez ({@link HealthEndpoints}); unset: none. */
  public static final String HEALTH_PORT = "HEALTH_PORT";
  /** /livez fails after this many seconds without progress; must exceed the longest job (default 120). */
  public static final String LIVENESS_STALL_S = "LIVENESS_STALL_S";
  /** The job type the worker consumes. */
  public static final String JOB_TYPE = "thumbnail";

  private static final Logger LOG = LoggerFactory.getLogger("worker");
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String CONSUMER = "thumbnail-worker";
  private static final String EXAMPLE =
      "{\"job_id\":\"example-1\",\"type\":\"thumbnail\",\"image\":\"images/1.png\",\"width\":320}";

  private final Guard guard;
  private final Drain drain;
  private final String queue;
  private final long idleExitMs;
  private final long workMs;
  private final HealthEndpoints health;
  private final AtomicLong lastJobAt = new AtomicLong(System.currentTimeMillis());
  private final AtomicReference<String> lastDeadLetterReason = new AtomicReference<>("");

  private GuardedWorker(Guard guard, HealthEndpoints health) {
    this.guard = guard;
    this.drain = guard.drain();
    this.health = health;
    Map<String, String> env = guard.environment();
    this.queue = env.getOrDefault(StackContract.JOB_QUEUE, "jobs");
    this.idleExitMs = Long.parseLong(env.getOrDefault(StackContract.WORKER_IDLE_EXIT_MS, "0"));
    this.workMs = Long.parseLong(env.getOrDefault(StackContract.JOB_WORK_MS, "0"));
    guard.ledger().addListener(new Ledger.Listener() {
      @Override
      public void received(String jobId) {
        lastJobAt.set(System.currentTimeMillis());
        progress();
        LOG.info("job {} received", jobId);
      }

      @Override
      public void recorded(String jobId, Outcome outcome) {
        switch (outcome) {
          case PROCESSED -> LOG.info("job {} processed", jobId);
          case REJECTED -> LOG.warn("job {} rejected: {}", jobId, lastDeadLetterReason.get());
          case FAILED -> LOG.warn("job {} failed: {}", jobId, lastDeadLetterReason.get());
          case HANDED_BACK -> LOG.info("job {} handed back", jobId);
        }
      }
    });
  }

  /** Boots the guard on the process environment, consumes until idle or SIGTERM, exits with the receipt's code. */
  public static void main(String[] args) {
    WorkerRedis.shortDnsCache(); // before any lookup
    Map<String, String> env = System.getenv();
    HealthEndpoints health = health(env);
    String broker = env.getOrDefault(StackContract.JOB_BROKER, "redis");
    List<String> path = Collections.synchronizedList(new ArrayList<>()); // told from probe threads
    GuardSpec.Builder spec = GuardSpec.builder(CONSUMER)
        .require(StackContract.REDIS_URL, SettingType.URL)
        .waitForEnv(StackContract.REDIS_URL, "?key=" + StackContract.READY_MARKER_KEY)
        .schemas(JOB_TYPE, b -> b.fromClasspath(JOB_TYPE, "schemas/thumbnail.schema.json").example(JOB_TYPE, EXAMPLE))
        .readyDeadline(Duration.ofSeconds(Long.parseLong(env.getOrDefault("READY_DEADLINE_S", "60"))))
        .readinessListener((previous, current) -> path.add(current.kind() + " " + current.state().label()));
    switch (broker) {
      case "amqp" -> spec.waitForEnv(StackContract.AMQP_URL);
      case "jetstream" -> spec.waitForEnv(StackContract.NATS_URL);
      case "kafka" -> spec.waitForEnv(StackContract.KAFKA_URL);
      default -> { } // the jobs come through the Redis it already waits for
    }
    Guard guard = Guard.boot(spec.build());
    LOG.info("dependencies ready after {} ms at {}: {}", guard.readiness().elapsed().toMillis(),
        System.currentTimeMillis(), String.join(" -> ", path));
    int exit = new GuardedWorker(guard, health).run(broker);
    System.exit(exit);
  }

  private static HealthEndpoints health(Map<String, String> env) {
    String port = env.get(HEALTH_PORT);
    if (port == null || port.isBlank()) {
      return null;
    }
    HealthEndpoints h = HealthEndpoints.start(Integer.parseInt(port.trim()),
        Duration.ofSeconds(Long.parseLong(env.getOrDefault(LIVENESS_STALL_S, "120"))));
    LOG.info("health endpoint on port {}: /readyz (200 while consuming), /livez", h.port());
    return h;
  }

  private int run(String broker) {
    phase(HealthEndpoints.Phase.CONSUMING);
    if (health != null) {
      Thread draining = new Thread(() -> {
        try {
          drain.awaitStop(Duration.ofDays(365));
          health.phase(HealthEndpoints.Phase.DRAINING); // out of rotation from SIGTERM on
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }, "worker-draining-phase");
      draining.setDaemon(true);
      draining.start();
    }
    String redisUrl = guard.env(StackContract.REDIS_URL);
    WorkerRedis stackRedis = WorkerRedis.create(redisUrl);
    try (StatefulRedisConnection<String, String> connection = stackRedis.client().connect()) {
      RedisCommands<String, String> redis = connection.sync();
      return switch (broker) {
        case "amqp" -> consumeAmqp(redis);
        case "jetstream" -> consumeJetStream(redis);
        case "kafka" -> consumeKafka(redis);
        default -> consumeRedis(stackRedis.client(), redis, redisUrl);
      };
    } catch (Exception e) {
      LOG.error("worker stopped on an error: {}", Redaction.maskText(String.valueOf(e)), e);
      drain.requestStop("error: " + e);
      drain.finish();
      return ExitCodes.SOFTWARE;
    } finally {
      LOG.info("ledger: {}", guard.ledger().summaryLine());
      stackRedis.close();
      if (health != null) {
        health.close();
      }
    }
  }

  private DeadLetterSink remembering(DeadLetterSink sink) {
    return letter -> {
      sink.write(letter);
      lastDeadLetterReason.set(letter.reason());
    };
  }

  private int consumeRedis(RedisClient client, RedisCommands<String, String> redis, String redisUrl) {
    String results = queue + StackContract.RESULTS_SUFFIX;
    try (CrashSafeListQueue jobs = CrashSafeListQueue.builder(client, queue)
            .deadLetter(queue + ":interrupted")
            .leaseTtl(Duration.ofSeconds(10))
            .pollTimeout(Duration.ofMillis(500))
            .idOf(GuardedWorker::idFor)
            .build();
        RedisListDeadLetters dead = RedisListDeadLetters.connect(redisUrl, queue + StackContract.DEAD_SUFFIX)) {
      LOG.info("consuming {} (crash-safe: BLMOVE to {}, ack by LREM; dead letters to {})", queue,
          jobs.processingList(), dead.listKey());
      return guard.run(observed(jobs), RedisJob::payload, job -> SourceInfo.redis(queue, null), remembering(dead),
          (job, d) -> work(job, results, redis));
    }
  }

  private int consumeAmqp(RedisCommands<String, String> redis) throws Exception {
    ConnectionFactory factory = new ConnectionFactory();
    factory.setUri(guard.env(StackContract.AMQP_URL));
    // no automatic recovery (amqp-client's default): a recovered channel starts its delivery tags
    // again, and a lost connection is better answered by a new worker that waits for RabbitMQ
    // again (exit 69, the restart policy); the unacked deliveries go back to the queue meanwhile
    factory.setAutomaticRecoveryEnabled(false);
    String results = queue + StackContract.RESULTS_SUFFIX;
    Connection connection = factory.newConnection(CONSUMER);
    try (AmqpQueue jobs = AmqpQueue.builder(connection, queue).consumerName(CONSUMER)
            .pollTimeout(Duration.ofMillis(500)).idOf((payload, messageId) -> idFor(payload)).build();
        AmqpDeadLetters dead = AmqpDeadLetters.toQueue(connection, jobs.deadLetterQueue())) {
      LOG.info("consuming rabbitmq queue {} (manual ack after the outcome, dead letters to {})", queue,
          jobs.deadLetterQueue());
      return guard.run(observed(jobs), AmqpJob::payload, job -> SourceInfo.amqp(queue, job.messageId()),
          remembering(dead), (job, d) -> work(job, results, redis));
    } finally {
      if (connection.isOpen()) {
        connection.close(); // and its channels
      }
    }
  }

  private int consumeJetStream(RedisCommands<String, String> redis) throws Exception {
    String results = queue + StackContract.RESULTS_SUFFIX;
    String stream = guard.env(StackContract.JOB_STREAM);
    // jnats reconnects by itself (fetches fail meanwhile and the loop retries them); a connection
    // it gives up on ends the loop (SourceLostException) and the restart policy starts a new worker
    io.nats.client.Connection connection = io.nats.client.Nats.connect(new io.nats.client.Options.Builder()
        .server(guard.env(StackContract.NATS_URL)).connectionName(CONSUMER).build());
    try (NatsQueue jobs = NatsQueue.builder(connection, stream, queue, CONSUMER)
            .pollTimeout(Duration.ofMillis(500)).idOf((payload, messageId) -> idFor(payload)).build()) {
      NatsDeadLetters dead = NatsDeadLetters.jetStream(connection, jobs.deadLetterSubject());
      LOG.info("consuming jetstream subject {} of stream {} (explicit ack after the outcome, dead letters to {})",
          queue, stream, jobs.deadLetterSubject());
      return guard.run(observed(jobs), NatsJob::payload, job -> SourceInfo.nats(queue, job.id()),
          remembering(dead), (job, d) -> work(job, results, redis));
    } finally {
      connection.close();
    }
  }

  private int consumeKafka(RedisCommands<String, String> redis) {
    String results = queue + StackContract.RESULTS_SUFFIX;
    String bootstrap = guard.env(StackContract.KAFKA_URL).replaceFirst("^kafka://", "");
    Map<String, Object> producerConfig = Map.of("bootstrap.servers", bootstrap, "acks", "all",
        "enable.idempotence", true);
    try (KafkaQueue jobs = KafkaQueue.builder(Map.of("bootstrap.servers", bootstrap), queue, CONSUMER)
            .pollTimeout(Duration.ofMillis(500)).idOf((payload, key) -> idFor(payload)).build();
        org.apache.kafka.clients.producer.KafkaProducer<byte[], byte[]> producer =
            new org.apache.kafka.clients.producer.KafkaProducer<>(producerConfig,
                new org.apache.kafka.common.serialization.ByteArraySerializer(),
                new org.apache.kafka.common.serialization.ByteArraySerializer())) {
      KafkaDeadLetters dead = KafkaDeadLetters.of(producer, jobs.deadLetterTopic());
      LOG.info("consuming kafka topic {} as group {} (commit after the outcome, dead letters to {})", queue, CONSUMER,
          jobs.deadLetterTopic());
      return guard.run(observed(jobs), KafkaJob::payload,
          job -> SourceInfo.kafka(job.topic(), job.partition(), job.offset()), remembering(dead),
          (job, d) -> work(job, results, redis));
    }
  }

  /** A loop turn is progress for /livez; an idle worker stops as if told to. */
  private <J> ForwardingJobSource<J> observed(dev.guard.drain.JobSource<J> source) {
    return new ForwardingJobSource<>(source) {
      @Override
      public Optional<J> fetch() {
        progress();
        stopWhenIdle();
        return super.fetch();
      }
    };
  }

  /** An accepted job: its work, then the result, written by id (idempotent). */
  private void work(Accepted job, String results, RedisCommands<String, String> redis) {
    String id = job.string("job_id");
    work();
    long width = job.integer("width");
    String result = "{\"width\":" + width + ",\"thumbnail\":\"" + job.string("image") + "@" + width + "\"}";
    // HSET by id is idempotent: a write cut by a Redis restart is retried, not the job failed
    Failsafe.with(resultWriteRetry(id)).run(() -> redis.hset(results, id, result));
  }

  /**
   * Retries a result write that Redis did not take (connection reset by a restart, a command
   * timeout while it was away, its name not resolving yet) for as long as the worker runs: while
   * the result store is away no job can complete, and failing them one by one would only turn
   * them into dead letters (seen: DNS for a restarted Redis container failed for 80 s). The job
   * stays unacked meanwhile; a stuck worker is /livez's to restart. From SIGTERM on it gives up,
   * and the job fails with the reason.
   */
  private RetryPolicy<Object> resultWriteRetry(String id) {
    return RetryPolicy.builder()
        .handleIf(e -> e instanceof RedisException && !drain.stopping())
        .withBackoff(Duration.ofMillis(100), Duration.ofSeconds(2))
        .withMaxRetries(-1)
        .onRetry(e -> LOG.warn("job {}: result write failed ({}), retry {}", id,
            Redaction.maskText(String.valueOf(e.getLastException())), e.getAttemptCount()))
        .build();
  }

  private void phase(HealthEndpoints.Phase phase) {
    if (health != null) {
      health.phase(phase);
    }
  }

  private void progress() {
    if (health != null) {
      health.progress();
    }
  }

  /** The job's work: {@code JOB_WORK_MS} of it (a thumbnail takes time; 0 by default). */
  private void work() {
    if (workMs > 0) {
      try {
        Thread.sleep(workMs);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted during the job's work", e);
      }
    }
  }

  private void stopWhenIdle() {
    if (idleExitMs > 0 && System.currentTimeMillis() - lastJobAt.get() > idleExitMs) {
      drain.requestStop("idle for " + idleExitMs + " ms");
    }
  }

  /** The id the boundary's ledger uses: the first of job_id, jobId, id, ... (so a renamed id is still named). */
  static String idFor(String raw) {
    try {
      JsonNode node = JSON.readTree(raw);
      for (String field : List.of("job_id", "jobId", "id", "message_id", "messageId", "uuid")) {
        JsonNode v = node.get(field);
        if (v != null && (v.isTextual() && !v.asText().isBlank() || v.isNumber())) {
          return v.asText();
        }
      }
    } catch (Exception e) {
      // not JSON: the boundary rejects it as malformed
    }
    return "unidentified";
  }
}
