package dev.guard.examples.stack;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import dev.guard.config.ConfigGuard;
import dev.guard.config.ConfigViolationException;
import dev.guard.config.Redaction;
import dev.guard.config.SettingType;
import dev.guard.examples.coldstart.StackContract;
import dev.guard.ready.Probes;
import dev.guard.ready.ReadinessGate;
import dev.guard.ready.ReadinessReport;
import dev.guard.schema.Accepted;
import dev.guard.schema.Schemas;
import dev.guard.schema.boundary.JobBoundary;
import dev.guard.schema.boundary.Ledger;
import dev.guard.schema.boundary.Outcome;
import dev.guard.schema.boundary.SourceInfo;
import dev.guard.schema.deadletter.DeadLetterException;
import dev.guard.schema.deadletter.DeadLetterSink;
import dev.guard.schema.deadletter.amqp.AmqpDeadLetters;
import dev.guard.schema.deadletter.redis.RedisListDeadLetters;
import dev.guard.drain.HandBackFailedException;
import dev.guard.queue.redis.CrashSafeListQueue;
import dev.guard.queue.redis.RedisJob;
import dev.failsafe.Failsafe;
import dev.failsafe.RetryPolicy;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisException;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The example worker, guarded end to end:
 *
 * <ol>
 *   <li><b>config guard</b> on {@code REDIS_URL} (and {@code AMQP_URL} on the RabbitMQ variant):
 *       missing, placeholder, loopback (unless {@code GUARD_ALLOW_LOOPBACK=true}, for a stack on
 *       one machine) and name drift ({@code CACHE_URL} set instead) stop it before any
 *       connection, exit 78;
 *   <li><b>readiness gate</b>: waits through refused, {@code LOADING} and a missing
 *       {@value StackContract#READY_MARKER_KEY} marker until Redis (and RabbitMQ) serve, one log
 *       line per state change, exit 69 at the deadline;
 *   <li><b>the boundary</b>: every payload is checked against {@code schemas/thumbnail.schema.json};
 *       a skewed one is dead-lettered with its reason (Redis list or AMQP queue
 *       {@code <queue>:dead}) and logged, never swallowed; the ledger gives every received job
 *       exactly one outcome;
 *   <li><b>crash-safe fetch</b>: guard's {@code CrashSafeListQueue} (BLMOVE into a leased processing
 *       list, LREM after the outcome, a reaper for dead workers' jobs) on Redis;
 *       manual ack after the outcome (RabbitMQ). Results are written idempotently (HSET by id).
 * </ol>
 *
 * <p>Prints {@code job <id> received}, {@code job <id> processed},
 * {@code job <id> rejected: <reason>}, {@code job <id> failed: <reason>}; exits after
 * {@code WORKER_IDLE_EXIT_MS} without a job, or on SIGTERM, printing the ledger's summary.
 * {@code READY_DEADLINE_S} bounds the readiness wait (default 60); {@code JOB_WORK_MS} is the time
 * each accepted job takes (default 0); {@code HEALTH_PORT} serves the probe endpoints
 * ({@link HealthEndpoint}).
 */
public final class GuardedWorker {
  /** Set to {@code true} to accept loopback URLs (a stack on one machine, as the demo runs it). */
  public static final String ALLOW_LOOPBACK = "GUARD_ALLOW_LOOPBACK";
  /** Port of the probe endpoints /readyz and /livez ({@link HealthEndpoint}); unset: none. */
  public static final String HEALTH_PORT = "HEALTH_PORT";
  /** /livez fails after this many seconds without progress; must exceed the longest job (default 120). */
  public static final String LIVENESS_STALL_S = "LIVENESS_STALL_S";
  /** The job type the worker consumes. */
  public static final String JOB_TYPE = "thumbnail";

  private static final Logger LOG = LoggerFactory.getLogger("worker");
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String CONSUMER = "thumbnail-worker";

  private final Map<String, String> env;
  private final String queue;
  private final long idleExitMs;
  private final long workMs;
  private final HealthEndpoint health;
  private final Ledger ledger = new Ledger();
  private final AtomicLong lastJobAt = new AtomicLong(System.currentTimeMillis());
  private final AtomicReference<String> lastDeadLetterReason = new AtomicReference<>("");
  private volatile boolean running = true;
  private final CountDownLatch stopped = new CountDownLatch(1);

  private GuardedWorker(Map<String, String> env) {
    this.env = env;
    this.queue = env.getOrDefault(StackContract.JOB_QUEUE, "jobs");
    this.idleExitMs = Long.parseLong(env.getOrDefault(StackContract.WORKER_IDLE_EXIT_MS, "0"));
    this.workMs = Long.parseLong(env.getOrDefault(StackContract.JOB_WORK_MS, "0"));
    String healthPort = env.get(HEALTH_PORT);
    this.health = healthPort == null || healthPort.isBlank() ? null
        : HealthEndpoint.start(Integer.parseInt(healthPort.trim()),
            Duration.ofSeconds(Long.parseLong(env.getOrDefault(LIVENESS_STALL_S, "120"))));
    if (health != null) {
      LOG.info("health endpoint on port {}: /readyz (200 while consuming), /livez", health.port());
    }
  }

  /** Runs the worker on the process environment; SIGTERM stops it after the current job. */
  public static void main(String[] args) {
    StackRedis.shortDnsCache(); // before any lookup
    GuardedWorker worker = new GuardedWorker(System.getenv());
    Runtime.getRuntime().addShutdownHook(new Thread(worker::stopFromSignal, "worker-sigterm"));
    System.exit(worker.run());
  }

  /** Runs a worker on {@code env} until it is idle for {@code WORKER_IDLE_EXIT_MS}; returns the exit code. */
  public static int run(Map<String, String> env) {
    return new GuardedWorker(env).run();
  }

  private void stopFromSignal() {
    if (running) {
      LOG.info("SIGTERM: finishing the current job, then stopping");
      running = false;
      if (health != null) {
        health.phase(HealthEndpoint.Phase.DRAINING);
      }
    }
    try {
      stopped.await(8, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  int run() {
    try {
      return runGuarded();
    } finally {
      running = false;
      if (health != null) {
        health.close();
      }
      stopped.countDown();
    }
  }

  private int runGuarded() {
    boolean amqp = "amqp".equals(env.get(StackContract.JOB_BROKER));
    // 1. config, before any connection
    ConfigGuard.Builder config = ConfigGuard.builder()
        .requireEnv(StackContract.REDIS_URL, SettingType.URL)
        .environment(env)
        .allowLoopback(Boolean.parseBoolean(env.getOrDefault(ALLOW_LOOPBACK, "false")));
    if (amqp) {
      config.requireEnv(StackContract.AMQP_URL, SettingType.URL);
    }
    try {
      config.build().verify();
    } catch (ConfigViolationException e) {
      LOG.error("config guard stopped the worker before any connection:\n{}", e.getMessage());
      return 78;
    }
    String redisUrl = env.get(StackContract.REDIS_URL);
    String amqpUrl = env.get(StackContract.AMQP_URL);

    // 2. readiness: refused -> LOADING -> marker missing -> ready
    List<String> path = java.util.Collections.synchronizedList(new ArrayList<>()); // told from probe threads
    ReadinessGate.Builder gateBuilder = ReadinessGate.builder()
        .probe(Probes.redisBuilder(redisUrl).requireKey(StackContract.READY_MARKER_KEY).build())
        .deadline(Duration.ofSeconds(Long.parseLong(env.getOrDefault("READY_DEADLINE_S", "60"))))
        .listener((previous, current) -> path.add(current.kind() + " " + current.state().label()));
    if (amqp) {
      gateBuilder.probe(Probes.amqp(amqpUrl));
    }
    long gateStart = System.nanoTime();
    try (ReadinessGate gate = gateBuilder.build()) {
      ReadinessReport report = gate.await();
      if (!report.ready()) {
        LOG.error("readiness gate gave up:\n{}", report.render());
        return 69;
      }
    }
    long waited = (System.nanoTime() - gateStart) / 1_000_000;
    LOG.info("dependencies ready after {} ms at {}: {}", waited, System.currentTimeMillis(), String.join(" -> ", path));
    if (health != null && running) {
      health.phase(HealthEndpoint.Phase.CONSUMING);
    }

    // 3. the boundary, 4. the loop
    Schemas schemas = Schemas.builder()
        .fromClasspath(JOB_TYPE, "schemas/thumbnail.schema.json")
        .example(JOB_TYPE, "{\"job_id\":\"example-1\",\"type\":\"thumbnail\",\"image\":\"images/1.png\",\"width\":320}")
        .build();
    StackRedis stackRedis = new StackRedis(redisUrl);
    RedisClient client = stackRedis.client;
    try (StatefulRedisConnection<String, String> connection = client.connect()) {
      RedisCommands<String, String> redis = connection.sync();
      return amqp ? consumeAmqp(schemas, redis, amqpUrl) : consumeRedis(schemas, client, redis, redisUrl);
    } catch (Exception e) {
      LOG.error("worker stopped on an error: {}", Redaction.maskText(String.valueOf(e)), e);
      return 70;
    } finally {
      LOG.info("ledger: {}", ledger.summaryLine());
      stackRedis.close();
    }
  }

  private JobBoundary<Accepted> boundary(Schemas schemas, DeadLetterSink sink) {
    DeadLetterSink remembering = letter -> {
      sink.write(letter);
      lastDeadLetterReason.set(letter.reason());
    };
    return JobBoundary.builder().schemas(schemas).jobType(JOB_TYPE).deadLetters(remembering).ledger(ledger)
        .consumer(CONSUMER).build();
  }

  private int consumeRedis(Schemas schemas, RedisClient client, RedisCommands<String, String> redis, String redisUrl) {
    String results = queue + StackContract.RESULTS_SUFFIX;
    try (CrashSafeListQueue jobs = CrashSafeListQueue.builder(client, queue)
            .deadLetter(queue + ":interrupted")
            .leaseTtl(Duration.ofSeconds(10))
            .pollTimeout(Duration.ofMillis(500))
            .idOf(GuardedWorker::idFor)
            .build();
        RedisListDeadLetters dead = RedisListDeadLetters.connect(redisUrl, queue + StackContract.DEAD_SUFFIX)) {
      JobBoundary<Accepted> boundary = boundary(schemas, dead);
      LOG.info("consuming {} (crash-safe: BLMOVE to {}, ack by LREM; dead letters to {})", queue,
          jobs.processingList(), dead.listKey());
      while (running) {
        progress();
        Optional<RedisJob> job = jobs.fetch();
        if (job.isEmpty()) {
          if (idle()) {
            break;
          }
          continue;
        }
        try {
          handle(boundary, job.get().payload(), SourceInfo.redis(queue, null), results, redis);
          jobs.ack(job.get());
        } catch (DeadLetterException e) {
          // its dead letter was not written: not acked, given back to the queue, taken again
          try {
            jobs.handBack(job.get());
          } catch (HandBackFailedException h) {
            // the job stays in this worker's processing list, and a live worker renews its lease,
            // so the reaper would not return it (seen in ComposeStackIT's Redis kill run: a job
            // missing for good). Stop: the restarted worker (same id) returns its previous run's
            // jobs first thing
            LOG.error("{}; stopping so that the restarted worker returns it", h.getMessage());
            return 70;
          }
        }
      }
    }
    return 0;
  }

  private int consumeAmqp(Schemas schemas, RedisCommands<String, String> redis, String amqpUrl) throws Exception {
    ConnectionFactory factory = new ConnectionFactory();
    factory.setUri(amqpUrl);
    // no automatic recovery (amqp-client's default): a recovered channel starts its delivery tags
    // again, and a lost connection is better answered by a new worker that waits for RabbitMQ
    // again (exit 70, the restart policy); the unacked deliveries go back to the queue meanwhile
    factory.setAutomaticRecoveryEnabled(false);
    String results = queue + StackContract.RESULTS_SUFFIX;
    String deadQueue = queue + StackContract.DEAD_SUFFIX;
    Connection connection = factory.newConnection(CONSUMER);
    try {
      Channel channel = connection.createChannel();
      channel.queueDeclare(queue, true, false, false, null);
      channel.queueDeclare(deadQueue, true, false, false, null);
      channel.basicQos(20);
      AmqpDeadLetters dead = AmqpDeadLetters.toQueue(connection, deadQueue);
      JobBoundary<Accepted> boundary = boundary(schemas, dead);
      LOG.info("consuming rabbitmq queue {} (manual ack, dead letters to {})", queue, deadQueue);
      String tag = channel.basicConsume(queue, false, (consumerTag, delivery) -> {
        if (!channel.isOpen()) {
          // prefetched before the connection was lost: it cannot be acked, RabbitMQ delivers it
          // again to the next worker; working on it here would only do it twice
          return;
        }
        long deliveryTag = delivery.getEnvelope().getDeliveryTag();
        String raw = new String(delivery.getBody(), StandardCharsets.UTF_8);
        try {
          handle(boundary, raw, SourceInfo.amqp(queue, delivery.getProperties().getMessageId()), results, redis);
          channel.basicAck(deliveryTag, false);
        } catch (DeadLetterException e) {
          channel.basicNack(deliveryTag, false, true);
        }
      }, consumerTag -> { });
      while (running && !idle()) {
        progress();
        if (!connection.isOpen()) {
          LOG.error("connection to RabbitMQ lost ({}): stopping; its unacked jobs return to {}",
              Redaction.maskText(String.valueOf(connection.getCloseReason())), queue);
          return 70;
        }
        Thread.sleep(100);
      }
      channel.basicCancel(tag);
      dead.close();
      return 0;
    } finally {
      if (connection.isOpen()) {
        connection.close(); // and its channels
      }
    }
  }

  private void handle(JobBoundary<Accepted> boundary, String raw, SourceInfo source, String results,
      RedisCommands<String, String> redis) {
    lastJobAt.set(System.currentTimeMillis());
    progress();
    String id = idFor(raw);
    LOG.info("job {} received", id);
    Outcome outcome = boundary.handle(raw.getBytes(StandardCharsets.UTF_8), source, job -> {
      var o = job.object();
      work();
      String result = "{\"width\":" + o.getInt("width") + ",\"thumbnail\":\"" + o.getString("image") + "@"
          + o.getInt("width") + "\"}";
      // HSET by id is idempotent: a write cut by a Redis restart is retried, not the job failed
      Failsafe.with(resultWriteRetry(id)).run(() -> redis.hset(results, o.getString("job_id"), result));
    });
    switch (outcome) {
      case PROCESSED -> LOG.info("job {} processed", id);
      case REJECTED -> LOG.warn("job {} rejected: {}", id, lastDeadLetterReason.get());
      case FAILED -> LOG.warn("job {} failed: {}", id, lastDeadLetterReason.get());
      case HANDED_BACK -> LOG.info("job {} handed back", id);
    }
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
        .handleIf(e -> e instanceof RedisException && running)
        .withBackoff(Duration.ofMillis(100), Duration.ofSeconds(2))
        .withMaxRetries(-1)
        .onRetry(e -> LOG.warn("job {}: result write failed ({}), retry {}", id,
            Redaction.maskText(String.valueOf(e.getLastException())), e.getAttemptCount()))
        .build();
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

  private boolean idle() {
    return idleExitMs > 0 && System.currentTimeMillis() - lastJobAt.get() > idleExitMs;
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
