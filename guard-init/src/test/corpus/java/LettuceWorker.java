import io.lettuce.core.ClientOptions;
import io.lettuce.core.KeyValue;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.SocketOptions;
import io.lettuce.core.api.StatefulConnection;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.BaseRedisCommands;
import io.lettuce.core.api.sync.RedisListCommands;
import io.lettuce.core.cluster.ClusterClientOptions;
import io.lettuce.core.cluster.ClusterTopologyRefreshOptions;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import java.time.Duration;
import java.util.function.Function;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A queue worker on lettuce-core: BLPOP from list "jobs", retrying the connection every second.
 * TOPOLOGY=plain (default) or sentinel: RedisClient.create(URL) (lettuce parses redis-sentinel:// itself);
 * TOPOLOGY=cluster: RedisClusterClient seeded with URL, 5 s command timeout, periodic (5 s) and adaptive
 * topology refresh.
 */
public class LettuceWorker {
    static final Logger log = LoggerFactory.getLogger("worker");

    static String env(String k, String d) { String v = System.getenv(k); return v == null || v.isEmpty() ? d : v; }

    static String url;
    static long deadline, jobMs;
    static int max, done;

    interface Pop { KeyValue<String, String> blpop(); }

    /** Takes jobs until the deadline or max; exceptions go to the caller's retry. */
    static void jobs(Pop pop) throws Exception {
        while (System.currentTimeMillis() < deadline && done < max) {
            KeyValue<String, String> kv = pop.blpop();
            if (kv == null || !kv.hasValue()) continue;
            String id = kv.getValue();
            log.info("job {} received", id);
            Thread.sleep(jobMs);
            log.info("job {} processed", id);
            done++;
        }
    }

    /**
     * Connects, PINGs and takes jobs until the deadline or max, retrying the connection every second;
     * the same loop for a plain or Sentinel connection and a cluster one.
     */
    static <C extends StatefulConnection<String, String>, R extends BaseRedisCommands<String, String> & RedisListCommands<String, String>>
            void consume(Supplier<C> connect, Function<C, R> sync) throws InterruptedException {
        int failures = 0; // consecutive failed attempts; a successful connect starts a new count
        while (System.currentTimeMillis() < deadline && done < max) {
            try (C conn = connect.get()) {
                R redis = sync.apply(conn);
                redis.ping();
                log.info("connected to {}", url);
                failures = 0;
                jobs(() -> redis.blpop(1L, "jobs"));
            } catch (Exception e) {
                failures++;
                log.error("attempt {} failed, retrying in 1s", failures, e);
                Thread.sleep(1000);
            }
        }
        log.info("worker stopping after {} jobs", done);
    }

    public static void main(String[] args) throws Exception {
        url = env("URL", "redis://redis:6379/0");
        String topology = env("TOPOLOGY", "plain");
        deadline = System.currentTimeMillis() + Long.parseLong(env("DEADLINE_S", "10")) * 1000;
        max = Integer.parseInt(env("JOBS", "12"));
        jobMs = Long.parseLong(env("JOB_MS", "50"));
        log.info("worker starting, redis url {}", url);
        SocketOptions socket = SocketOptions.builder().connectTimeout(Duration.ofSeconds(2)).build();
        if (topology.equals("cluster")) {
            // the command timeout through the seed URI: RedisClusterClient takes its default timeout from it
            // (setDefaultTimeout in lettuce 5/6; lettuce 7 has no setDefaultTimeout any more)
            RedisURI seed = RedisURI.create(url);
            seed.setTimeout(Duration.ofSeconds(5));
            RedisClusterClient client = RedisClusterClient.create(seed);
            // topology refresh: at its defaults (off) the client never left the killed master of a
            // failover (every connect() went to the stale slot owner), so periodic and adaptive refresh
            // are on, as lettuce's documentation recommends for failover
            client.setOptions(ClusterClientOptions.builder().socketOptions(socket)
                    .topologyRefreshOptions(ClusterTopologyRefreshOptions.builder()
                            .enablePeriodicRefresh(Duration.ofSeconds(5)).enableAllAdaptiveRefreshTriggers().build())
                    .build());
            consume(client::connect, StatefulRedisClusterConnection::sync);
            client.shutdown();
            return;
        }
        RedisClient client = RedisClient.create(url);
        client.setOptions(ClientOptions.builder().socketOptions(socket).build());
        consume(client::connect, StatefulRedisConnection::sync);
        client.shutdown();
    }
}
