package dev.guard.spring;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.guard.testing.FreePorts;
import dev.guard.testing.MachineServices;
import dev.guard.testing.RedisServer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.availability.AvailabilityChangeEvent;
import org.springframework.boot.availability.LivenessState;
import org.springframework.boot.availability.ReadinessState;
import org.springframework.context.ApplicationListener;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.SmartLifecycle;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The readiness gate in Spring's lifecycle and the health contributors, against real servers: a
 * Redis really loading its dataset, the machine's RabbitMQ and NATS, a port nobody listens on.
 */
class SpringReadinessTest {

    /** What happened, in order: availability changes and the start of the "listener container". */
    static final List<String> EVENTS = Collections.synchronizedList(new ArrayList<>());
    /** Whether the Redis answered -LOADING at the moment the listener container started. */
    static final AtomicReference<Boolean> LOADING_WHEN_LISTENER_STARTED = new AtomicReference<>();
    static volatile RedisServer redis;
    /** The registry the applications of these tests measure into (a bean of {@link ListenerContainer}). */
    static final SimpleMeterRegistry METERS = new SimpleMeterRegistry();

    /** A lifecycle bean of the default phase, where Spring Kafka's and Spring AMQP's containers start. */
    @Configuration(proxyBeanMethods = false)
    static class ListenerContainer {
        @Bean
        SmartLifecycle fakeListenerContainer() {
            return new SmartLifecycle() {
                private volatile boolean running;

                @Override
                public void start() {
                    LOADING_WHEN_LISTENER_STARTED.set(redis != null && redis.isLoading());
                    EVENTS.add("listener started");
                    running = true;
                }

                @Override
                public void stop() {
                    running = false;
                }

                @Override
                public boolean isRunning() {
                    return running;
                }
            };
        }

        @Bean(destroyMethod = "") // shared by the tests: no context may close it
        MeterRegistry meterRegistry() {
            return METERS;
        }

        @Bean
        ApplicationListener<AvailabilityChangeEvent<?>> availabilityRecorder() {
            return e -> EVENTS.add(e.getState().getClass().getSimpleName() + "." + e.getState());
        }
    }

    @BeforeEach
    void reset() {
        EVENTS.clear();
        LOADING_WHEN_LISTENER_STARTED.set(null);
        redis = null;
        METERS.clear();
    }

    @Test
    void listenersStartOnlyOnceTheLoadingRedisServesAndTheAppRefusesTrafficMeanwhile() throws Exception {
        try (RedisServer server = RedisServer.builder().preloadKeys(40_000).heldLoading().build().startLoading()) {
            redis = server;
            String yaml = "spring.data.redis.url: redis://127.0.0.1:" + server.port() + "\nguard.brokers: redis\n"
                    + "guard.wait.deadline: 60s\n";
            SpringApps.Starting app = SpringApps.start(yaml, ListenerContainer.class);
            boolean refusing = app.await(() -> EVENTS.contains("ReadinessState.REFUSING_TRAFFIC"), Duration.ofSeconds(30));
            assertTrue(refusing, "no REFUSING_TRAFFIC while waiting: " + EVENTS + " " + app);
            Thread.sleep(1000);
            assertTrue(server.isLoading(), "the held load ended by itself");
            assertFalse(EVENTS.contains("listener started"), "the listener container started while Redis was loading: " + EVENTS);
            server.finishLoading();
            try (ConfigurableApplicationContext ctx = app.awaitStarted(Duration.ofSeconds(60), "after the load ended: " + EVENTS)) {
                assertEquals(Boolean.FALSE, LOADING_WHEN_LISTENER_STARTED.get());
                List<String> events = List.copyOf(EVENTS);
                assertTrue(events.indexOf("LivenessState.CORRECT") < events.indexOf("listener started"), events.toString());
                assertTrue(events.indexOf("ReadinessState.REFUSING_TRAFFIC") < events.indexOf("listener started"), events.toString());
                assertEquals("ReadinessState.ACCEPTING_TRAFFIC", events.get(events.size() - 1), events.toString());
                ReadinessGateLifecycle gate = ctx.getBean(ReadinessGateLifecycle.class);
                assertTrue(gate.lastReport().ready());
                assertTrue(gate.lastReport().elapsed().toMillis() >= 1000, gate.lastReport().render());
                // the wait, measured: one wait that ended ready, at least the second the test held the load
                Tags target = Tags.of("kind", "redis", "target", "127.0.0.1:" + server.port());
                Timer wait = METERS.get("guard.readiness.wait").tags(target).tag("outcome", "ready").timer();
                assertEquals(1, wait.count());
                assertTrue(wait.totalTime(TimeUnit.MILLISECONDS) >= 1000, wait.totalTime(TimeUnit.MILLISECONDS) + " ms");
                assertEquals(1.0, METERS.get("guard.readiness.ready").tags(target).gauge().value());
                assertEquals(0.0, METERS.get("guard.readiness.state").tags(target).tag("state", "loading").gauge().value());
            }
        }
    }

