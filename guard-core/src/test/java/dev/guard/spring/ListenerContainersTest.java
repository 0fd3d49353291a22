package dev.guard.spring;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.guard.ready.ProbeResult;
import dev.guard.ready.ReadinessListener;
import dev.guard.ready.ReadinessReport;
import dev.guard.testing.KafkaBroker;
import dev.guard.testing.MachineServices;
import dev.guard.testing.TcpProxy;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.amqp.core.Message;
import org.springframework.amqp.rabbit.annotation.RabbitListener;
import org.springframework.amqp.rabbit.core.RabbitTemplate;
import org.springframework.amqp.rabbit.listener.RabbitListenerEndpointRegistry;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.Lifecycle;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.kafka.annotation.KafkaListener;
import org.springframework.kafka.config.KafkaListenerEndpointRegistry;
import org.springframework.kafka.core.KafkaTemplate;

/**
 * Spring's own listener containers, a {@code @RabbitListener} and a {@code @KafkaListener} set up
 * by Spring Boot's auto-configuration, held behind the readiness gate: while the broker refuses
 * connections (or a required topic does not exist yet) the gate waits and no container runs;
 * once the broker is ready the containers start, and a message sent then is received.
 *
 * <p>Runs in a surefire execution of its own: spring-rabbit and spring-kafka on the class path
 * would make RabbitMQ and Kafka "in use" for every other Spring test.
 */
class ListenerContainersTest {

    static final BlockingQueue<String> RECEIVED = new LinkedBlockingQueue<>();
    static final List<String> EVENTS = Collections.synchronizedList(new ArrayList<>());

    @BeforeEach
    void clear() {
        RECEIVED.clear();
        EVENTS.clear();
        SpringApps.assertBootUnderTest();
    }

    /** Records, at each change the gate sees and when it ends, whether any listener container runs. */
    static final class ContainerWatch implements ReadinessListener {
        private final Supplier<Collection<? extends Lifecycle>> containers;

        ContainerWatch(Supplier<Collection<? extends Lifecycle>> containers) {
            this.containers = containers;
        }

        @Override
        public void onStateChange(ProbeResult previous, ProbeResult current) {
            EVENTS.add(current.state().label() + ", containers running: " + running());
        }

        @Override
        public void onWaitEnded(ReadinessReport report) {
            EVENTS.add("wait ended " + report.outcome() + ", containers running: " + running());
        }

        boolean running() {
            Collection<? extends Lifecycle> all = containers.get();
            return !all.isEmpty() && all.stream().anyMatch(Lifecycle::isRunning);
        }
    }

    /** Its queue is declared by another service (here: the test), as a producer's often is. */
    @Configuration(proxyBeanMethods = false)
    static class RabbitWorker {
        @Bean
        RabbitJobs rabbitJobs() {
            return new RabbitJobs();
        }

        @Bean
        ContainerWatch containerWatch(ObjectProvider<RabbitListenerEndpointRegistry> registry) {
            return new ContainerWatch(() -> registry.getObject().getListenerContainers());
        }
    }

