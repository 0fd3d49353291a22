package dev.guard.ready;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.annotation.JsonAutoDetect;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.failsafe.RetryPolicy;
import dev.guard.ready.amqp.AmqpProbe;
import dev.guard.ready.kafka.KafkaProbe;
import dev.guard.ready.nats.NatsProbe;
import dev.guard.ready.net.HttpProbe;
import dev.guard.ready.net.TcpProbe;
import dev.guard.ready.redis.RedisProbe;
import dev.guard.ready.redis.RedisSentinelProbe;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.slf4j.Logger;

/** URL parsing, CONFIG results and optional-client checks (pure logic: no connections are made). */
class ProbesTest {

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "redis://:s3cret-pw@redis:6379/2?key=jobs:ready | redis | redis:6379/2",
        "rediss://user:s3cret-pw@cache                  | redis | rediss://cache:6379",
        "amqp://guest:s3cret-pw@rabbit/jobs?queues=a,b  | amqp  | rabbit:5672/jobs",
        "amqps://rabbit                                 | amqp  | amqps://rabbit:5671",
        "nats://s3cret-token@nats:4222?stream=JOBS      | nats  | nats:4222",
        "tls://nats                                     | nats  | tls://nats:4222",
        "kafka://k1:9092,k2:9092?topics=jobs&brokers=2  | kafka | k1:9092,k2:9092",
        "tcp://db:5432                                  | tcp   | db:5432",
        "https://api/health?token=s3cret-pw             | http  | https://api/health?token=****",
    })
    void urlsMakeTheRightProbeWithAPasswordFreeTarget(String url, String kind, String target) {
        Probe p = Probes.forUrl(url);
        assertEquals(kind, p.kind());
        assertEquals(target, p.target());
        assertFalse(p.toString().contains("s3cret"), p.toString());
    }

    @Test
    void queryParametersBecomeRequirements() {
        assertEquals("jobs:ready", ((RedisProbe) Probes.forUrl("redis://r:6379?key=jobs:ready")).requiredKey());
        AmqpProbe amqp = (AmqpProbe) Probes.forUrl("amqp://r?queues=a,%20b&exchanges=x");
        assertEquals(List.of("a", "b"), amqp.requiredQueues());
        assertEquals(List.of("x"), amqp.requiredExchanges());
        assertEquals("JOBS", ((NatsProbe) Probes.forUrl("nats://n?stream=JOBS")).requiredStream());
        KafkaProbe kafka = (KafkaProbe) Probes.forUrl("kafka://k:9092?topics=a,b&brokers=3");
        assertEquals(List.of("a", "b"), kafka.requiredTopics());
        assertEquals(3, kafka.minBrokers());
        // other clients' ?master=NAME is lettuce's #NAME
        assertEquals("jobs", ((RedisSentinelProbe) Probes.forUrl("redis-sentinel://s1:26379,s2:26379/0?master=jobs")).masterName());
        assertEquals("jobs", ((RedisSentinelProbe) Probes.forUrl("redis-sentinel://s1:26379?master_name=jobs&key=ready")).masterName());
        assertInstanceOf(TcpProbe.class, Probes.forUrl("tcp://h:1"));
        assertInstanceOf(HttpProbe.class, Probes.forUrl("http://h/x"));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "foo://x:1             | foo     | unknown scheme in 'foo://x:1': expected one of redis, rediss, redis-sentinel, rediss-sentinel, amqp, amqps, nats, tls, kafka, tcp, http, https (e.g. redis://redis:6379)",
        "redis:6379            | unknown | unknown scheme in 'redis:6379': expected one of redis, rediss, redis-sentinel, rediss-sentinel, amqp, amqps, nats, tls, kafka, tcp, http, https (e.g. redis://redis:6379)",
        "kafka://k1            | kafka   | malformed kafka target 'kafka://k1': malformed Kafka bootstrap servers 'k1': 'k1' has no port (expected host:port)",
        "tcp://db:port         | tcp     | malformed tcp target 'tcp://db:port': port 'port' in 'db:port' is not a number",
        "redis://:pw@r:6379/x  | redis   | malformed redis target 'redis://:****@r:6379/x': Redis URL 'redis://:****@r:6379/x': database 'x' is not a number",
        "kafka://k:1?brokers=a | kafka   | malformed kafka target 'kafka://k:1?brokers=a': brokers=a is not a number",
        "kafka://k:1?acks=2    | kafka   | malformed kafka target 'kafka://k:1?acks=2': acks=2 is none of all, -1, 1, 0",
        "redis://h:1?async-loading=yes | redis | malformed redis target 'redis://h:1?async-loading=yes': async-loading=yes is neither ok nor no",
        "kafka://k:1?group=    | kafka   | malformed kafka target 'kafka://k:1?group=': the consumer group name is blank",
        "htp://api:8080/health | htp     | unknown scheme in 'htp://api:8080/health': expected one of redis, rediss, redis-sentinel, rediss-sentinel, amqp, amqps, nats, tls, kafka, tcp, http, https; did you mean http? (e.g. redis://redis:6379)",
        "reddis://r:6379       | reddis  | unknown scheme in 'reddis://r:6379': expected one of redis, rediss, redis-sentinel, rediss-sentinel, amqp, amqps, nats, tls, kafka, tcp, http, https; did you mean redis? (e.g. redis://redis:6379)",
        "redis://r:99999       | redis   | malformed redis target 'redis://r:99999': malformed Redis URL 'redis://r:99999': port 99999 in 'redis://r:99999' is out of range 1-65535",
        "amqp://u:p/w@r/vh     | amqp    | malformed amqp target 'amqp://u:****@r/vh': the user info of 'amqp://u:****@r/vh' holds a raw '/', '?' or '#' (in the password?): percent-encode them as %2F, %3F and %23, or every client will read a wrong host",
        "redis://:p#w@r:6379   | redis   | malformed redis target 'redis://:****@r:6379': the user info of 'redis://:****@r:6379' holds a raw '/', '?' or '#' (in the password?): percent-encode them as %2F, %3F and %23, or every client will read a wrong host",
        "redis-sentinel://s1,s2 | redis-sentinel | malformed redis-sentinel target 'redis-sentinel://s1,s2': Redis Sentinel URL 'redis-sentinel://s1,s2' names no master: add '#' and the name the sentinels monitor it by (redis-sentinel://host:26379[,host:26379][/db]#master-name)",
        "sentinel://a:26379;sentinel://b:26379 | redis-sentinel | 'sentinel://a:26379;sentinel://b:26379' is kombu's (Celery's) Sentinel URL: the master's name is in its broker_transport_options (master_name), not in the URL; for a readiness wait write redis-sentinel://host-a:26379,host-b:26379#<master_name>",
        "amqp://u:p@a//;amqp://u:p@b// | amqp | 'amqp://u:****@a//;amqp://u:****@b//' is kombu's (Celery's) failover list (';' between URLs): wait for each URL as a target of its own",
        "nats://a:4222,        | nats    | malformed nats target 'nats://a:4222,': malformed NATS URL 'nats://a:4222,': entry 2 of 'nats://a:4222,' is empty (stray comma?)",
    })
    void badUrlsGiveAConfigProbeThatSaysWhatIsWrong(String url, String kind, String message) {
        Probe p = Probes.forUrl(url);
        assertEquals(kind, p.kind());
        ProbeResult r = p.check(Duration.ofSeconds(1));
        assertEquals(ProbeState.CONFIG, r.state());
        assertEquals(message, r.detail());
        assertFalse(r.state().retryable());
    }

    @Test
    void typedFactoriesThrowOnMalformedUrls() {
        var e = assertThrows(IllegalArgumentException.class, () -> Probes.redis("http://r:6379"));
        assertEquals("Redis URL 'http://r:6379' must start with redis:// or rediss://", e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> Probes.amqp("amqp://guest:s3cret@/vhost"));
        assertFalse(e.getMessage().contains("s3cret"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> Probes.tcp("h", 0));
        assertEquals("port 0 is not in 1..65535", e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> Probes.nats("redis://n"));
        assertEquals("NATS URL 'redis://n' must start with nats:// or tls:// or opentls://", e.getMessage());
    }

    /**
     * Loads guard-core with only its required dependencies (no lettuce, amqp-client, jnats,
     * kafka-clients): the factories must say which artifact to add, and forUrl must give CONFIG.
     */
    @Test
    void missingOptionalClientSaysWhichArtifactToAdd() throws Exception {
        URL[] urls = {
            location(Probes.class), location(RetryPolicy.class), location(Logger.class),
            location(ObjectMapper.class), location(JsonFactory.class), location(JsonAutoDetect.class),
        };
        try (URLClassLoader isolated = new URLClassLoader(urls, ClassLoader.getPlatformClassLoader())) {
            assertThrows(ClassNotFoundException.class, () -> isolated.loadClass("io.lettuce.core.RedisClient"));
            Class<?> probes = isolated.loadClass(Probes.class.getName());
            Class<?> probeApi = isolated.loadClass(Probe.class.getName());
            String[][] cases = {
                {"redis", "redis://r:6379", "add io.lettuce:lettuce-core to use redis:// and rediss:// targets"},
                {"amqp", "amqp://r:5672", "add com.rabbitmq:amqp-client to use amqp:// and amqps:// targets"},
                {"nats", "nats://n:4222", "add io.nats:jnats to use nats:// and tls:// targets"},
                {"kafka", "k:9092", "add org.apache.kafka:kafka-clients to use kafka:// targets"},
            };
            for (String[] c : cases) {
                Method factory = probes.getMethod(c[0], String.class);
                InvocationTargetException e = assertThrows(InvocationTargetException.class, () -> factory.invoke(null, c[1]));
                assertInstanceOf(IllegalStateException.class, e.getCause());
                assertTrue(e.getCause().getMessage().startsWith(c[2]), e.getCause().getMessage());
                assertTrue(e.getCause().getMessage().endsWith("(it is an optional dependency of guard-core and is not on the classpath)"));
                String url = c[0].equals("kafka") ? "kafka://" + c[1] : c[1];
                Object probe = probes.getMethod("forUrl", String.class).invoke(null, url);
                Object result = probeApi.getMethod("check", Duration.class).invoke(probe, Duration.ofSeconds(1));
                assertEquals("CONFIG", result.getClass().getMethod("state").invoke(result).toString());
                assertTrue(result.getClass().getMethod("detail").invoke(result).toString().startsWith(c[2]));
            }
            // tcp and http need no client at all
            Object tcp = probes.getMethod("forUrl", String.class).invoke(null, "tcp://h:1");
            assertEquals("tcp", probeApi.getMethod("kind").invoke(tcp));
        }
    }

    private static URL location(Class<?> c) {
        return c.getProtectionDomain().getCodeSource().getLocation();
    }
}
