import java.net.URI;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import redis.clients.jedis.Jedis;

/** A queue worker on Jedis: BLPOP from list "jobs", retrying the connection every second. */
public class JedisWorker {
    static final Logger log = LoggerFactory.getLogger("worker");

    static String env(String k, String d) { String v = System.getenv(k); return v == null || v.isEmpty() ? d : v; }

    public static void main(String[] args) throws Exception {
        String url = env("URL", "redis://redis:6379/0");
        long deadline = System.currentTimeMillis() + Long.parseLong(env("DEADLINE_S", "10")) * 1000;
        int max = Integer.parseInt(env("JOBS", "12"));
        long jobMs = Long.parseLong(env("JOB_MS", "50"));
        log.info("worker starting, redis url {}", url);
        int attempt = 0, done = 0;
        while (System.currentTimeMillis() < deadline && done < max) {
            attempt++;
            try (Jedis jedis = new Jedis(URI.create(url), 2000)) {
                jedis.ping();
                log.info("connected to {}", url);
                attempt = 0;
                while (System.currentTimeMillis() < deadline && done < max) {
                    List<String> r = jedis.blpop(1, "jobs");
                    if (r == null || r.isEmpty()) continue;
                    String id = r.get(1);
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
    }
}
