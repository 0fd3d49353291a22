import java.net.URI;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

/** A queue worker on Spring Data Redis (Lettuce driver): BLPOP via leftPop(key, timeout), retrying. */
public class SpringRedisWorker {
    static final Logger log = LoggerFactory.getLogger("worker");

    static String env(String k, String d) { String v = System.getenv(k); return v == null || v.isEmpty() ? d : v; }

    public static void main(String[] args) throws Exception {
        String url = env("URL", "redis://redis:6379/0");
        long deadline = System.currentTimeMillis() + Long.parseLong(env("DEADLINE_S", "10")) * 1000;
        int max = Integer.parseInt(env("JOBS", "12"));
        long jobMs = Long.parseLong(env("JOB_MS", "50"));
        log.info("worker starting, redis url {}", url);
        URI u = URI.create(url);
        RedisStandaloneConfiguration conf = new RedisStandaloneConfiguration(u.getHost(), u.getPort());
        if (u.getUserInfo() != null) conf.setPassword(u.getUserInfo().substring(u.getUserInfo().indexOf(':') + 1));
        LettuceConnectionFactory factory = new LettuceConnectionFactory(conf);
        factory.afterPropertiesSet();
        factory.start();
        StringRedisTemplate redis = new StringRedisTemplate(factory);
        int attempt = 0, done = 0;
        while (System.currentTimeMillis() < deadline && done < max) {
            attempt++;
            try {
                redis.execute((org.springframework.data.redis.core.RedisCallback<String>) c -> c.ping());
                log.info("connected to {}", url);
                attempt = 0;
                while (System.currentTimeMillis() < deadline && done < max) {
                    String id = redis.opsForList().leftPop("jobs", Duration.ofSeconds(1));
                    if (id == null) continue;
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
        factory.destroy();
    }
}
