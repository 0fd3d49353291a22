import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import com.rabbitmq.client.GetResponse;
import java.nio.charset.StandardCharsets;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** A queue worker on the RabbitMQ Java client: basicGet from a durable queue, retrying the connection. */
public class AmqpWorker {
    static final Logger log = LoggerFactory.getLogger("worker");

    static String env(String k, String d) { String v = System.getenv(k); return v == null || v.isEmpty() ? d : v; }

    public static void main(String[] args) throws Exception {
        String url = env("URL", "amqp://guest:guest@rabbitmq:5672/%2f");
        String queue = env("QUEUE", "guard-corpus-jobs");
        long deadline = System.currentTimeMillis() + Long.parseLong(env("DEADLINE_S", "10")) * 1000;
        int max = Integer.parseInt(env("JOBS", "12"));
        long jobMs = Long.parseLong(env("JOB_MS", "50"));
        log.info("worker starting, amqp url {}", url.replaceAll("//([^:]*):[^@]*@", "//$1:***@"));
        ConnectionFactory f = new ConnectionFactory();
        f.setUri(url);
        f.setConnectionTimeout(2000);
        int attempt = 0, done = 0;
        while (System.currentTimeMillis() < deadline && done < max) {
            attempt++;
            Connection c = null;
            try {
                c = f.newConnection();
                Channel ch = c.createChannel();
                ch.queueDeclare(queue, true, false, false, null);
                log.info("connected, consuming {}", queue);
                attempt = 0;
                while (System.currentTimeMillis() < deadline && done < max) {
                    GetResponse g = ch.basicGet(queue, false);
                    if (g == null) { Thread.sleep(200); continue; }
                    String id = new String(g.getBody(), StandardCharsets.UTF_8);
                    log.info("job {} received", id);
                    Thread.sleep(jobMs);
                    ch.basicAck(g.getEnvelope().getDeliveryTag(), false);
                    log.info("job {} processed", id);
                    done++;
                }
            } catch (Exception e) {
                log.error("attempt {} failed, retrying in 1s", attempt, e);
                Thread.sleep(1000);
            } finally {
                if (c != null && c.isOpen()) { try { c.close(); } catch (Exception ignored) { } }
            }
        }
        log.info("worker stopping after {} jobs", done);
    }
}
