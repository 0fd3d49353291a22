import java.time.Duration;
import java.util.List;
import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** A queue worker on kafka-clients: consumes topic "jobs" in group "worker". */
public class KafkaWorker {
    static final Logger log = LoggerFactory.getLogger("worker");

    static String env(String k, String d) { String v = System.getenv(k); return v == null || v.isEmpty() ? d : v; }

    public static void main(String[] args) throws Exception {
        String bootstrap = env("URL", "kafka:9092");
        long deadline = System.currentTimeMillis() + Long.parseLong(env("DEADLINE_S", "10")) * 1000;
        int max = Integer.parseInt(env("JOBS", "12"));
        long jobMs = Long.parseLong(env("JOB_MS", "50"));
        log.info("worker starting, kafka bootstrap servers {}", bootstrap);
        Properties p = new Properties();
        p.put("bootstrap.servers", bootstrap);
        p.put("group.id", "worker");
        p.put("auto.offset.reset", "earliest");
        p.put("key.deserializer", "org.apache.kafka.common.serialization.StringDeserializer");
        p.put("value.deserializer", "org.apache.kafka.common.serialization.StringDeserializer");
        p.put("reconnect.backoff.ms", "1000");
        p.put("reconnect.backoff.max.ms", "1000");
        int attempt = 0, done = 0;
        while (System.currentTimeMillis() < deadline && done < max) {
            attempt++;
            try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(p)) {
                consumer.subscribe(List.of("jobs"));
                log.info("subscribed to jobs on {}", bootstrap);
                attempt = 0;
                while (System.currentTimeMillis() < deadline && done < max) {
                    ConsumerRecords<String, String> records = consumer.poll(Duration.ofSeconds(1));
                    for (ConsumerRecord<String, String> r : records) {
                        log.info("job {} received", r.value());
                        Thread.sleep(jobMs);
                        log.info("job {} processed", r.value());
                        done++;
                    }
                    consumer.commitSync();
                }
            } catch (Exception e) {
                log.error("attempt {} failed, retrying in 1s", attempt, e);
                Thread.sleep(1000);
            }
        }
        log.info("worker stopping after {} jobs", done);
    }
}
