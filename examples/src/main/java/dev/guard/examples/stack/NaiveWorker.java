package dev.guard.examples.stack;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.guard.testing.coldstart.StackContract;
import io.lettuce.core.KeyValue;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import java.util.Map;

/**
 * The worker as the incident write-ups' teams wrote it, kept as the thing the cold-start harness
 * must catch. Do not copy it. Its three faults, on purpose:
 *
 * <ol>
 *   <li><b>Env drift.</b> It reads {@code CACHE_URL}, while the stack sets {@code REDIS_URL}, and
 *       falls back to {@value #DEFAULT_URL}, the default the write-ups quote. In a container that
 *       is the container itself (nothing listens: refused). On a machine where something else
 *       listens on 6379 (this one has a shared Redis) it reaches the wrong Redis, receives nothing
 *       and logs nothing: the write-up's "a drifted URL can reach a different Redis". Either way
 *       no job of ours is received. The default is the literal one, not a port chosen to fail.
 *   <li><b>Startup race.</b> One connection attempt and one PING at start, no retry: refused or
 *       {@code LOADING} kills it.
 *   <li><b>Schema skew swallowed.</b> {@code job.get("job_id")} returns null for a renamed field
 *       and a cast fails for a retyped one; the broad {@code catch (Exception)} swallows both, so
 *       the job is skipped and nothing is logged.
 * </ol>
 *
 * <p>It pops with BRPOP (the job's only copy is then in memory) and prints the same per-job lines
 * as the guarded worker, {@code job <id> received} / {@code job <id> processed}.
 */
public final class NaiveWorker {
  /** The fallback the write-ups' workers had. */
  static final String DEFAULT_URL = "redis://localhost:6379";

  private static final ObjectMapper JSON = new ObjectMapper();

  private NaiveWorker() {}

  /** Runs the naive worker on the process environment. */
  @SuppressWarnings({"unchecked", "InfiniteLoopStatement"})
  public static void main(String[] args) throws Exception {
    Map<String, String> env = System.getenv();
    String url = env.getOrDefault("CACHE_URL", DEFAULT_URL);
    String queue = env.getOrDefault(StackContract.JOB_QUEUE, "jobs");
    long idleExitMs = Long.parseLong(env.getOrDefault(StackContract.WORKER_IDLE_EXIT_MS, "0"));
    log("worker starting");
    RedisClient client = RedisClient.create(url);
    StatefulRedisConnection<String, String> connection;
    RedisCommands<String, String> redis;
    try {
      connection = client.connect(); // one attempt
      redis = connection.sync();
      redis.ping();
    } catch (Exception e) {
      log("Error connecting to " + url.replaceFirst("^redis://", "") + ". " + e.getMessage());
      client.shutdown();
      System.exit(1);
      return;
    }
    long lastJob = System.currentTimeMillis();
    while (true) {
      KeyValue<String, String> item = redis.brpop(1, queue);
      if (item == null || !item.hasValue()) {
        if (idleExitMs > 0 && System.currentTimeMillis() - lastJob > idleExitMs) {
          break;
        }
        continue;
      }
      lastJob = System.currentTimeMillis();
      try {
        Map<String, Object> job = JSON.readValue(item.getValue(), Map.class);
        String jobId = (String) job.get("job_id");
        log("job " + jobId + " received");
        int width = (Integer) job.get("width");
        redis.hset(queue + StackContract.RESULTS_SUFFIX, jobId, "thumbnail " + width + "px of " + job.get("image"));
        log("job " + jobId + " processed");
      } catch (Exception e) {
        // "never let one bad message crash the worker"
      }
    }
    connection.close();
    client.shutdown();
  }

  private static void log(String line) {
    System.out.println(java.time.LocalTime.now() + " worker " + line);
  }
}