    @Test
    void aBrokerNotReadyByTheDeadlineFailsTheStartWithExit69AndWhatWasFound() {
        int closed = FreePorts.next();
        String yaml = "spring.kafka.bootstrap-servers: 127.0.0.1:" + closed + "\nguard.brokers: kafka\nguard.wait.deadline: 2s\n";
        // Spring wraps what a lifecycle bean throws; its exit code and the FailureAnalyzer look through the causes
        RuntimeException thrown = assertThrows(RuntimeException.class,
                () -> SpringApps.run(Map.of(), yaml, List.of(ListenerContainer.class)).close());
        Throwable t = thrown;
        while (t != null && !(t instanceof GuardStartupException)) {
            t = t.getCause();
        }
        GuardStartupException e = assertInstanceOf(GuardStartupException.class, t, "not caused by guard: " + thrown);
        assertEquals(69, e.getExitCode());
        assertFalse(EVENTS.contains("listener started"), EVENTS.toString());
        assertTrue(e.description().contains("they were not all ready within 2s"), e.description());
        assertTrue(e.description().contains("kafka 127.0.0.1:" + closed), e.description());
        assertTrue(e.description().contains("refused"), e.description());
        assertTrue(e.action().contains("guard.wait.deadline (now 2s)"), e.action());
        Tags target = Tags.of("kind", "kafka", "target", "127.0.0.1:" + closed);
        assertEquals(1, METERS.get("guard.readiness.wait").tags(target).tag("outcome", "refused").timer().count());
        assertEquals(0.0, METERS.get("guard.readiness.ready").tags(target).gauge().value());
        assertEquals(1.0, METERS.get("guard.readiness.state").tags(target).tag("state", "refused").gauge().value());
        assertNotNull(new GuardFailureAnalyzer().analyze(thrown), "the FailureAnalyzer did not find guard's exception among the causes");
    }

    @Test
    void redisHealthIsDownWithItsProgressWhileLoadingThenUp() throws Exception {
        try (RedisServer server = RedisServer.builder().preloadKeys(40_000).heldLoading().build().startLoading()) {
            String yaml = "spring.data.redis.url: redis://127.0.0.1:" + server.port() + "\nguard.brokers: redis\n"
                    + "guard.wait.enabled: false\n";
            try (ConfigurableApplicationContext ctx = SpringApps.run(Map.of(), yaml, List.of())) {
                Object indicator = ctx.getBean("redisHealthContributor");
                // every check says DOWN and loading; a check on a busy machine may run out of time for the
                // INFO that gives the progress ("progress unreadable"), so the test takes the first that has it
                long until = System.nanoTime() + Duration.ofSeconds(30).toNanos();
                Health loading = Health.settled(indicator);
                while (true) {
                    System.out.println("health of a loading Redis: " + loading);
                    assertEquals("DOWN", loading.status(), loading.toString());
                    assertEquals("loading", loading.details().get("state"), loading.toString());
                    if (String.valueOf(loading.details().get("detail")).contains("%") || System.nanoTime() > until) {
                        break;
                    }
                    loading = Health.settled(indicator);
                }
                assertTrue(String.valueOf(loading.details().get("detail")).contains("%"), "no progress: " + loading);
                assertEquals("redis", ((Map<?, ?>) ctx.getBean(GuardBrokers.class).target("redis").map(t -> Map.of("redis", t))
                        .orElseThrow()).keySet().iterator().next());
                server.finishLoading();
                server.awaitLoaded(Duration.ofSeconds(60));
                Health up = Health.settled(indicator);
                assertEquals("UP", up.status(), up.toString());
                assertNull(up.details().get("action"), up.toString());
            }
        }
    }

