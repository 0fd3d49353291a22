package dev.guard.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.DescribeClusterOptions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.QuorumInfo;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(NoLeakedProcesses.class)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class KafkaBrokerTest {

    private static final String TOPIC = "fixture-test";
    private static KafkaBroker kafka;

    @BeforeAll
    static void startBroker() {
        kafka = KafkaBroker.builder().build().start();
        System.out.printf("Kafka KRaft broker start (spawn -> first describeCluster answer, incl. JVM boot): %d ms%n",
                kafka.lastStartTime().toMillis());
    }

    @AfterAll
    static void closeBroker() {
        if (kafka != null) {
            kafka.close();
        }
    }

    @Test
    @Order(1)
    void servesMetadataAsOneBrokerThatIsAlsoTheController() throws Exception {
        assertEquals("127.0.0.1:" + kafka.port(), kafka.bootstrapServers());
        try (Admin admin = admin()) {
            Collection<Node> nodes = admin.describeCluster().nodes().get(10, TimeUnit.SECONDS);
            assertEquals(1, nodes.size(), "nodes: " + nodes);
            Node node = nodes.iterator().next();
            assertEquals(1, node.id());
            assertEquals(kafka.port(), node.port());
            QuorumInfo quorum = admin.describeMetadataQuorum().quorumInfo().get(10, TimeUnit.SECONDS);
            assertEquals(1, quorum.leaderId(), "the KRaft controller leader is node 1");
            assertEquals(1, quorum.voters().size());
        }
    }

    @Test
    @Order(2)
    void createsATopicAndRoundTripsARecord() throws Exception {
        try (Admin admin = admin()) {
            admin.createTopics(List.of(new NewTopic(TOPIC, 1, (short) 1))).all().get(20, TimeUnit.SECONDS);
            assertTrue(admin.listTopics().names().get(10, TimeUnit.SECONDS).contains(TOPIC));
        }
        Properties producerConfig = new Properties();
        producerConfig.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        producerConfig.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        producerConfig.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(producerConfig)) {
            RecordMetadata sent = producer.send(new ProducerRecord<>(TOPIC, "k", "job-1")).get(20, TimeUnit.SECONDS);
            assertEquals(0, sent.offset());
        }
        assertEquals(List.of("job-1"), consumeAll(1));
    }

    @Test
    @Order(3)
    void stopMakesConnectionsFailAndRestartServesTheSameTopicAgain() throws Exception {
        long stopping = System.nanoTime();
        kafka.stop();
        System.out.printf("Kafka KRaft broker stop (SIGTERM, controlled shutdown): %d ms%n",
                (System.nanoTime() - stopping) / 1_000_000);
        assertFalse(kafka.isRunning());
        assertThrows(ConnectException.class, () -> {
            try (Socket socket = new Socket()) {
                socket.connect(new InetSocketAddress("127.0.0.1", kafka.port()), 2000);
            }
        });
        try (Admin admin = admin()) {
            ExecutionException failed = assertThrows(ExecutionException.class,
                    () -> admin.describeCluster(new DescribeClusterOptions().timeoutMs(2000)).nodes().get(10, TimeUnit.SECONDS));
            assertTrue(failed.getCause() instanceof org.apache.kafka.common.errors.TimeoutException, failed.toString());
        }

        kafka.restart();
        System.out.printf("Kafka KRaft broker restart (same data dir): %d ms%n", kafka.lastStartTime().toMillis());
        try (Admin admin = admin()) {
            Set<String> topics = admin.listTopics().names().get(10, TimeUnit.SECONDS);
            assertTrue(topics.contains(TOPIC), "topic kept across restart: " + topics);
        }
        assertEquals(List.of("job-1"), consumeAll(1), "the record survived the restart");
    }

    private static Admin admin() {
        return Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()));
    }

    private static List<String> consumeAll(int expected) {
        Properties config = new Properties();
        config.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        config.put(ConsumerConfig.GROUP_ID_CONFIG, MachineServices.uniqueName("fixture-group"));
        config.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        config.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
        config.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
        List<String> values = new ArrayList<>();
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(config)) {
            consumer.subscribe(List.of(TOPIC));
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (values.size() < expected && System.nanoTime() < deadline) {
                for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(500))) {
                    values.add(record.value());
                }
            }
        }
        return values;
    }
}
