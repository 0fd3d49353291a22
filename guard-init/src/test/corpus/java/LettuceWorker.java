import io.lettuce.core.ClientOptions;
import io.lettuce.core.KeyValue;
import io.lettuce.core.RedisClient;
import io.lettuce.core.SocketOptions;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** A queue worker on lettuce-core: BLPOP from list "jobs", retrying the connection every second. */
public class LettuceWorker {
    static final Logger log = LoggerFactory.getLogger("worker");

    static String env(String k, String d) { String v = System.getenv(k); return v == null || v.isEmpty() ? d : v; }

    public static void main(String[] args) throws Exception {
        String url = env("URL", "redis://redis:6379/0");
        long deadline = System.currentTimeMillis() + Long.parseLong(env("DEADLINE_S", "10")) * 1000;
        int max = Integer.parseInt(env("JOBS", "12"));
        long jobMs = Long.parseLong(env("JOB_MS", "50"));
        log.info("worker starting, redis url {}", url);
        RedisClient client = RedisClient.create(url);
        client.setOptions(ClientOptions.builder()
                .socketOptions(SocketOptions.builder().connectTimeout(Duration.ofSeconds(2)).build()).build());
        int attempt = 0, done = 0;
        while (System.currentTimeMillis() < deadline && done < max) {
            attempt++;
            try (StatefulRedisConnection<String, String> conn = client.connect()) {
                RedisCommands<String, String> redis = conn.sync();
                redis.ping();
                log.info("connected to {}", url);
                attempt = 0;
                while (System.currentTimeMillis() < deadline && done < max) {
                    KeyValue<String, String> kv = redis.blpop(1L, "jobs");
                    if (kv == null || !kv.hasValue()) continue;
                    String id = kv.getValue();
                    log.info("job {} received", id);
                    Thread.sleep(jobMs);
                    log.info("job {} processed", id);
                    done++;
                }
            } catch (Exception e) {
                log.error("attempt {} failed, retrying in 1s", attempt, e);
                Thread.sleep(1000);
            }
        }
        log.info("worker stopping after {} jobs", done);
        client.shutdown();
    }
}
