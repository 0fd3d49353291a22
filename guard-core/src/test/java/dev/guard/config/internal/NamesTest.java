package dev.guard.config.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class NamesTest {

    @ParameterizedTest(name = "{0} ~ {1}: {2}")
    @CsvSource({
        "REDIS_URL, CACHE_URL, true",
        "REDIS_URL, REDIS_ULR, true",
        "REDIS_URL, REDISURL, true",
        "REDIS_URL, redis-url, true",
        "REDIS_URL, REDIS_UR, true",
        "REDIS_URL, WORKER_REDIS_URL, true",
        "REDIS_URL, REDIS_ENDPOINT, true",
        "KAFKA_BROKERS, KAFKA_BROKER, true",
        "NATS_URL, NATS_URI, true",
        "REDIS_URL, REDIS_PASSWORD, false",
        "REDIS_URL, REDIS_PORT, false",
        "REDIS_URL, REDIS_DB, false",
        "NATS_URL, NATS_USER, false",
        "NATS_URL, NATS_TOKEN, false",
        "REDIS_URL, POSTGRES_URL, false",
        "AMQP_URL, PATH, false",
    })
    void nearNames(String required, String candidate, boolean near) {
        boolean family = Names.familyOf(required).contains(candidate);
        assertEquals(near, family || Names.isClose(required, candidate));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "REDIS_URL | CACHE_URL=x,REDIS_ULR=y,REDIS_PASSWORD=z,HOME=/root | CACHE_URL,REDIS_ULR",
        "REDIS_URL | REDIS_HOST=redis,CACHE_URL=   | REDIS_HOST",
        "KAFKA_BROKERS | BOOTSTRAP_SERVERS=b:9092,SPRING_KAFKA_BOOTSTRAP_SERVERS=c:9092 | BOOTSTRAP_SERVERS,SPRING_KAFKA_BOOTSTRAP_SERVERS",
    })
    void familyFirstThenCloseSpellingsAndNeverBlankOnes(String required, String env, String expected) {
        Map<String, String> map = new java.util.LinkedHashMap<>();
        for (String kv : env.split(",")) {
            String[] p = kv.split("=", 2);
            map.put(p[0].trim(), p.length > 1 ? p[1] : "");
        }
        assertEquals(List.of(expected.split(",")), Names.driftCandidates(required, map));
    }
}
