package dev.guard.testing.coldstart;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/** What the harness reads from Kafka itself: every record of a topic, with no consumer group (nothing committed). */
final class KafkaTopics {

  private KafkaTopics() {}

  /** The values of every record in {@code topic}, from the beginning to the end offsets of now; none if it does not exist. */
  static List<String> values(String kafkaUrl, String topic) {
    String bootstrap = kafkaUrl.startsWith("kafka://") ? kafkaUrl.substring("kafka://".length()) : kafkaUrl;
    Properties config = new Properties();
    config.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
    config.put(ConsumerConfig.ALLOW_AUTO_CREATE_TOPICS_CONFIG, false);
    config.put(ConsumerConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 5000);
    config.put(ConsumerConfig.REQUEST_TIMEOUT_MS_CONFIG, 5000);
    config.put(ConsumerConfig.CLIENT_ID_CONFIG, "coldstart-outcomes");
    List<String> values = new ArrayList<>();
    try (KafkaConsumer<byte[], byte[]> consumer =
        new KafkaConsumer<>(config, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
      List<PartitionInfo> partitions = consumer.listTopics(Duration.ofSeconds(5)).get(topic);
      if (partitions == null) {
        return values;
      }
      List<TopicPartition> all = partitions.stream().map(p -> new TopicPartition(topic, p.partition())).toList();
      consumer.assign(all);
      consumer.seekToBeginning(all);
      Map<TopicPartition, Long> end = consumer.endOffsets(all, Duration.ofSeconds(5));
      Instant deadline = Instant.now().plusSeconds(10);
      while (all.stream().anyMatch(tp -> consumer.position(tp, Duration.ofSeconds(5)) < end.get(tp))) {
        if (Instant.now().isAfter(deadline)) {
          throw new IllegalStateException("could not read " + topic + " to its end offsets " + end + " within 10 s");
        }
        for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(200))) {
          if (record.offset() < end.get(new TopicPartition(record.topic(), record.partition()))) {
            values.add(record.value() == null ? "" : new String(record.value(), StandardCharsets.UTF_8));
          }
        }
      }
    }
    return values;
  }
}
