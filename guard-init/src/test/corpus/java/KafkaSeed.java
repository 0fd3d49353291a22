import java.util.Properties;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;

/** Produces the job ids given as arguments to topic "jobs" on the bootstrap server in $URL. */
public class KafkaSeed {
    public static void main(String[] args) throws Exception {
        Properties p = new Properties();
        p.put("bootstrap.servers", System.getenv().getOrDefault("URL", "kafka:9092"));
        p.put("key.serializer", "org.apache.kafka.common.serialization.StringSerializer");
        p.put("value.serializer", "org.apache.kafka.common.serialization.StringSerializer");
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(p)) {
            for (String id : args) {
                producer.send(new ProducerRecord<>("jobs", id, id)).get();
            }
        }
    }
}
