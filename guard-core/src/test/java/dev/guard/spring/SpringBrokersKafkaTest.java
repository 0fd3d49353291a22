package dev.guard.spring;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.guard.config.PropertyLookup;
import dev.guard.config.Setting;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The Kafka target guard waits on for a Spring Boot worker, from Boot's own property names. */
class SpringBrokersKafkaTest {

    private static PropertyLookup properties(Map<String, String> values) {
        return name -> values.containsKey(name)
                ? new PropertyLookup.Found(values.get(name), "class path resource [application.yml]", Setting.Source.FILE,
                        List.of(), null)
                : null;
    }

    @Test
    void theListenersGroupIsTheGroupWhoseCoordinatorMustAnswer() {
        SpringBrokers.Broker b = SpringBrokers.kafka(properties(Map.of("spring.kafka.bootstrap-servers", "kafka:9092",
                "spring.kafka.consumer.group-id", "thumbnail workers")), List.of("jobs"));
        assertEquals("kafka://kafka:9092?topics=jobs&group=thumbnail+workers", b.target());
    }

    @Test
    void withoutAGroupIdNothingIsAskedOfACoordinator() {
        SpringBrokers.Broker b = SpringBrokers.kafka(properties(Map.of("spring.kafka.bootstrap-servers", "kafka:9092")),
                List.of());
        assertEquals("kafka://kafka:9092", b.target());
    }
}
