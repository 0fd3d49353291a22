import io.nats.client.Connection;
import io.nats.client.Message;
import io.nats.client.Nats;
import io.nats.client.Options;
import io.nats.client.Subscription;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** A queue worker on jnats: queue-subscribes to subject "jobs", retrying the connection every second. */
public class NatsWorker {
    static final Logger log = LoggerFactory.getLogger("worker");

    static String env(String k, String d) { String v = System.getenv(k); return v == null || v.isEmpty() ? d : v; }

    public static void main(String[] args) throws Exception {
        String url = env("URL", "nats://nats:4222");
        long deadline = System.currentTimeMillis() + Long.parseLong(env("DEADLINE_S", "10")) * 1000;
        int max = Integer.parseInt(env("JOBS", "12"));
        long jobMs = Long.parseLong(env("JOB_MS", "50"));
        log.info("worker starting, nats url {}", url);
        Options o = new Options.Builder().server(url).connectionTimeout(Duration.ofSeconds(2)).build();
        int attempt = 0, done = 0;
        while (System.currentTimeMillis() < deadline && done < max) {
            attempt++;
            Connection nc = null;
            try {
                nc = Nats.connect(o);
                Subscription sub = nc.subscribe("jobs", "workers");
                nc.flush(Duration.ofSeconds(2));
                log.info("connected to {}, subscribed to jobs", url);
                attempt = 0;
                while (System.currentTimeMillis() < deadline && done < max) {
                    Message m = sub.nextMessage(Duration.ofSeconds(1));
                    if (m == null) continue;
                    String id = new String(m.getData(), StandardCharsets.UTF_8);
                    log.info("job {} received", id);
                    Thread.sleep(jobMs);
                    log.info("job {} processed", id);
                    done++;
                }
            } catch (Exception e) {
                log.error("attempt {} failed, retrying in 1s", attempt, e);
                Thread.sleep(1000);
            } finally {
                if (nc != null) { try { nc.close(); } catch (Exception ignored) { } }
            }
        }
        log.info("worker stopping after {} jobs", done);
    }
}