    static class RabbitJobs {
        @RabbitListener(queues = "${test.queue}")
        void on(Message message) {
            RECEIVED.add(new String(message.getBody(), java.nio.charset.StandardCharsets.UTF_8));
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class KafkaWorker {
        @Bean
        KafkaJobs kafkaJobs() {
            return new KafkaJobs();
        }

        @Bean
        ContainerWatch containerWatch(ObjectProvider<KafkaListenerEndpointRegistry> registry) {
            return new ContainerWatch(() -> registry.getObject().getListenerContainers());
        }
    }

    static class KafkaJobs {
        @KafkaListener(topics = "${test.topic}", groupId = "guard-listener-test")
        void on(String value) {
            RECEIVED.add(value);
        }
    }

    @Test
    void aRabbitListenerStartsOnlyOnceRabbitMqAnswersAndItsQueueExists() throws Exception {
        String queue = MachineServices.uniqueName("guard-spring-listener");
        URI amqp = URI.create(MachineServices.amqpUri());
        try (TcpProxy proxy = TcpProxy.forward(amqp.getHost(), amqp.getPort() < 0 ? 5672 : amqp.getPort())) {
            int port = proxy.port();
            proxy.mode(TcpProxy.Mode.REFUSE);
            String yaml = "spring.rabbitmq.host: 127.0.0.1\nspring.rabbitmq.port: " + port + "\n"
                    + "guard.brokers: rabbitmq\nguard.rabbitmq.queues: " + queue + "\nguard.wait.deadline: 120s\ntest.queue: " + queue + "\n";
            SpringApps.Starting app = SpringApps.start(yaml, RabbitWorker.class);
            awaitEvent(app, "refused", Duration.ofSeconds(60));
            Thread.sleep(1500); // the containers would have started by now, without the gate
            assertFalse(app.done(), "the application finished starting while RabbitMQ refused: " + EVENTS);
            assertTrue(EVENTS.stream().noneMatch(e -> e.endsWith("containers running: true")), EVENTS.toString());

            proxy.mode(TcpProxy.Mode.FORWARD);
            awaitEvent(app, "missing", Duration.ofSeconds(60)); // RabbitMQ answers, the queue is not declared yet
            Thread.sleep(1000);
            assertFalse(app.done(), "the application finished starting before its queue existed: " + EVENTS);
            assertTrue(EVENTS.stream().noneMatch(e -> e.endsWith("containers running: true")), EVENTS.toString());

            com.rabbitmq.client.ConnectionFactory factory = new com.rabbitmq.client.ConnectionFactory();
            factory.setUri(MachineServices.amqpUri());
            try (com.rabbitmq.client.Connection c = factory.newConnection(); com.rabbitmq.client.Channel ch = c.createChannel()) {
                ch.queueDeclare(queue, false, false, true, null); // auto-delete: gone once the listener stops
            }
            try (ConfigurableApplicationContext ctx = app.awaitStarted(Duration.ofSeconds(90), EVENTS)) {
                assertEquals("wait ended READY, containers running: false", EVENTS.get(EVENTS.size() - 1), EVENTS.toString());
                assertTrue(ctx.getBean(RabbitListenerEndpointRegistry.class).isRunning());
                ctx.getBean(RabbitTemplate.class).convertAndSend("", queue, "job-1");
                assertEquals("job-1", RECEIVED.poll(60, TimeUnit.SECONDS), "the @RabbitListener received nothing");
            }
        }
    }

    @Test
    void aKafkaListenerStartsOnlyOnceTheBrokerAndItsTopicAreThere() throws Exception {
        String topic = MachineServices.uniqueName("guard-spring-orders");
        try (KafkaBroker broker = KafkaBroker.builder().build()) {
            String yaml = "spring.kafka.bootstrap-servers: " + broker.bootstrapServers() + "\n"
                    + "spring.kafka.consumer.auto-offset-reset: earliest\n"
                    + "guard.brokers: kafka\nguard.kafka.topics: " + topic + "\nguard.wait.deadline: 240s\ntest.topic: " + topic + "\n";
            SpringApps.Starting app = SpringApps.start(yaml, KafkaWorker.class);
            awaitEvent(app, "refused", Duration.ofSeconds(60));

            broker.start();
            awaitEvent(app, "missing", Duration.ofSeconds(120)); // the broker answers, the topic is not there yet
            Thread.sleep(1000);
            assertFalse(app.done(), "the application finished starting before its topic existed: " + EVENTS);
            assertTrue(EVENTS.stream().noneMatch(e -> e.endsWith("containers running: true")), EVENTS.toString());

            Properties admin = new Properties();
            admin.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers());
            try (Admin a = Admin.create(admin)) {
                a.createTopics(List.of(new NewTopic(topic, 1, (short) 1))).all().get(60, TimeUnit.SECONDS);
            }
            try (ConfigurableApplicationContext ctx = app.awaitStarted(Duration.ofSeconds(120), EVENTS)) {
                assertEquals("wait ended READY, containers running: false", EVENTS.get(EVENTS.size() - 1), EVENTS.toString());
                assertTrue(ctx.getBean(KafkaListenerEndpointRegistry.class).isRunning());
                @SuppressWarnings("unchecked")
                KafkaTemplate<Object, Object> template = ctx.getBean(KafkaTemplate.class);
                template.send(topic, "order-1").get(60, TimeUnit.SECONDS);
                assertEquals("order-1", RECEIVED.poll(90, TimeUnit.SECONDS), "the @KafkaListener received nothing");

                // Spring Boot has no Kafka health; guard's says what it checked
                SpringReadinessTest.Health health = SpringReadinessTest.Health.settled(ctx.getBean("kafkaHealthContributor"));
                assertEquals("UP", health.status(), health.toString());
                assertEquals(broker.bootstrapServers(), health.details().get("target"), health.toString());
                assertTrue(String.valueOf(health.details().get("detail")).contains(topic), health.toString());
            }
        }
    }

    /** Waits until the gate has seen {@code state} (as its first event of that state). */
    private static void awaitEvent(SpringApps.Starting app, String state, Duration timeout) throws InterruptedException {
        assertTrue(app.await(() -> EVENTS.stream().anyMatch(e -> e.startsWith(state + ",")), timeout),
                "the gate never saw '" + state + "' within " + timeout.toSeconds() + " s: " + EVENTS + " " + app);
    }
}