    @Test
    void rabbitAndNatsAreUpAndAKafkaNobodyRunsIsDownWithTheAction() throws Exception {
        int closed = FreePorts.next();
        String yaml = "spring.rabbitmq.addresses: " + MachineServices.amqpUri() + "\nguard.nats.url: " + MachineServices.natsUrl()
                + "\nspring.kafka.bootstrap-servers: 127.0.0.1:" + closed + "\nguard.brokers: rabbitmq, nats, kafka\n"
                + "guard.wait.enabled: false\n";
        try (ConfigurableApplicationContext ctx = SpringApps.run(Map.of(), yaml, List.of())) {
            Health rabbit = Health.settled(ctx.getBean("rabbitHealthContributor"));
            assertEquals("UP", rabbit.status(), rabbit.toString());
            assertFalse(rabbit.toString().contains("guest:guest"), rabbit.toString());
            Health nats = Health.settled(ctx.getBean("natsHealthContributor"));
            assertEquals("UP", nats.status(), nats.toString());
            Health kafka = Health.settled(ctx.getBean("kafkaHealthContributor"));
            assertEquals("DOWN", kafka.status(), kafka.toString());
            assertEquals("refused", kafka.details().get("state"), kafka.toString());
            assertInstanceOf(String.class, kafka.details().get("action"));
        }
    }

    /** An application's own health bean under one of Spring Boot's names, the application wins over guard. */
    @Configuration(proxyBeanMethods = false)
    static class OwnRedisHealth {
        @Bean
        Object redisHealthIndicator() {
            return "the application's own";
        }
    }

    @Test
    void anApplicationsOwnHealthBeanWinsAndHealthCanBeTurnedOff() {
        String yaml = "spring.data.redis.url: " + MachineServices.redisUri() + "\nguard.nats.url: " + MachineServices.natsUrl()
                + "\nguard.brokers: redis, nats\nguard.wait.enabled: false\n";
        try (ConfigurableApplicationContext ctx = SpringApps.run(Map.of(), yaml, List.of(OwnRedisHealth.class))) {
            assertEquals("the application's own", ctx.getBean("redisHealthIndicator"));
            assertFalse(ctx.containsBean("redisHealthContributor"), "guard registered a second Redis health");
            assertTrue(ctx.containsBean("natsHealthContributor"));
        }
        try (ConfigurableApplicationContext ctx = SpringApps.run(Map.of(), yaml + "guard.health.enabled: false\n", List.of())) {
            assertFalse(ctx.containsBean("redisHealthContributor"));
            assertFalse(ctx.containsBean("natsHealthContributor"));
            assertTrue(ctx.containsBean("guardBrokers"), "the rest of guard stays on");
        }
    }

    /** A health result read from either Boot's {@code Health} (3: actuate.health, 4: health.contributor), by reflection. */
    record Health(String status, Map<String, Object> details) {
        @SuppressWarnings("unchecked")
        static Health of(Object indicator) throws Exception {
            Object h = indicator.getClass().getMethod("health").invoke(indicator);
            Object status = h.getClass().getMethod("getStatus").invoke(h);
            Map<String, Object> details = (Map<String, Object>) h.getClass().getMethod("getDetails").invoke(h);
            return new Health(status.toString(), details);
        }

        /**
         * The first health check that did not time out (at most 30 s of them): on a busy machine the
         * first check of a cold JVM can take longer than its 2 s bound (client start-up, connect),
         * and TIMEOUT is then the right answer; what the test asserts is the answer after that.
         */
        static Health settled(Object indicator) throws Exception {
            long until = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            Health h = of(indicator);
            while ("timeout".equals(h.details().get("state")) && System.nanoTime() < until) {
                System.out.println("health check timed out, checking again: " + h);
                h = of(indicator);
            }
            return h;
        }
    }
}
